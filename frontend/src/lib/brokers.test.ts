import { describe, expect, it } from "vitest";
import type { ConfigEntry, LogDir } from "../api/types";
import {
  brokerSourceLabel,
  brokerSourceTone,
  filterBrokerConfigs,
  filterReplicas,
  logDirUsage,
  replicaRows,
  sortApiVersions,
  sortReplicas,
  totalSize,
  usageLevel,
} from "./brokers";

function replica(topic: string, partition: number, size_bytes: number, is_future = false) {
  return { topic, partition, size_bytes, offset_lag: 0, is_future };
}

const DIRS: LogDir[] = [
  {
    path: "/d0",
    total_bytes: 1000,
    usable_bytes: 250,
    error: null,
    replicas: [replica("b", 1, 10), replica("a", 0, 300), replica("b", 0, 10)],
  },
  // A partition moving from /d0 to /d1: in both, once as the future replica.
  { path: "/d1", total_bytes: 1000, usable_bytes: 950, error: null, replicas: [replica("a", 0, 120, true), replica("c", 3, 50)] },
];

function config(name: string, is_default: boolean): ConfigEntry {
  return { name, value: "1", source: is_default ? "DEFAULT_CONFIG" : "STATIC_BROKER_CONFIG", is_default, read_only: true, sensitive: false };
}

describe("logDirUsage", () => {
  it("is total − usable, as a share of the total", () => {
    expect(logDirUsage({ total_bytes: 1000, usable_bytes: 250 })).toEqual({ used: 750, fraction: 0.75 });
    expect(logDirUsage({ total_bytes: 1000, usable_bytes: 1000 })).toEqual({ used: 0, fraction: 0 });
    expect(logDirUsage({ total_bytes: 1000, usable_bytes: 0 })).toEqual({ used: 1000, fraction: 1 });
  });

  it("is unknown when the broker does not report both sizes, and has no share of an empty volume", () => {
    expect(logDirUsage({ total_bytes: null, usable_bytes: null })).toEqual({ used: null, fraction: null });
    expect(logDirUsage({ total_bytes: 1000, usable_bytes: null })).toEqual({ used: null, fraction: null });
    expect(logDirUsage({ total_bytes: null, usable_bytes: 5 })).toEqual({ used: null, fraction: null });
    expect(logDirUsage({ total_bytes: 0, usable_bytes: 0 })).toEqual({ used: 0, fraction: null });
  });

  it("never goes below 0 or above 1 on odd answers", () => {
    expect(logDirUsage({ total_bytes: 100, usable_bytes: 150 })).toEqual({ used: 0, fraction: 0 });
  });
});

describe("usageLevel", () => {
  it("turns amber above 80 % and red above 90 %", () => {
    expect(usageLevel(0)).toBe("ok");
    expect(usageLevel(0.8)).toBe("ok");
    expect(usageLevel(0.8001)).toBe("warn");
    expect(usageLevel(0.9)).toBe("warn");
    expect(usageLevel(0.9001)).toBe("critical");
    expect(usageLevel(1)).toBe("critical");
  });
});

describe("replica rows", () => {
  const rows = replicaRows(DIRS);

  it("flattens every dir's replicas with their dir, each with a unique key", () => {
    expect(rows.map((r) => `${r.logDir}:${r.topic}-${r.partition}`)).toEqual([
      "/d0:b-1", "/d0:a-0", "/d0:b-0", "/d1:a-0", "/d1:c-3",
    ]);
    expect(new Set(rows.map((r) => r.key)).size).toBe(rows.length);
    expect(replicaRows([])).toEqual([]);
  });

  it("sums the sizes", () => {
    expect(totalSize(rows)).toBe(490);
    expect(totalSize(DIRS[0]!.replicas)).toBe(320);
    expect(totalSize([])).toBe(0);
  });

  it("sorts by size (ties by topic and partition) or by topic and partition, either way", () => {
    const ids = (list: typeof rows) => list.map((r) => `${r.topic}-${r.partition}${r.is_future ? "*" : ""}`);
    expect(ids(sortReplicas(rows, "size", true))).toEqual(["a-0", "a-0*", "c-3", "b-0", "b-1"]);
    expect(ids(sortReplicas(rows, "size", false))).toEqual(["b-0", "b-1", "c-3", "a-0*", "a-0"]);
    expect(ids(sortReplicas(rows, "topic", false))).toEqual(["a-0", "a-0*", "b-0", "b-1", "c-3"]);
    expect(ids(sortReplicas(rows, "topic", true))).toEqual(["c-3", "b-1", "b-0", "a-0*", "a-0"]);
    // A copy: the input keeps its order.
    expect(ids(rows)).toEqual(["b-1", "a-0", "b-0", "a-0*", "c-3"]);
  });

  it("filters by topic name, case-insensitively; an empty filter keeps them all", () => {
    expect(filterReplicas(rows, "")).toBe(rows);
    expect(filterReplicas(rows, "  ")).toBe(rows);
    expect(filterReplicas(rows, " B ").map((r) => r.topic)).toEqual(["b", "b"]);
    expect(filterReplicas(rows, "zzz")).toEqual([]);
  });
});

describe("broker configs", () => {
  it("names the sources as the page says them, others as Kafka does", () => {
    expect(brokerSourceLabel("DEFAULT_CONFIG")).toBe("default");
    expect(brokerSourceLabel("STATIC_BROKER_CONFIG")).toBe("static (server.properties)");
    expect(brokerSourceLabel("DYNAMIC_BROKER_CONFIG")).toBe("dynamic, this broker");
    expect(brokerSourceLabel("DYNAMIC_DEFAULT_BROKER_CONFIG")).toBe("dynamic, cluster-wide");
    expect(brokerSourceLabel("DYNAMIC_BROKER_LOGGER_CONFIG")).toBe("DYNAMIC_BROKER_LOGGER_CONFIG");
    expect(brokerSourceTone("DYNAMIC_BROKER_CONFIG")).toBe("info");
    expect(brokerSourceTone("DEFAULT_CONFIG")).toBe("neutral");
  });

  it("filters by name and to the values not at their default, sorted by name", () => {
    const configs = [config("num.io.threads", true), config("log.dirs", false), config("log.segment.bytes", true)];
    expect(filterBrokerConfigs(configs, "", false).map((c) => c.name)).toEqual(["log.dirs", "log.segment.bytes", "num.io.threads"]);
    expect(filterBrokerConfigs(configs, "", true).map((c) => c.name)).toEqual(["log.dirs"]);
    expect(filterBrokerConfigs(configs, " LOG ", false).map((c) => c.name)).toEqual(["log.dirs", "log.segment.bytes"]);
    expect(filterBrokerConfigs(configs, "threads", true)).toEqual([]);
  });
});

describe("sortApiVersions", () => {
  it("sorts by key, in a copy", () => {
    const versions = [
      { key: 18, api: "ApiVersions", min: 0, max: 3 },
      { key: 0, api: "Produce", min: 0, max: 11 },
      { key: 1, api: "Fetch", min: 0, max: 16 },
    ];
    expect(sortApiVersions(versions).map((v) => v.key)).toEqual([0, 1, 18]);
    expect(versions[0]!.key).toBe(18);
  });
});

import { describe, expect, it } from "vitest";
import type { LagPoint } from "../api/types";
import { at, groupStateMessage, lagMessage, partitionLag, T0, topicLag } from "../test/liveFixtures";
import { formatDuration, formatRate } from "./format";
import {
  appendLivePoints,
  appendPartitionSample,
  EMPTY_PARTITION_SERIES,
  livePointsOf,
  partitionRows,
  pointTopics,
  topicSeries,
  topPartitions,
} from "./lagHistory";
import { catchUpSortValue, formatCatchUp, worstRisk, worstStatus } from "./lagStatus";
import { applyGroupMessages, EMPTY_LIVE_GROUP, membershipChanged } from "./liveGroup";

const point = (seconds: number, topic: string, lag: number, extra: Partial<LagPoint> = {}): LagPoint => ({
  ts: at(seconds),
  topic,
  lag,
  lag_seconds: lag / 10,
  write_per_s: 1,
  consume_per_s: 2,
  status: "OK",
  ...extra,
});

const ms = (seconds: number) => Date.parse(T0) + seconds * 1000;

describe("livePointsOf", () => {
  it("makes one history point per topic, with the topic's worst partition status", () => {
    const message = lagMessage("g", {
      ts: at(5),
      topics: {
        payments: topicLag({ lag: 0, max_lag_seconds: 0, write_per_s: 1, consume_per_s: 1 }),
        orders: topicLag({ lag: 30, max_lag_seconds: 65, write_per_s: 5, consume_per_s: 3 }),
      },
      partitions: [
        partitionLag("orders", 0, { status: "OK" }),
        partitionLag("orders", 1, { status: "STALL" }),
        partitionLag("payments", 0, { status: "UNKNOWN" }),
      ],
    });
    expect(livePointsOf(message)).toEqual([
      { ts: at(5), topic: "orders", lag: 30, lag_seconds: 65, write_per_s: 5, consume_per_s: 3, status: "STALL" },
      { ts: at(5), topic: "payments", lag: 0, lag_seconds: 0, write_per_s: 1, consume_per_s: 1, status: "UNKNOWN" },
    ]);
    expect(livePointsOf(lagMessage("g", { ts: null, topics: { t: topicLag() } }))).toEqual([]);
  });
});

describe("appendLivePoints", () => {
  it("appends in time order without duplicates, keeping the newest `cap`", () => {
    const a = appendLivePoints([], [point(0, "t", 1), point(0, "u", 1)]);
    const b = appendLivePoints(a, [point(5, "t", 2), point(0, "t", 1)]);
    expect(b.map((p) => [p.ts, p.topic])).toEqual([
      [at(0), "t"],
      [at(0), "u"],
      [at(5), "t"],
    ]);
    expect(appendLivePoints(b, [])).toBe(b);
    expect(appendLivePoints(b, [point(0, "u", 1)])).toBe(b);
    expect(appendLivePoints(b, [point(10, "t", 3)], 2).map((p) => p.ts)).toEqual([at(5), at(10)]);
  });
});

describe("topicSeries", () => {
  const fetched = [point(0, "orders", 10), point(0, "payments", 1), point(5, "orders", 20), point(10, "orders", 30)];

  it("is the topic's fetched history followed by the newer live points", () => {
    const live = [point(10, "orders", 999), point(15, "orders", 40), point(15, "payments", 2), point(20, "orders", 50)];
    const series = topicSeries(fetched, live, "orders", "1h");
    expect(series.map((p) => [p.t, p.lag])).toEqual([
      [ms(0), 10],
      [ms(5), 20],
      [ms(10), 30], // the fetched point wins over a live one at the same time
      [ms(15), 40],
      [ms(20), 50],
    ]);
    expect(series[0]).toEqual({ t: ms(0), lag: 10, lag_seconds: 1, write_per_s: 1, consume_per_s: 2, status: "OK" });
    expect(topicSeries(fetched, [], "payments", "1h").map((p) => p.lag)).toEqual([1]);
    expect(topicSeries([], live, "orders", "1h").map((p) => p.lag)).toEqual([999, 40, 50]);
  });

  it("keeps one live point a minute on the 24h window (the newest of each minute)", () => {
    const day = [point(0, "t", 1)];
    const live = [point(60, "t", 2), point(65, "t", 3), point(110, "t", 4), point(125, "t", 5)];
    expect(topicSeries(day, live, "t", "24h").map((p) => p.lag)).toEqual([1, 4, 5]);
    expect(topicSeries(day, live, "t", "1h").map((p) => p.lag)).toEqual([1, 2, 3, 4, 5]);
  });

  it("drops what is older than the window before the newest point (or now)", () => {
    const old = [point(-7200, "t", 1), point(-3000, "t", 2), point(0, "t", 3)];
    expect(topicSeries(old, [], "t", "1h").map((p) => p.lag)).toEqual([2, 3]);
    expect(topicSeries(old, [], "t", "24h").map((p) => p.lag)).toEqual([1, 2, 3]);
    expect(topicSeries(old, [], "t", "1h", ms(3000)).map((p) => p.lag)).toEqual([3]);
  });

  it("lists the topics of several point lists", () => {
    expect(pointTopics(fetched, [point(0, "audit", 1)])).toEqual(["audit", "orders", "payments"]);
  });
});

describe("per-partition series", () => {
  const sample = (seconds: number, lags: Record<string, number>) =>
    lagMessage("g", {
      ts: at(seconds),
      partitions: Object.entries(lags).map(([key, lag]) => {
        const dash = key.lastIndexOf("-");
        return partitionLag(key.slice(0, dash), Number(key.slice(dash + 1)), { lag, lag_seconds: lag / 2 });
      }),
    });

  it("adds one sample per new message, partitions in topic then partition order", () => {
    let series = appendPartitionSample(EMPTY_PARTITION_SERIES, sample(0, { "orders-10": 5, "orders-2": 1 }));
    series = appendPartitionSample(series, sample(5, { "orders-2": 3, "a.b-0": 7 }));
    expect(series.partitions.map((p) => p.key)).toEqual(["a.b-0", "orders-2", "orders-10"]);
    expect(series.samples.map((s) => s.t)).toEqual([ms(0), ms(5)]);
    expect(appendPartitionSample(series, sample(5, { "orders-2": 9 }))).toBe(series); // not newer
    expect(partitionRows(series, ["a.b-0", "orders-10"], "lag")).toEqual([
      { t: ms(0), values: { "a.b-0": null, "orders-10": 5 } },
      { t: ms(5), values: { "a.b-0": 7, "orders-10": null } },
    ]);
    expect(partitionRows(series, ["orders-2"], "seconds").map((r) => r.values["orders-2"])).toEqual([0.5, 1.5]);
  });

  it("keeps the newest `cap` samples", () => {
    let series = EMPTY_PARTITION_SERIES;
    for (let i = 0; i < 10; i++) series = appendPartitionSample(series, sample(i, { "t-0": i }), 4);
    expect(series.samples.map((s) => s.lag["t-0"])).toEqual([6, 7, 8, 9]);
  });

  it("picks the partitions with the most lag at the latest sample", () => {
    const series = appendPartitionSample(EMPTY_PARTITION_SERIES, sample(0, { "t-0": 1, "t-1": 50, "t-2": 20, "t-3": 0 }));
    expect(topPartitions(series, "lag", 2)).toEqual(["t-1", "t-2"]);
    expect(topPartitions(series, "lag", 10)).toEqual(["t-0", "t-1", "t-2", "t-3"]);
  });
});

describe("applyGroupMessages", () => {
  it("keeps the group's newest sample, its history points and partition samples; other groups ignored", () => {
    const m1 = lagMessage("g", { ts: at(0), topics: { t: topicLag({ lag: 1 }) }, partitions: [partitionLag("t", 0, { lag: 1 })] });
    const m2 = lagMessage("g", { ts: at(5), topics: { t: topicLag({ lag: 2 }) }, partitions: [partitionLag("t", 0, { lag: 2 })] });
    const view = applyGroupMessages(EMPTY_LIVE_GROUP, [m1, lagMessage("other", { ts: at(9) }), m2], "g");
    expect(view.latest).toBe(m2);
    expect(view.points.map((p) => p.lag)).toEqual([1, 2]);
    expect(view.partitions.samples).toHaveLength(2);
    expect(applyGroupMessages(view, [lagMessage("other")], "g")).toBe(view);
    expect(applyGroupMessages(view, [m1], "g").latest).toBe(m2); // late message: latest stays
    expect(membershipChanged([m1, groupStateMessage("g")], "g")).toBe(true);
    expect(membershipChanged([m1, groupStateMessage("other")], "g")).toBe(false);
  });
});

describe("formats", () => {
  it("formats durations as 1 m 05 s", () => {
    expect([null, undefined, Number.NaN, -3, 0, 0.4, 45, 65, 3599, 3600, 7380, 86_400 * 3 + 3600 * 4].map(formatDuration)).toEqual([
      "—",
      "—",
      "—",
      "0 s",
      "0 s",
      "0 s",
      "45 s",
      "1 m 05 s",
      "59 m 59 s",
      "1 h 00 m",
      "2 h 03 m",
      "3 d 04 h",
    ]);
  });

  it("formats rates", () => {
    expect([null, 0, 0.44, 12.55, 1234.4].map(formatRate)).toEqual(["—", "0/s", "0.4/s", "12.6/s", "1,234/s"]);
  });

  it("says never when lagging with no catch-up time, caught up without lag, — when unknown", () => {
    const known = { write_per_s: 5, consume_per_s: 3 };
    expect(formatCatchUp(null, 10, known)).toBe("never");
    expect(formatCatchUp(null, 10)).toBe("never");
    expect(formatCatchUp(null, 10, { write_per_s: null, consume_per_s: 3 })).toBe("—");
    expect(formatCatchUp(null, null, known)).toBe("—");
    expect(formatCatchUp(null, 0, known)).toBe("caught up");
    expect(formatCatchUp(0, 5, known)).toBe("caught up");
    expect(formatCatchUp(65, 5, known)).toBe("1 m 05 s");
    expect(catchUpSortValue(null, 10, known)).toBe(Number.POSITIVE_INFINITY);
    expect(catchUpSortValue(null, null, known)).toBeNull();
    expect(catchUpSortValue(40, 10, known)).toBe(40);
  });

  it("picks the worst status (UNKNOWN only when nothing else is known) and risk", () => {
    expect(worstStatus(["OK", "UNKNOWN", "WARN"])).toBe("WARN");
    expect(worstStatus(["STALL", "STOP", "ERR", "REWIND"])).toBe("REWIND");
    expect(worstStatus(["UNKNOWN", "bogus"])).toBe("UNKNOWN");
    expect(worstStatus([])).toBe("UNKNOWN");
    expect(worstRisk(["none", "near"])).toBe("near");
    expect(worstRisk(["near", "lost", "x"])).toBe("lost");
    expect(worstRisk([])).toBe("none");
  });
});

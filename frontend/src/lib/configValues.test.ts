import { describe, expect, it } from "vitest";
import {
  configUnit,
  formatConfigBytes,
  formatConfigDuration,
  humanConfigValue,
  isOverride,
  KNOWN_BYTES_KEYS,
  KNOWN_DURATION_KEYS,
  sourceWords,
} from "./configValues";

describe("configUnit", () => {
  it("knows durations by their .ms suffix (and every known duration key) and sizes by .bytes", () => {
    for (const key of KNOWN_DURATION_KEYS) expect(configUnit(key)).toBe("duration");
    for (const key of KNOWN_BYTES_KEYS) expect(configUnit(key)).toBe("bytes");
    expect(configUnit("log.retention.hours")).toBe("duration");
    expect(configUnit("cleanup.policy")).toBeNull();
    expect(configUnit("min.insync.replicas")).toBeNull();
    expect(configUnit("flush.messages")).toBeNull();
  });
});

describe("formatConfigDuration", () => {
  it("writes a duration exactly, in its largest units", () => {
    expect(formatConfigDuration(604_800_000)).toBe("7 d");
    expect(formatConfigDuration(5_400_000)).toBe("1 h 30 min");
    expect(formatConfigDuration(100)).toBe("100 ms");
    expect(formatConfigDuration(0)).toBe("0 ms");
    expect(formatConfigDuration(60_000)).toBe("1 min");
    expect(formatConfigDuration(1500)).toBe("1 s 500 ms");
    expect(formatConfigDuration(90_061_001)).toBe("1 d 1 h 1 min 1 s 1 ms");
  });
});

describe("formatConfigBytes", () => {
  it("writes sizes in binary units, approximate ones marked", () => {
    expect(formatConfigBytes(1_073_741_824)).toBe("1 GiB");
    expect(formatConfigBytes(536_870_912)).toBe("512 MiB");
    expect(formatConfigBytes(1536)).toBe("1.5 KiB");
    expect(formatConfigBytes(4096)).toBe("4 KiB");
    expect(formatConfigBytes(100)).toBe("100 B");
    expect(formatConfigBytes(0)).toBe("0 B");
    // max.message.bytes' default: 1 MiB and 12 bytes.
    expect(formatConfigBytes(1_048_588)).toBe("≈ 1 MiB");
  });
});

describe("humanConfigValue", () => {
  it("reads durations and sizes from the raw value", () => {
    expect(humanConfigValue("retention.ms", "604800000")).toEqual({ text: "7 d", unit: "duration" });
    expect(humanConfigValue("segment.ms", "5400000")?.text).toBe("1 h 30 min");
    expect(humanConfigValue("file.delete.delay.ms", "100")?.text).toBe("100 ms");
    expect(humanConfigValue("segment.bytes", "1073741824")).toEqual({ text: "1 GiB", unit: "bytes" });
    expect(humanConfigValue("max.message.bytes", "536870912")?.text).toBe("512 MiB");
    expect(humanConfigValue("log.retention.hours", "168")?.text).toBe("7 d");
  });

  it("says unlimited where Kafka means it: -1 retention, Long.MAX_VALUE", () => {
    expect(humanConfigValue("retention.ms", "-1")?.text).toBe("unlimited");
    expect(humanConfigValue("retention.bytes", "-1")?.text).toBe("unlimited");
    expect(humanConfigValue("max.compaction.lag.ms", "9223372036854775807")?.text).toBe("unlimited");
    expect(humanConfigValue("local.retention.ms", "-2")?.text).toBe("same as retention.ms");
    // -1 means nothing special elsewhere: the raw number is shown.
    expect(humanConfigValue("segment.ms", "-1")).toBeNull();
  });

  it("leaves other values alone", () => {
    expect(humanConfigValue("cleanup.policy", "delete")).toBeNull();
    expect(humanConfigValue("retention.ms", null)).toBeNull();
    expect(humanConfigValue("retention.ms", "soon")).toBeNull();
  });
});

describe("sources", () => {
  it("names each source in plain words", () => {
    expect(sourceWords("DYNAMIC_TOPIC_CONFIG")).toBe("set on topic");
    expect(sourceWords("DEFAULT_CONFIG")).toBe("Kafka default");
    expect(sourceWords("STATIC_BROKER_CONFIG")).toBe("broker default (server.properties)");
    expect(sourceWords("DYNAMIC_DEFAULT_BROKER_CONFIG")).toContain("broker default");
    expect(sourceWords("SOMETHING_NEW")).toBe("something new");
  });

  it("counts only values set on the topic as overrides", () => {
    expect(isOverride({ source: "DYNAMIC_TOPIC_CONFIG", is_default: false })).toBe(true);
    expect(isOverride({ source: "STATIC_BROKER_CONFIG", is_default: false })).toBe(false);
    expect(isOverride({ source: "DEFAULT_CONFIG", is_default: true })).toBe(false);
    expect(isOverride({ source: "SOMETHING_NEW", is_default: false })).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import {
  describeDuration,
  formatInZone,
  formatWallInput,
  hasExplicitZone,
  preferredHourCycle,
  formatOffset,
  formatUtc,
  parseDuration,
  parseWallTime,
  wallTimeIn,
  zonedToInstant,
  zoneOffsetMinutes,
} from "./time";

describe("zonedToInstant", () => {
  it("writes the wall time with milliseconds and the zone's offset at that date (DST aware)", () => {
    expect(zonedToInstant("2026-07-01T09:30", "America/New_York")).toMatchObject({
      iso: "2026-07-01T09:30:00.000-04:00",
      ms: Date.parse("2026-07-01T13:30:00Z"),
      nonexistent: false,
    });
    expect(zonedToInstant("2026-01-15T09:30:00", "America/New_York")?.iso).toBe("2026-01-15T09:30:00.000-05:00");
    expect(zonedToInstant("2026-11-21T10:03:12.25", "Europe/Paris")?.iso).toBe("2026-11-21T10:03:12.250+01:00");
    expect(zonedToInstant("2026-11-21T10:03:12.250", "UTC")?.iso).toBe("2026-11-21T10:03:12.250Z");
    expect(zonedToInstant("2026-11-21T10:03:12.250", "Asia/Kolkata")?.iso).toBe("2026-11-21T10:03:12.250+05:30");
  });

  it("takes fixed offsets as they are", () => {
    const at = zonedToInstant("2026-11-21T10:00:00.000", "+05:30");
    expect(at?.iso).toBe("2026-11-21T10:00:00.000+05:30");
    expect(at?.ms).toBe(Date.parse("2026-11-21T04:30:00Z"));
    expect(zonedToInstant("2026-11-21T10:00", "-09:30")?.iso).toBe("2026-11-21T10:00:00.000-09:30");
    expect(zonedToInstant("2026-11-21T10:00", "+00:00")?.iso).toBe("2026-11-21T10:00:00.000Z");
  });

  it("flags a wall time the clocks jump over, and refuses bad input", () => {
    // 2026-03-08 02:30 does not exist in New York (02:00 EST -> 03:00 EDT).
    expect(zonedToInstant("2026-03-08T02:30", "America/New_York")?.nonexistent).toBe(true);
    expect(zonedToInstant("2026-02-30T10:00", "UTC")).toBeNull();
    expect(zonedToInstant("yesterday", "UTC")).toBeNull();
    expect(zonedToInstant("", "UTC")).toBeNull();
    expect(zonedToInstant("2026-01-01T00:00", "Mars/Olympus")).toBeNull();
  });

  it("round-trips with wallTimeIn", () => {
    const ms = Date.parse("2026-07-01T13:30:00.123Z");
    expect(wallTimeIn(ms, "America/New_York")).toBe("2026-07-01T09:30:00.123");
    expect(zonedToInstant(wallTimeIn(ms, "Australia/Sydney"), "Australia/Sydney")?.ms).toBe(ms);
  });
});

describe("small time helpers", () => {
  it("parses datetime-local values", () => {
    expect(parseWallTime("2026-11-21T10:03")).toMatchObject({ hour: 10, minute: 3, second: 0, millis: 0 });
    expect(parseWallTime("2026-11-21T10:03:12.5")).toMatchObject({ second: 12, millis: 500 });
  });

  it("formats offsets and UTC instants", () => {
    expect(formatOffset(0)).toBe("Z");
    expect(formatOffset(0, false)).toBe("+00:00");
    expect(formatOffset(-570)).toBe("-09:30");
    expect(zoneOffsetMinutes("Asia/Kolkata", Date.now())).toBe(330);
    expect(formatUtc(Date.parse("2026-11-21T09:03:12.250Z"))).toBe("2026-11-21 09:03:12.250 UTC");
  });

  it("parses the durations Kafka accepts and nothing else", () => {
    expect(parseDuration("PT15M")).toBe(900_000);
    expect(parseDuration("pt6h")).toBe(21_600_000);
    expect(parseDuration("P1D")).toBe(86_400_000);
    expect(parseDuration("P2DT3H30M")).toBe(2 * 86_400_000 + 3 * 3_600_000 + 30 * 60_000);
    expect(parseDuration("PT0.5S")).toBe(500);
    expect(parseDuration("-PT1H")).toBe(-3_600_000);
    for (const bad of ["P1W", "P1M", "15m", "PT", "P", "", "P1DT"]) expect(parseDuration(bad)).toBeNull();
    expect(describeDuration(parseDuration("P2DT3H30M")!)).toBe("2 days 3 hours 30 minutes");
    expect(describeDuration(900_000)).toBe("15 minutes");
  });
});

describe("12- and 24-hour clocks", () => {
  it("follows the locale: 24-hour unless it asks for 12-hour", () => {
    expect(preferredHourCycle("en-US")).toBe("h12");
    expect(preferredHourCycle("en-GB")).toBe("h23");
    expect(preferredHourCycle("de-DE")).toBe("h23");
    expect(preferredHourCycle("fr-FR")).toBe("h23");
  });

  it("reads wall times typed in either clock", () => {
    expect(parseWallTime("2026-11-21 14:03:12")).toMatchObject({ hour: 14, minute: 3, second: 12 });
    expect(parseWallTime("2026-11-21 2:03:12 PM")).toMatchObject({ hour: 14, minute: 3, second: 12 });
    expect(parseWallTime("2026-11-21 12:00 am")).toMatchObject({ hour: 0, minute: 0 });
    expect(parseWallTime("2026-11-21 12:30 p.m.")).toMatchObject({ hour: 12, minute: 30 });
    expect(parseWallTime("2026-11-21 9:05")).toMatchObject({ hour: 9, minute: 5 });
    expect(parseWallTime("2026-11-21 13:00 PM")).toBeNull();
    expect(parseWallTime("2026-11-21 0:30 AM")).toBeNull();
    expect(zonedToInstant("2026-07-01 9:30 PM", "UTC")?.iso).toBe("2026-07-01T21:30:00.000Z");
  });

  it("writes wall times in the chosen clock", () => {
    const ms = Date.parse("2026-07-01T21:05:09.250Z");
    expect(formatInZone(ms, "UTC", "h23")).toBe("2026-07-01 21:05:09.250");
    expect(formatInZone(ms, "UTC", "h12")).toBe("2026-07-01 9:05:09.250 PM");
    expect(formatInZone(Date.parse("2026-07-01T00:05:00Z"), "UTC", "h12")).toBe("2026-07-01 12:05:00 AM");
    expect(formatInZone(ms, "Asia/Kolkata", "h23")).toBe("2026-07-02 02:35:09.250");
    expect(formatWallInput("2026-07-01T09:30", "h23")).toBe("2026-07-01 09:30:00");
    expect(formatWallInput("not a time", "h23")).toBe("not a time");
  });

  it("tells an ISO-8601 date-time that names its zone", () => {
    expect(hasExplicitZone("2026-11-21T10:03:12Z")).toBe(true);
    expect(hasExplicitZone("2026-11-21T10:03:12.5+01:00")).toBe(true);
    expect(hasExplicitZone("2026-11-21 10:03:12")).toBe(false);
    expect(hasExplicitZone("2026-11-21")).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import {
  countTicks,
  DAY,
  durationTicks,
  edgeAnchor,
  formatDurationCompact,
  formatTimeTick,
  HOUR,
  MINUTE,
  SECOND,
  TIME_STEPS,
  timeTicks,
  valueAxisWidth,
} from "./chartTicks";

const AT = Date.parse("2026-06-09T10:07:23.400Z");
const UTC = { timeZone: "UTC" };

function noRepeats(labels: string[]) {
  expect(new Set(labels).size).toBe(labels.length);
}

describe("timeTicks", () => {
  it("puts the ticks of a 5-minute span on round minutes", () => {
    const t = timeTicks(AT, AT + 5 * MINUTE, UTC);
    expect(t.step).toBe(MINUTE);
    expect(t.labels).toEqual(["10:08", "10:09", "10:10", "10:11", "10:12"]);
    for (const tick of t.ticks) expect(tick % MINUTE).toBe(0);
  });

  it("chooses a round step for the span: 1 h, 6 h, 24 h, a week", () => {
    const hour = timeTicks(AT, AT + HOUR, UTC);
    expect([5 * MINUTE, 10 * MINUTE, 15 * MINUTE]).toContain(hour.step);
    expect(hour.labels[0]).toBe(hour.step === 15 * MINUTE ? "10:15" : "10:10");

    const six = timeTicks(AT, AT + 6 * HOUR, UTC);
    expect([HOUR, 2 * HOUR]).toContain(six.step);
    for (const tick of six.ticks) expect(tick % HOUR).toBe(0);

    const day = timeTicks(AT, AT + DAY - MINUTE, UTC);
    expect([3 * HOUR, 6 * HOUR]).toContain(day.step);
    for (const tick of day.ticks) expect(tick % (3 * HOUR)).toBe(0);

    const week = timeTicks(AT, AT + 7 * DAY, UTC);
    expect(week.step).toBe(DAY);
    expect(week.labels).toEqual(["Jun 10", "Jun 11", "Jun 12", "Jun 13", "Jun 14", "Jun 15", "Jun 16"]);
    expect(week.labels.every((l) => /^Jun \d+$/.test(l))).toBe(true);
  });

  it("uses only round durations, ticks inside the span, ascending", () => {
    for (const span of [10 * SECOND, 90 * SECOND, 45 * MINUTE, 3 * HOUR, 30 * HOUR, 20 * DAY]) {
      const t = timeTicks(AT, AT + span, UTC);
      expect(TIME_STEPS).toContain(t.step);
      expect(t.ticks.length).toBeGreaterThan(0);
      expect(t.ticks.length).toBeLessThanOrEqual(8);
      for (const [i, tick] of t.ticks.entries()) {
        expect(tick).toBeGreaterThanOrEqual(AT);
        expect(tick).toBeLessThanOrEqual(AT + span);
        if (i > 0) expect(tick - t.ticks[i - 1]!).toBe(t.step);
      }
    }
  });

  it("never repeats a label, also over more than a day (the date joins the time)", () => {
    const spans = [30 * SECOND, 5 * MINUTE, HOUR, 23 * HOUR, 36 * HOUR, 3 * DAY, 40 * DAY];
    for (const span of spans) {
      for (const width of [200, 480, 1200]) {
        noRepeats(timeTicks(AT, AT + span, { ...UTC, width }).labels);
      }
    }
    const long = timeTicks(AT, AT + 36 * HOUR, { ...UTC, width: 1200 });
    expect(long.labels).toContain("Jun 10");
    expect(long.labels.some((l) => /^Jun \d+ \d\d:00$/.test(l))).toBe(true);
  });

  it("takes fewer ticks when the axis is narrow, and labels with seconds below a minute", () => {
    const wide = timeTicks(AT, AT + HOUR, { ...UTC, width: 1000 });
    const narrow = timeTicks(AT, AT + HOUR, { ...UTC, width: 200 });
    expect(narrow.step).toBeGreaterThan(wide.step);
    expect(narrow.ticks.length).toBeLessThan(wide.ticks.length);
    const seconds = timeTicks(AT, AT + 40 * SECOND, UTC);
    expect(seconds.step).toBeLessThan(MINUTE);
    expect(seconds.labels[0]).toMatch(/^10:07:\d\d$/);
  });

  it("rounds on the wall clock of the zone, half-hour zones included", () => {
    const india = timeTicks(AT, AT + 6 * HOUR, { timeZone: "Asia/Kolkata" });
    // 10:07 UTC is 15:37 in India: ticks on the hour there.
    expect(india.labels[0]).toBe("16:00");
    for (const tick of india.ticks) expect((tick + 330 * MINUTE) % HOUR).toBe(0);
  });

  it("gives a format for the chart and one tick for an empty span", () => {
    const t = timeTicks(AT, AT + 5 * MINUTE, UTC);
    expect(t.format(t.ticks[1]!)).toBe("10:09");
    const single = timeTicks(AT, AT, UTC);
    expect(single.ticks).toEqual([AT]);
    expect(single.labels).toEqual(["10:07:23"]);
  });
});

describe("formatTimeTick", () => {
  it("writes seconds, minutes, dates as the step and span ask", () => {
    expect(formatTimeTick(AT, 10 * SECOND, MINUTE, "UTC")).toBe("10:07:23");
    expect(formatTimeTick(AT, 10 * MINUTE, HOUR, "UTC")).toBe("10:07");
    expect(formatTimeTick(AT, 6 * HOUR, 2 * DAY, "UTC")).toBe("Jun 9 10:07");
    expect(formatTimeTick(Date.parse("2026-06-10T00:00:00Z"), 6 * HOUR, 2 * DAY, "UTC")).toBe("Jun 10");
    expect(formatTimeTick(AT, DAY, 10 * DAY, "UTC")).toBe("Jun 9");
  });
});

describe("edgeAnchor", () => {
  it("pulls labels at the ends of the axis inwards so they are not clipped", () => {
    expect(edgeAnchor(0, 0, 100, 20, 400)).toBe("start");
    expect(edgeAnchor(50, 0, 100, 20, 400)).toBe("middle");
    expect(edgeAnchor(99, 0, 100, 20, 400)).toBe("end");
  });
});

describe("formatDurationCompact", () => {
  it("writes a duration short, in the largest unit that fits", () => {
    expect(formatDurationCompact(0)).toBe("0 s");
    expect(formatDurationCompact(45)).toBe("45 s");
    expect(formatDurationCompact(90)).toBe("1.5 min");
    expect(formatDurationCompact(120)).toBe("2 min");
    expect(formatDurationCompact(7200)).toBe("2 h");
    expect(formatDurationCompact(5400)).toBe("1.5 h");
    expect(formatDurationCompact(129_600)).toBe("1.5 d");
    expect(formatDurationCompact(null)).toBe("—");
  });
});

describe("durationTicks", () => {
  it("steps at round durations from 0 past the largest value", () => {
    expect(durationTicks(90).labels).toEqual(["0 s", "30 s", "1 min", "1.5 min"]);
    expect(durationTicks(100).ticks).toEqual([0, 30, 60, 90, 120]);
    const hours = durationTicks(3 * 3600 + 1);
    expect(hours.labels).toEqual(["0 s", "1 h", "2 h", "3 h", "4 h"]);
    expect(hours.domain).toEqual([0, 4 * 3600]);
    expect(durationTicks(0).ticks).toEqual([0, 1]);
  });

  it("never repeats a label", () => {
    for (const max of [1, 7, 59, 61, 599, 3599, 3601, 86_399, 100_000, 10 * 86_400]) {
      const t = durationTicks(max);
      noRepeats(t.labels);
      expect(t.ticks.length).toBeLessThanOrEqual(5);
      expect(t.domain[1]).toBeGreaterThanOrEqual(max);
    }
  });

  it("sizes the axis for its longest label", () => {
    expect(valueAxisWidth(["0 s", "1.5 min"])).toBeGreaterThan(valueAxisWidth(["0 s", "2 h"]));
  });
});

describe("countTicks", () => {
  it("steps at round numbers, labelled short with the decimals the step needs", () => {
    expect(countTicks(1).labels).toEqual(["0", "0.25", "0.5", "0.75", "1"]);
    expect(countTicks(87).labels).toEqual(["0", "25", "50", "75", "100"]);
    expect(countTicks(12_345).labels).toEqual(["0", "5k", "10k", "15k"]);
    expect(countTicks(10_400, { integers: true }).labels).toEqual(["0", "5k", "10k", "15k"]);
    expect(countTicks(100_020).labels).toEqual(["0", "50k", "100k", "150k"]);
    expect(countTicks(2_600_000).labels).toEqual(["0", "1M", "2M", "3M"]);
    expect(countTicks(3, { integers: true }).ticks).toEqual([0, 1, 2, 3]);
    expect(countTicks(0).ticks).toEqual([0, 0.25, 0.5, 0.75, 1]);
  });

  it("never repeats a label", () => {
    for (const max of [0.04, 0.3, 1, 7, 99, 101, 999, 10_001, 100_020, 1_234_567, 98_765_432]) {
      for (const integers of [false, true]) {
        const t = countTicks(max, { integers });
        noRepeats(t.labels);
        expect(t.ticks.length).toBeLessThanOrEqual(5);
        expect(t.domain[1]).toBeGreaterThanOrEqual(max);
      }
    }
  });
});

import { render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { MINUTE, TIME_STEPS } from "../lib/chartTicks";
import type { HistoryPoint } from "../lib/lagHistory";
import { HistoryCharts, PartitionLines } from "./LagTimeCharts";

const START = Date.parse("2026-06-09T10:00:00Z") + 17_000;

function points(count: number, every: number, seconds: (i: number) => number): HistoryPoint[] {
  return Array.from({ length: count }, (_, i) => ({
    t: START + i * every,
    lag: 100 * i,
    lag_seconds: seconds(i),
    write_per_s: 10,
    consume_per_s: 9,
    status: "ok" as HistoryPoint["status"],
  }));
}

/** The tick labels drawn on each axis of `kind` ("xAxis", "yAxis") of each chart, chart by chart. */
function tickLabels(container: HTMLElement, kind: "xAxis" | "yAxis"): string[][] {
  const out: string[][] = [];
  for (const chart of container.querySelectorAll(".recharts-wrapper")) {
    const axes = new Map<Element, string[]>();
    for (const text of chart.querySelectorAll(`text.recharts-${kind}[data-tick]`)) {
      const axis = text.closest(`.recharts-${kind}-tick-labels`) ?? text.parentElement!;
      axes.set(axis, [...(axes.get(axis) ?? []), text.textContent ?? ""]);
    }
    out.push(...axes.values());
  }
  return out;
}

/** recharts draws the axes once it has laid the chart out. */
async function drawn(container: HTMLElement) {
  await waitFor(() => expect(container.querySelectorAll("text[data-tick]").length).toBeGreaterThan(0));
}

describe("HistoryCharts", () => {
  it("ticks the time axis at round times chosen for the span, every label once and on one line", async () => {
    const { container } = render(<HistoryCharts points={points(61, MINUTE, (i) => i * 3)} />);
    await drawn(container);
    const step = Number(screen.getByTestId("history-charts").getAttribute("data-tick-step"));
    expect(TIME_STEPS).toContain(step);
    expect(step).toBeGreaterThanOrEqual(5 * MINUTE);
    const [lagChart, rateChart] = tickLabels(container, "xAxis");
    expect(lagChart!.length).toBeGreaterThan(2);
    expect(new Set(lagChart).size).toBe(lagChart!.length);
    expect(rateChart).toEqual(lagChart);
    for (const label of lagChart!) {
      expect(label).toMatch(/^\d\d:\d\d$/);
      expect(Number(label.slice(3)) % (step / MINUTE)).toBe(0);
    }
    // One SVG text per label: nothing is broken into lines.
    expect(container.querySelectorAll("text[data-tick] tspan")).toHaveLength(0);
    // The lag (records) axis: round steps, short labels.
    expect(tickLabels(container, "yAxis")[0]).toEqual(["0", "2,000", "4,000", "6,000"]);
  });

  it("writes the lag-seconds axis in compact durations at round steps", async () => {
    const { container } = render(<HistoryCharts points={points(30, MINUTE, (i) => i * 3)} />);
    await drawn(container);
    // 87 s at most: 0, 30 s, 1 min, 1.5 min.
    const right = tickLabels(container, "yAxis").find((labels) => labels.includes("1.5 min"));
    expect(right).toEqual(["0 s", "30 s", "1 min", "1.5 min"]);
  });
});

describe("PartitionLines", () => {
  it("uses the same round time ticks and compact seconds", async () => {
    const rows = Array.from({ length: 20 }, (_, i) => ({ t: START + i * 15_000, values: { "orders-0": i * 400 } }));
    const { container } = render(<PartitionLines rows={rows} keys={["orders-0"]} seconds />);
    await drawn(container);
    const [x] = tickLabels(container, "xAxis");
    expect(new Set(x).size).toBe(x!.length);
    expect(x!.every((label) => /^\d\d:\d\d(:\d\d)?$/.test(label))).toBe(true);
    const [y] = tickLabels(container, "yAxis");
    expect(y).toEqual(["0 s", "1 h", "2 h", "3 h"]);
  });
});

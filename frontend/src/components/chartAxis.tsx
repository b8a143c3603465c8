// What every chart's axes share (in the lazily loaded chart chunk with recharts): tick labels drawn
// on one line (recharts' own label breaks a label wider than the axis into several lines), the
// width a chart is drawn at, measured, so that the time ticks (lib/chartTicks) fit it, and the
// grid and axes the charts draw alike.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { CartesianGrid, XAxis, YAxis, type TextAnchor } from "recharts";
import { valueAxisWidth, type ValueTicks } from "../lib/chartTicks";

/** Width used where the browser cannot measure (no ResizeObserver, e.g. jsdom). */
export const FALLBACK_CHART_WIDTH = 640;

/** The axis lines drawn (the value axes have none). */
export const AXIS_LINE = { stroke: "#d9dde3" };

/**
 * A chart's size props: as wide as its container (at most `maxWidth`) where the browser can
 * measure it, `width` where it cannot (no ResizeObserver, e.g. jsdom).
 */
export function chartSize(height: number, width = FALLBACK_CHART_WIDTH, maxWidth?: number) {
  return typeof ResizeObserver !== "undefined"
    ? { responsive: true, style: maxWidth === undefined ? { width: "100%", height } : { width: "100%", maxWidth, height } }
    : { width, height };
}

/** The width of the element `ref` is put on, followed as it resizes; `fallback` until measured. */
export function useMeasuredWidth<T extends HTMLElement = HTMLDivElement>(fallback = FALLBACK_CHART_WIDTH) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver((entries) => {
      const measured = entries[0]?.contentRect.width;
      if (measured && measured > 0) setWidth(Math.round(measured));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/** What recharts hands a custom tick (XAxisTickContentProps / YAxisTickContentProps, loosely). */
export interface AxisTickProps {
  x?: number | string;
  y?: number | string;
  payload?: { value?: unknown };
  index?: number;
  tickFormatter?: ((value: never, index: number) => string) | undefined;
  textAnchor?: TextAnchor;
  verticalAnchor?: "start" | "middle" | "end";
  fill?: string;
  fontSize?: number | string;
  className?: string;
}

/**
 * A tick label as one SVG text: never wrapped (whatever width the axis has), never split. `anchor`
 * may pull a label at an end of the axis inwards so that it is not clipped (chartTicks.edgeAnchor).
 */
export function AxisTick({
  x,
  y,
  payload,
  index = 0,
  tickFormatter,
  textAnchor = "middle",
  verticalAnchor = "middle",
  fill,
  fontSize,
  className,
  anchor,
}: AxisTickProps & { anchor?: (value: unknown, text: string) => TextAnchor | undefined }): ReactNode {
  const value = payload?.value;
  const text = tickFormatter ? (tickFormatter as (v: unknown, i: number) => string)(value, index) : String(value ?? "");
  const dy = verticalAnchor === "start" ? "0.71em" : verticalAnchor === "middle" ? "0.355em" : "0";
  return (
    <text
      x={x}
      y={y}
      dy={dy}
      textAnchor={anchor?.(value, text) ?? textAnchor}
      fill={fill}
      fontSize={fontSize}
      className={className}
      style={{ whiteSpace: "pre" }}
      data-tick={text}
    >
      {text}
    </text>
  );
}

/** recharts' `tick` prop drawing AxisTick (optionally anchored by `anchor`). */
export function oneLineTick(anchor?: (value: unknown, text: string) => TextAnchor | undefined) {
  return function OneLineTick(props: AxisTickProps) {
    return <AxisTick {...props} anchor={anchor} />;
  };
}

/** The one-line tick of the axes that anchor no label. */
const plainTick = oneLineTick();

/** Dashed horizontal grid lines (at the value ticks). */
export function horizontalGrid() {
  return <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e3e6eb" />;
}

/** The category axis under bars (a label per broker or partition); labels that would overlap are
 * left out, never wrapped. */
export function categoryAxis(dataKey: string, fontSize: number) {
  return (
    <XAxis
      dataKey={dataKey}
      tickLine={false}
      axisLine={AXIS_LINE}
      fontSize={fontSize}
      interval="preserveStartEnd"
      minTickGap={8}
      tick={plainTick}
    />
  );
}

/** Where a time axis over epoch milliseconds puts its ticks (lib/chartTicks) and how it draws them. */
export interface TimeAxisLayout {
  domain: [number, number];
  ticks: number[];
  format: (t: number) => string;
  tick: ReturnType<typeof oneLineTick>;
}

/** The time axis under points at `t` (epoch milliseconds): the ticks laid out, labels on one line. */
export function timeAxis({ domain, ticks, format, tick }: TimeAxisLayout, fontSize: number) {
  return (
    <XAxis
      dataKey="t"
      type="number"
      scale="time"
      domain={domain}
      ticks={ticks}
      tickFormatter={format}
      interval={0}
      tick={tick}
      tickLine={false}
      axisLine={AXIS_LINE}
      fontSize={fontSize}
    />
  );
}

interface ValueAxisOptions {
  yAxisId?: string;
  orientation?: "left" | "right";
  /** Default: as wide as its longest label. */
  width?: number;
  fontSize?: number;
}

/** A value axis on the ticks given (counts, rates or durations; lib/chartTicks), no axis line. */
export function valueAxis(ticks: ValueTicks, { width, fontSize = 12, ...props }: ValueAxisOptions = {}) {
  return (
    <YAxis
      {...props}
      type="number"
      ticks={ticks.ticks}
      domain={ticks.domain}
      interval={0}
      tickFormatter={ticks.format}
      tick={plainTick}
      tickLine={false}
      axisLine={false}
      fontSize={fontSize}
      width={width ?? valueAxisWidth(ticks.labels, fontSize)}
    />
  );
}

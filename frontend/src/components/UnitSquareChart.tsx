// What the ROC curve and the calibration chart share: a line chart on the unit square (both axes a
// rate from 0 to 1, ticked at quarters) with the y = x diagonal dashed; each chart brings its
// data, axis titles, tooltip and line. Part of their lazily loaded chunks (recharts).
import type { ReactNode } from "react";
import { CartesianGrid, LineChart, ReferenceLine, Tooltip, XAxis, YAxis, type TooltipProps, type XAxisProps, type YAxisProps } from "recharts";
import type { NameType, ValueType } from "recharts/types/component/DefaultTooltipContent";
import { AXIS_LINE, chartSize, oneLineTick } from "./chartAxis";

/** Width used where the browser cannot measure (no ResizeObserver, e.g. jsdom). */
const FALLBACK_WIDTH = 420;
const TICKS = [0, 0.25, 0.5, 0.75, 1];
const tick = (value: number) => value.toFixed(2).replace(/\.?0+$/, "") || "0";

/** Both axes: a rate from 0 to 1, ticked at quarters. */
const RATE_AXIS = {
  type: "number",
  domain: [0, 1],
  ticks: TICKS,
  tickFormatter: tick,
  tick: oneLineTick(),
  interval: 0,
  tickLine: false,
  fontSize: 11,
} satisfies Partial<XAxisProps & YAxisProps>;
const AXIS_LABEL = { fontSize: 11, fill: "#667085" };

export interface UnitSquareChartProps<T> {
  data: T[];
  height: number;
  /** The x value's key in each point. */
  xKey: string;
  xTitle: string;
  yTitle: string;
  labelFormatter: TooltipProps<ValueType, NameType>["labelFormatter"];
  formatter: TooltipProps<ValueType, NameType>["formatter"];
  /** The chart's line(s). */
  children: ReactNode;
}

export default function UnitSquareChart<T>({ data, height, xKey, xTitle, yTitle, labelFormatter, formatter, children }: UnitSquareChartProps<T>) {
  return (
    <LineChart data={data} {...chartSize(height, FALLBACK_WIDTH, FALLBACK_WIDTH + 40)} margin={{ top: 8, right: 16, bottom: 20, left: 4 }} accessibilityLayer>
      <CartesianGrid strokeDasharray="3 3" stroke="#e3e6eb" />
      <XAxis dataKey={xKey} {...RATE_AXIS} axisLine={AXIS_LINE} label={{ value: xTitle, position: "insideBottom", offset: -12, ...AXIS_LABEL }} />
      <YAxis {...RATE_AXIS} axisLine={false} width={58} label={{ value: yTitle, angle: -90, position: "insideLeft", offset: 6, ...AXIS_LABEL }} />
      <ReferenceLine
        segment={[
          { x: 0, y: 0 },
          { x: 1, y: 1 },
        ]}
        stroke="#98a2b3"
        strokeDasharray="5 5"
        ifOverflow="visible"
      />
      <Tooltip labelFormatter={labelFormatter} formatter={formatter} />
      {children}
    </LineChart>
  );
}

// The recharts part of a model's calibration, loaded lazily (as MaintenanceRocChart): per
// probability band of its known predictions, the share that failed against the mean probability
// it gave them. A well calibrated model's points lie on the diagonal (it says 30 %, 30 % fail).
import { CartesianGrid, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis, type XAxisProps, type YAxisProps } from "recharts";
import { formatCount } from "../lib/format";
import { AXIS_LINE, chartSize, oneLineTick } from "./chartAxis";

export const CALIBRATION_CHART_HEIGHT = 300;
/** Width used where the browser cannot measure (no ResizeObserver, e.g. jsdom). */
const FALLBACK_WIDTH = 420;
const CALIBRATION_COLOR = "#7c3aed";

/** One probability band of the known predictions. */
export interface CalibrationPoint {
  bandLow: number;
  bandHigh: number;
  predictions: number;
  /** Their mean predicted probability (x). */
  predicted: number;
  /** The share of them that failed within the horizon (y). */
  observed: number;
}

const TICKS = [0, 0.25, 0.5, 0.75, 1];
const tick = (value: number) => value.toFixed(2).replace(/\.?0+$/, "") || "0";

/** Both axes: a probability from 0 to 1, ticked at quarters (as the ROC curve's). */
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

/** The tooltip's title: the band and how many predictions it holds. */
function bandLabel(_label: unknown, payload: ReadonlyArray<{ payload?: CalibrationPoint }>): string {
  const p = payload[0]?.payload;
  if (!p) return "";
  return `Band ${p.bandLow.toFixed(2)}–${p.bandHigh.toFixed(2)} · ${formatCount(p.predictions)} predictions · mean predicted ${p.predicted.toFixed(3)}`;
}

/** Observed failure rate over mean predicted probability, with the y = x reference. */
export default function MaintenanceCalibrationChart({ points }: { points: CalibrationPoint[] }) {
  return (
    <LineChart
      data={points}
      {...chartSize(CALIBRATION_CHART_HEIGHT, FALLBACK_WIDTH, FALLBACK_WIDTH + 40)}
      margin={{ top: 8, right: 16, bottom: 20, left: 4 }}
      accessibilityLayer
    >
      <CartesianGrid strokeDasharray="3 3" stroke="#e3e6eb" />
      <XAxis
        dataKey="predicted"
        {...RATE_AXIS}
        axisLine={AXIS_LINE}
        label={{ value: "Mean predicted probability", position: "insideBottom", offset: -12, ...AXIS_LABEL }}
      />
      <YAxis
        {...RATE_AXIS}
        axisLine={false}
        width={58}
        label={{ value: "Observed failure rate", angle: -90, position: "insideLeft", offset: 6, ...AXIS_LABEL }}
      />
      <ReferenceLine
        segment={[
          { x: 0, y: 0 },
          { x: 1, y: 1 },
        ]}
        stroke="#98a2b3"
        strokeDasharray="5 5"
        ifOverflow="visible"
      />
      <Tooltip labelFormatter={bandLabel} formatter={(value) => [Number(value).toFixed(3), "Observed failure rate"]} />
      <Line
        type="linear"
        dataKey="observed"
        name="Observed"
        stroke={CALIBRATION_COLOR}
        strokeWidth={2}
        dot={{ r: 3, fill: CALIBRATION_COLOR }}
        isAnimationActive={false}
      />
    </LineChart>
  );
}

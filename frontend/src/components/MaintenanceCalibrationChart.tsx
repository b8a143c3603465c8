// The recharts part of a model's calibration, loaded lazily (as MaintenanceRocChart): per
// probability band of its known predictions, the share that failed against the mean probability
// it gave them. A well calibrated model's points lie on the diagonal (it says 30 %, 30 % fail).
import { Line } from "recharts";
import { formatCount } from "../lib/format";
import UnitSquareChart from "./UnitSquareChart";

export const CALIBRATION_CHART_HEIGHT = 300;
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

/** The tooltip's title: the band and how many predictions it holds. */
function bandLabel(_label: unknown, payload: ReadonlyArray<{ payload?: CalibrationPoint }>): string {
  const p = payload[0]?.payload;
  if (!p) return "";
  return `Band ${p.bandLow.toFixed(2)}–${p.bandHigh.toFixed(2)} · ${formatCount(p.predictions)} predictions · mean predicted ${p.predicted.toFixed(3)}`;
}

/** Observed failure rate over mean predicted probability, with the y = x reference. */
export default function MaintenanceCalibrationChart({ points }: { points: CalibrationPoint[] }) {
  return (
    <UnitSquareChart
      data={points}
      height={CALIBRATION_CHART_HEIGHT}
      xKey="predicted"
      xTitle="Mean predicted probability"
      yTitle="Observed failure rate"
      labelFormatter={bandLabel}
      formatter={(value) => [Number(value).toFixed(3), "Observed failure rate"]}
    >
      <Line
        type="linear"
        dataKey="observed"
        name="Observed"
        stroke={CALIBRATION_COLOR}
        strokeWidth={2}
        dot={{ r: 3, fill: CALIBRATION_COLOR }}
        isAnimationActive={false}
      />
    </UnitSquareChart>
  );
}

// The recharts part of the models' ROC curve, loaded lazily (recharts is the largest dependency,
// as LagBars and LagTimeCharts do): the curve as [fpr, tpr] points and the diagonal of a model
// that guesses.
import { Line } from "recharts";
import UnitSquareChart from "./UnitSquareChart";

export const ROC_CHART_HEIGHT = 300;
const ROC_COLOR = "#2563eb";

export interface RocPoint {
  fpr: number;
  tpr: number;
}

/** True positive rate over false positive rate, both 0..1, with the y = x reference. */
export default function MaintenanceRocChart({ points }: { points: RocPoint[] }) {
  return (
    <UnitSquareChart
      data={points}
      height={ROC_CHART_HEIGHT}
      xKey="fpr"
      xTitle="False positive rate"
      yTitle="True positive rate"
      labelFormatter={(value) => `False positive rate ${Number(value).toFixed(3)}`}
      formatter={(value) => [Number(value).toFixed(3), "True positive rate"]}
    >
      <Line type="linear" dataKey="tpr" name="ROC" stroke={ROC_COLOR} strokeWidth={2} dot={false} isAnimationActive={false} />
    </UnitSquareChart>
  );
}

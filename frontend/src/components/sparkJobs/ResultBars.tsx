// The recharts part of a result's bar chart (records per partition...), in its own chunk, loaded
// lazily as the other charts are (recharts is the largest dependency).
import { Bar, BarChart, Tooltip } from "recharts";
import { countTicks } from "../../lib/chartTicks";
import type { ResultChart } from "../../lib/sparkResults";
import { categoryAxis, chartSize, horizontalGrid, valueAxis } from "../chartAxis";

export const RESULT_BARS_HEIGHT = 200;
const BAR_COLOR = "#2563eb";

/** One bar per label (partition), integers on the value axis. */
export default function ResultBars({ chart }: { chart: ResultChart }) {
  const values = countTicks(chart.bars.reduce((max, b) => Math.max(max, b.value), 0), { integers: true });
  return (
    <BarChart data={chart.bars} {...chartSize(RESULT_BARS_HEIGHT)} margin={{ top: 8, right: 16, bottom: 4, left: 0 }} accessibilityLayer>
      {horizontalGrid()}
      {categoryAxis("label", 11)}
      {valueAxis(values)}
      <Tooltip cursor={{ fill: "rgba(37, 99, 235, 0.06)" }} formatter={(value) => [Number(value).toLocaleString("en-US"), chart.valueLabel]} />
      <Bar dataKey="value" name={chart.valueLabel} fill={BAR_COLOR} radius={[3, 3, 0, 0]} isAnimationActive={false} />
    </BarChart>
  );
}

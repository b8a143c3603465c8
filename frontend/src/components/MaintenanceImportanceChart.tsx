// The recharts part of a model's feature importances, loaded lazily (recharts is the largest
// dependency, as MaintenanceRocChart): one horizontal bar per feature, the most important on top.
// Horizontal, because feature names are long ("count_e101_overheat_7d") and read best as rows.
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";
import { formatShare } from "../lib/format";
import { AXIS_LINE, chartSize, oneLineTick } from "./chartAxis";

/** Height per bar, and what the axes take besides. */
const BAR_HEIGHT = 22;
const AXES_HEIGHT = 36;
/** Width used where the browser cannot measure (no ResizeObserver, e.g. jsdom). */
const FALLBACK_WIDTH = 420;
const BAR_COLOR = "#2563eb";
/** Room for the feature names, left of the bars (about 6.5 px a character at 11 px; at most
 * 220 px, a longer name is cut by the chart rather than squeezing the bars). */
const nameWidth = (names: string[]) => Math.min(220, 16 + 6.5 * names.reduce((m, n) => Math.max(m, n.length), 0));

export interface ImportanceBar {
  feature: string;
  importance: number;
}

/** The features' importances (largest first, as given) as horizontal bars. */
export default function MaintenanceImportanceChart({ bars }: { bars: ImportanceBar[] }) {
  const height = AXES_HEIGHT + BAR_HEIGHT * bars.length;
  return (
    <BarChart
      data={bars}
      layout="vertical"
      {...chartSize(height, FALLBACK_WIDTH, FALLBACK_WIDTH + 160)}
      margin={{ top: 4, right: 16, bottom: 4, left: 4 }}
      accessibilityLayer
    >
      <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="#e3e6eb" />
      <XAxis type="number" domain={[0, "auto"]} tickFormatter={formatShare} tick={oneLineTick()} tickLine={false} axisLine={AXIS_LINE} fontSize={11} />
      <YAxis
        type="category"
        dataKey="feature"
        width={nameWidth(bars.map((b) => b.feature))}
        interval={0}
        tick={oneLineTick(() => "end")}
        tickLine={false}
        axisLine={AXIS_LINE}
        fontSize={11}
      />
      <Tooltip cursor={{ fill: "rgba(37, 99, 235, 0.06)" }} formatter={(value) => [formatShare(Number(value)), "Importance"]} />
      <Bar dataKey="importance" name="Importance" fill={BAR_COLOR} radius={[0, 3, 3, 0]} isAnimationActive={false} />
    </BarChart>
  );
}

import { lazy } from "react";
import type { GroupOffset } from "../api/types";
import { formatCount, plural } from "../lib/format";
import { ChartCard, LazyChart } from "./ChartCard";
import type { LagBar } from "./LagBars";

// recharts is the largest dependency: load it with the first chart.
const LagBars = lazy(() => import("./LagBars"));

/** Bars drawn at most; with more partitions the chart shows the ones with the most lag. */
export const MAX_LAG_BARS = 60;

/**
 * "Lag per partition" for a consumer group: one bar per topic-partition with a
 * committed offset (in topic, partition order), or the MAX_LAG_BARS partitions
 * with the most lag when there are more. The caption gives the totals.
 */
export function LagChart({ offsets }: { offsets: GroupOffset[] }) {
  const known = offsets.filter((o): o is GroupOffset & { lag: number } => o.lag !== null);
  const ordered = [...known].sort((a, b) =>
    a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition,
  );
  const top =
    ordered.length > MAX_LAG_BARS
      ? [...ordered].sort((a, b) => b.lag - a.lag).slice(0, MAX_LAG_BARS)
      : ordered;
  const data: LagBar[] = top.map((o) => ({
    label: `${o.topic}-${o.partition}`,
    topic: o.topic,
    partition: o.partition,
    lag: o.lag,
  }));
  const total = known.reduce((acc, o) => acc + o.lag, 0);
  const max = known.reduce((acc, o) => Math.max(acc, o.lag), 0);
  const lagging = known.filter((o) => o.lag > 0).length;
  const unknown = offsets.length - known.length;

  return (
    <ChartCard
      data-testid="lag-chart"
      data-partitions={data.length}
      aria-label="Lag per partition"
      caption={
        <>
          <span>
            Total lag {formatCount(total)} over {formatCount(known.length)} {plural(known.length, "partition")}; max{" "}
            {formatCount(max)}; {formatCount(lagging)} behind
            {unknown > 0 && `; ${formatCount(unknown)} without a committed offset`}
          </span>
          {ordered.length > MAX_LAG_BARS && (
            <span className="muted" data-testid="lag-chart-top">
              the {MAX_LAG_BARS} partitions with the most lag of {formatCount(ordered.length)}
            </span>
          )}
        </>
      }
    >
      <LazyChart empty={data.length === 0 && "No committed offsets: nothing to chart."}>
        <LagBars data={data} />
      </LazyChart>
    </ChartCard>
  );
}

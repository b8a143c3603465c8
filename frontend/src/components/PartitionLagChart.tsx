import { lazy, useMemo, useState } from "react";
import { formatClock, formatCount, plural } from "../lib/format";
import { partitionRows, topPartitions, type PartitionMetric, type PartitionSeries } from "../lib/lagHistory";
import { ChartCard, LazyChart } from "./ChartCard";

const PartitionLines = lazy(() => import("./LagTimeCharts").then((m) => ({ default: m.PartitionLines })));

/** Lines drawn at most: the partitions with the most lag at the latest sample. */
export const MAX_PARTITION_LINES = 10;

/**
 * Lag per partition over time, from the live samples received since this page opened (the
 * server keeps no per-partition history): one line per partition, the MAX_PARTITION_LINES with
 * the most lag when there are more; records or seconds.
 */
export function PartitionLagChart({ series, live }: { series: PartitionSeries; live: boolean }) {
  const [metric, setMetric] = useState<PartitionMetric>("lag");
  const keys = useMemo(() => topPartitions(series, metric, MAX_PARTITION_LINES), [series, metric]);
  const rows = useMemo(() => partitionRows(series, keys, metric), [series, keys, metric]);
  const samples = series.samples.length;
  const first = series.samples[0];

  return (
    <ChartCard
      data-testid="partition-lag-history"
      data-samples={samples}
      data-lines={samples > 0 ? keys.length : 0}
      aria-label="Lag per partition since this page opened"
      caption={
        <>
          <span>
            Since this page opened: {formatCount(samples)} live {plural(samples, "sample")}
            {first && ` from ${formatClock(new Date(first.t))}`}
            {series.partitions.length > MAX_PARTITION_LINES &&
              `; the ${MAX_PARTITION_LINES} partitions with the most ${metric === "lag" ? "lag" : "lag in seconds"} of ${formatCount(series.partitions.length)}`}
          </span>
          <span className="segmented" role="group" aria-label="Measure">
            <button type="button" aria-pressed={metric === "lag"} onClick={() => setMetric("lag")} data-testid="partition-metric-lag">
              records
            </button>
            <button
              type="button"
              aria-pressed={metric === "seconds"}
              onClick={() => setMetric("seconds")}
              data-testid="partition-metric-seconds"
            >
              seconds
            </button>
          </span>
        </>
      }
    >
      {samples === 0 ? (
        <p className="empty" data-testid="partition-lag-waiting">
          {live
            ? "Waiting for the next live sample… This chart shows only the samples received since this page opened."
            : "No live samples: this chart is drawn from the live updates received since this page opened."}
        </p>
      ) : (
        <LazyChart>
          <PartitionLines rows={rows} keys={keys} seconds={metric === "seconds"} />
        </LazyChart>
      )}
    </ChartCard>
  );
}

import { lazy } from "react";
import type { Broker } from "../api/types";
import { formatCount } from "../lib/format";
import { ChartCard, LazyChart } from "./ChartCard";
import type { BrokerBar } from "./LeadershipBars";

// recharts is the largest dependency: load it with the first chart.
const LeadershipBars = lazy(() => import("./LeadershipBars"));

/**
 * "Leadership balance": partition leaders and replicas per broker (recharts
 * grouped bars, with a dashed line at the mean leader count), and a caption
 * with min / max / mean leaders and how far the busiest broker is above the
 * mean. In a balanced cluster the dark bars are all close to the line.
 */
export function LeadershipChart({ brokers }: { brokers: Broker[] }) {
  const data: BrokerBar[] = [...brokers]
    .sort((a, b) => a.id - b.id)
    .map((b) => ({ broker: `broker ${b.id}`, leaders: b.leader_count, replicas: b.replica_count }));
  const leaders = data.map((d) => d.leaders);
  const total = leaders.reduce((acc, n) => acc + n, 0);
  const mean = data.length ? total / data.length : 0;
  const max = data.length ? Math.max(...leaders) : 0;
  const min = data.length ? Math.min(...leaders) : 0;
  const skew = mean > 0 ? Math.round(((max - mean) / mean) * 100) : 0;

  return (
    <ChartCard
      data-testid="leadership-chart"
      data-brokers={data.length}
      aria-label="Partition leaders and replicas per broker"
      caption={
        <>
          <span>
            Leaders per broker: min {formatCount(min)}, max {formatCount(max)}, mean{" "}
            {mean.toLocaleString("en-US", { maximumFractionDigits: 1 })}
          </span>
          {data.length > 1 && (
            <span className={skew > 20 ? "chart-skew skew-bad" : "chart-skew"} data-testid="leader-skew" data-skew={skew}>
              busiest broker {skew}% above the mean
            </span>
          )}
        </>
      }
    >
      <LazyChart empty={data.length === 0 && "No broker is online."}>
        <LeadershipBars data={data} mean={mean} />
      </LazyChart>
    </ChartCard>
  );
}

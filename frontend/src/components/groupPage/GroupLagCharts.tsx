import { useMemo } from "react";
import type { GroupDetail, GroupTopicLag } from "../../api/types";
import { groupTopics } from "../../lib/groupStates";
import type { LiveGroupView } from "../../lib/liveGroup";
import { LagChart } from "../LagChart";
import { LagHistoryChart } from "../LagHistoryChart";
import { PartitionLagChart } from "../PartitionLagChart";

/** The group's topics for the history chart: with offsets, assignments or a live sample; sorted. */
function allTopics(detail: GroupDetail): string[] {
  const names = new Set(groupTopics(detail));
  for (const t of detail.topics) names.add(t.topic);
  return [...names].sort();
}

/** The topic with the most lag (the history chart's first topic), if any lags. */
function mostLagging(topics: GroupTopicLag[]): string | undefined {
  let best: GroupTopicLag | undefined;
  for (const t of topics) if ((t.lag ?? 0) > (best?.lag ?? 0)) best = t;
  return best?.topic;
}

interface GroupLagChartsProps {
  cluster: string;
  group: string;
  detail: GroupDetail;
  /** What the lag socket brought since the page opened (useLiveGroup). */
  liveView: LiveGroupView;
  live: boolean;
}

/** "Lag over time" (one topic, 1 h / 24 h, live samples appended) and "Lag per partition" (bars
 * of the detail's offsets, lines of the live samples). */
export function GroupLagCharts({ cluster, group, detail, liveView, live }: GroupLagChartsProps) {
  const chartTopics = useMemo(() => allTopics(detail), [detail]);
  return (
    <>
      <h2>Lag over time</h2>
      <div className="chart-stack">
        <LagHistoryChart
          key={`${cluster}/${group}`}
          cluster={cluster}
          group={group}
          topics={chartTopics}
          preferred={mostLagging(detail.topics)}
          livePoints={liveView.points}
          live={live}
        />
      </div>

      <h2>Lag per partition</h2>
      <div className="chart-stack">
        <LagChart offsets={detail.offsets} />
        <PartitionLagChart series={liveView.partitions} live={live} />
      </div>
    </>
  );
}

import { Link } from "react-router-dom";
import type { TopicHealthFilter, TopicSummary } from "../api/types";
import { clusterPath } from "../navigation";
import { formatCount, plural } from "../lib/format";
import { HEALTH_KINDS, MISCONFIGURED, configTotals, healthTotals } from "../lib/topicHealth";

/** The cards shown on the overview, in this order. */
const CARDS: TopicHealthFilter[] = ["under_replicated", "under_min_isr", "unavailable", "at_min_isr"];

/** The topic list URL showing the topics with partitions in `filter` (internal topics included, as counted). */
export function filteredTopicsPath(cluster: string, filter: TopicHealthFilter | typeof MISCONFIGURED.code): string {
  return `${clusterPath(cluster, "topics")}?filter=${filter}&internal=true`;
}

function inTopics(topics: number | undefined): string {
  return topics === undefined ? "unknown" : topics === 0 ? "in no topic" : `in ${formatCount(topics)} ${plural(topics, "topic")}`;
}

/**
 * Cluster-wide partition health: each card sums one count over every topic
 * (internal ones too) and links to the topic list with that filter. Under min
 * ISR is red only for partitions that lost replicas (or their leader); when
 * all of them belong to misconfigured topics (replication factor below
 * min.insync.replicas) it is amber, and a card of its own counts those.
 */
export function HealthCards({ cluster, topics }: { cluster: string; topics: TopicSummary[] | null }) {
  const totals = topics ? healthTotals(topics) : null;
  const config = topics ? configTotals(topics) : null;
  const misconfigured = config?.misconfigured;
  return (
    <div className="health-cards">
      {CARDS.map((filter) => {
        const kind = HEALTH_KINDS.find((k) => k.filter === filter)!;
        const total = totals?.[filter];
        const bad = total !== undefined && total.partitions > 0;
        // Under min ISR only because of the configuration: amber, not red.
        const tone = bad && filter === "under_min_isr" && config?.outage.partitions === 0 ? MISCONFIGURED.tone : kind.tone;
        const split = filter === "under_min_isr" && bad && config && config.misconfigured.partitions > 0;
        return (
          <Link
            key={filter}
            to={filteredTopicsPath(cluster, filter)}
            className={bad ? `health-card health-${tone}` : "health-card"}
            data-testid={`health-${filter}`}
            data-count={total?.partitions ?? ""}
            data-tone={bad ? tone : undefined}
            title={kind.help}
          >
            <span className="health-number">{formatCount(total?.partitions)}</span>
            <span className="health-label">
              {kind.label} {plural(total?.partitions ?? 0, "partition")}
            </span>
            <span className="health-sub">{inTopics(total?.topics)}</span>
            {split && (
              <span className="health-sub" data-testid="health-under_min_isr-split">
                {formatCount(config.outage.partitions)} with lost replicas, {formatCount(config.misconfigured.partitions)}{" "}
                misconfigured
              </span>
            )}
          </Link>
        );
      })}
      <Link
        to={filteredTopicsPath(cluster, MISCONFIGURED.code)}
        className={misconfigured && misconfigured.partitions > 0 ? `health-card health-${MISCONFIGURED.tone}` : "health-card"}
        data-testid={`health-${MISCONFIGURED.code}`}
        data-count={misconfigured?.partitions ?? ""}
        data-tone={misconfigured && misconfigured.partitions > 0 ? MISCONFIGURED.tone : undefined}
        title={MISCONFIGURED.help}
      >
        <span className="health-number">{formatCount(misconfigured?.partitions)}</span>
        <span className="health-label">
          Misconfigured {plural(misconfigured?.partitions ?? 0, "partition")} (RF &lt; min ISR)
        </span>
        <span className="health-sub">{inTopics(misconfigured?.topics)}</span>
      </Link>
    </div>
  );
}

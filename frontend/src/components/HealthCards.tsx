import { Link } from "react-router-dom";
import type { TopicHealthFilter, TopicSummary } from "../api/types";
import { clusterPath } from "../navigation";
import { formatCount, plural } from "../lib/format";
import { HEALTH_KINDS, healthTotals } from "../lib/topicHealth";

/** The cards shown on the overview, in this order. */
const CARDS: TopicHealthFilter[] = ["under_replicated", "under_min_isr", "unavailable", "at_min_isr"];

/** The topic list URL showing the topics with partitions in `filter` (internal topics included, as counted). */
export function filteredTopicsPath(cluster: string, filter: TopicHealthFilter): string {
  return `${clusterPath(cluster, "topics")}?filter=${filter}&internal=true`;
}

/**
 * Cluster-wide partition health: each card sums one count over every topic
 * (internal ones too) and links to the topic list with that filter.
 */
export function HealthCards({ cluster, topics }: { cluster: string; topics: TopicSummary[] | null }) {
  const totals = topics ? healthTotals(topics) : null;
  return (
    <div className="health-cards">
      {CARDS.map((filter) => {
        const kind = HEALTH_KINDS.find((k) => k.filter === filter)!;
        const total = totals?.[filter];
        const bad = total !== undefined && total.partitions > 0;
        return (
          <Link
            key={filter}
            to={filteredTopicsPath(cluster, filter)}
            className={bad ? `health-card health-${kind.tone}` : "health-card"}
            data-testid={`health-${filter}`}
            data-count={total?.partitions ?? ""}
            title={kind.help}
          >
            <span className="health-number">{formatCount(total?.partitions)}</span>
            <span className="health-label">
              {kind.label} {plural(total?.partitions ?? 0, "partition")}
            </span>
            <span className="health-sub">
              {total === undefined
                ? "unknown"
                : total.topics === 0
                  ? "in no topic"
                  : `in ${formatCount(total.topics)} ${plural(total.topics, "topic")}`}
            </span>
          </Link>
        );
      })}
    </div>
  );
}

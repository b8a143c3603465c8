import { Link } from "react-router-dom";
import type { GroupTopicLag } from "../../api/types";
import { formatCount, formatDuration, formatRate } from "../../lib/format";
import { formatCatchUp } from "../../lib/lagStatus";
import { topicPath } from "../../navigation";
import { RetentionRiskBadge } from "../LagStatusBadge";
import { type HeaderColumn, numeric, Table } from "../TableParts";

const COLUMNS: HeaderColumn[] = [
  "Topic",
  numeric("Lag"),
  numeric("Lag in time", "Age of the oldest record the group has not read yet"),
  numeric("Write"),
  numeric("Consume"),
  numeric("Catch up", "At the current rates"),
  "Retention",
];

/** Per topic: lag, lag in time, rates, time to catch up, retention risk (from the latest sample). */
export function GroupTopicsTable({ cluster, topics }: { cluster: string; topics: GroupTopicLag[] }) {
  if (topics.length === 0) {
    return (
      <p className="empty" data-testid="group-topics-empty">
        No sample yet: the lag sampler has not evaluated this group.
      </p>
    );
  }
  return (
    <Table columns={COLUMNS} data-testid="group-topics-table">
      {topics.map((t) => (
        <tr key={t.topic} data-testid={`group-topic-row-${t.topic}`} data-risk={t.retention_risk}>
          <td className="name-cell">
            <Link to={topicPath(cluster, t.topic)}>{t.topic}</Link>
          </td>
          <td className={t.lag ? "num lag-cell" : "num"}>{formatCount(t.lag)}</td>
          <td className="num nowrap">{formatDuration(t.max_lag_seconds)}</td>
          <td className="num">{formatRate(t.rates.write_per_s)}</td>
          <td className="num">{formatRate(t.rates.consume_per_s)}</td>
          <td className="num">{formatCatchUp(t.catch_up_seconds, t.lag, t.rates)}</td>
          <td>
            {t.retention_risk === "none" ? (
              <span className="muted">—</span>
            ) : (
              <RetentionRiskBadge risk={t.retention_risk} reason={t.retention_reason} data-testid={`group-topic-risk-${t.topic}`} />
            )}
          </td>
        </tr>
      ))}
    </Table>
  );
}

import { Link } from "react-router-dom";
import type { GroupTopicLag } from "../../api/types";
import { formatCount, formatDuration, formatRate } from "../../lib/format";
import { formatCatchUp } from "../../lib/lagStatus";
import { topicPath } from "../../navigation";
import { RetentionRiskBadge } from "../LagStatusBadge";

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
    <div className="table-wrap">
      <table className="table" data-testid="group-topics-table">
        <thead>
          <tr>
            <th scope="col">Topic</th>
            <th scope="col" className="num">
              Lag
            </th>
            <th scope="col" className="num" title="Age of the oldest record the group has not read yet">
              Lag in time
            </th>
            <th scope="col" className="num">
              Write
            </th>
            <th scope="col" className="num">
              Consume
            </th>
            <th scope="col" className="num" title="At the current rates">
              Catch up
            </th>
            <th scope="col">Retention</th>
          </tr>
        </thead>
        <tbody>
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
                  <RetentionRiskBadge risk={t.retention_risk} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

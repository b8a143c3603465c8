import { Link } from "react-router-dom";
import type { TopicReader } from "../api/types";
import { formatCount } from "../lib/format";
import { groupPath } from "../navigation";
import { LagStatusBadge } from "./LagStatusBadge";
import { type HeaderColumn, numeric, Table } from "./TableParts";

const COLUMNS: HeaderColumn[] = [
  "Group",
  numeric("Lag", "The group's lag on this topic, summed over its partitions"),
  "Status",
];

function byGroupId(a: TopicReader, b: TopicReader): number {
  return a.group_id < b.group_id ? -1 : a.group_id > b.group_id ? 1 : 0;
}

/**
 * The consumer groups with committed offsets on a topic at the lag sampler's last pass (`readers`
 * of the topic detail), by group id: each with its lag on the topic and its lag status. `readers`
 * null: unknown (no sampler pass yet).
 */
export function TopicReaders({ cluster, readers }: { cluster: string; readers: TopicReader[] | null }) {
  return (
    <section data-testid="topic-readers" data-count={readers?.length ?? ""}>
      <h2>Consumer groups</h2>
      {readers === null ? (
        <p className="notice muted" data-testid="topic-readers-unknown">
          Readers unknown: the lag sampler has not passed yet.
        </p>
      ) : readers.length === 0 ? (
        <p className="empty" data-testid="topic-readers-empty">
          No consumer group has committed offsets on this topic.
        </p>
      ) : (
        <Table columns={COLUMNS} data-testid="topic-readers-table">
          {[...readers].sort(byGroupId).map((r) => (
            <tr key={r.group_id} data-testid={`topic-reader-${r.group_id}`}>
              <td className="name-cell">
                <Link to={groupPath(cluster, r.group_id)} className="strong-link">
                  {r.group_id}
                </Link>
              </td>
              <td className={r.lag ? "num lag-cell" : "num"} data-lag={r.lag ?? ""}>
                {formatCount(r.lag)}
              </td>
              <td>
                <LagStatusBadge status={r.status} data-testid={`topic-reader-status-${r.group_id}`} />
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}

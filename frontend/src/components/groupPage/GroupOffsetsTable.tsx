import { useMemo } from "react";
import { Link } from "react-router-dom";
import type { GroupMember, GroupOffset } from "../../api/types";
import { formatCount, formatDuration } from "../../lib/format";
import { riskTitle } from "../../lib/lagStatus";
import { sortByTopicPartition } from "../../lib/resetPlans";
import { topicPath } from "../../navigation";
import { LagStatusBadge, RetentionRiskBadge } from "../LagStatusBadge";
import { virtualRowProps, VirtualTable } from "../SortableTable";
import { HeaderCells, type HeaderColumn, numeric } from "../TableParts";

/** Height of one offsets table row in px (fixed in styles.css: .vtable td). */
export const OFFSET_ROW_HEIGHT = 36;

const COLUMNS: HeaderColumn[] = [
  "Topic",
  numeric("Partition"),
  numeric("Committed"),
  numeric("Log start"),
  numeric("Log end"),
  numeric("Lag"),
  numeric("Lag in time", "Age of the record at the committed offset"),
  "Status",
  "Member",
];

/** Per partition: committed offset, log range, lag, lag in time, status and risk, member
 * (virtualized above 200 rows). */
export function GroupOffsetsTable({ cluster, offsets, members }: { cluster: string; offsets: GroupOffset[]; members: GroupMember[] }) {
  const rows = useMemo(() => sortByTopicPartition(offsets), [offsets]);
  const byMember = useMemo(() => new Map(members.map((m) => [m.member_id, m])), [members]);
  return (
    <VirtualTable
      testId="group-offsets"
      rows={rows}
      rowKey={(o) => `${o.topic}\u0000${o.partition}`}
      rowHeight={OFFSET_ROW_HEIGHT}
      scrollWhenVirtualized
      head={<HeaderCells columns={COLUMNS} />}
      span={COLUMNS.length}
      empty="The group has no committed offsets."
      renderRow={(o, index) => {
        const member = o.member_id ? byMember.get(o.member_id) : undefined;
        return (
          <tr key={`${o.topic}-${o.partition}`} data-testid={`offset-row-${o.topic}-${o.partition}`} {...virtualRowProps(index)}>
            <td className="name-cell">
              <Link to={topicPath(cluster, o.topic)}>{o.topic}</Link>
            </td>
            <td className="num">{o.partition}</td>
            <td className={o.committed_offset === null ? "num muted" : "num"}>{formatCount(o.committed_offset)}</td>
            <td className="num">{formatCount(o.log_start_offset)}</td>
            <td className="num">{formatCount(o.log_end_offset)}</td>
            <td className={o.lag === null ? "num muted" : o.lag > 0 ? "num lag-cell" : "num"}>{formatCount(o.lag)}</td>
            <td className={o.lag_seconds === null ? "num nowrap muted" : "num nowrap"}>{formatDuration(o.lag_seconds)}</td>
            <td className="status-cell" title={riskTitle(o.retention_risk, o.retention_reason)}>
              <LagStatusBadge status={o.status} data-testid={`offset-status-${o.topic}-${o.partition}`} />
              <RetentionRiskBadge
                risk={o.retention_risk}
                reason={o.retention_reason}
                compact
                data-testid={`offset-risk-${o.topic}-${o.partition}`}
              />
            </td>
            <td className="mono" title={o.member_id ?? undefined}>
              {o.member_id === null ? (
                <span className="muted">—</span>
              ) : member ? (
                `${member.client_id || member.member_id} (${member.host})`
              ) : (
                o.member_id
              )}
            </td>
          </tr>
        );
      }}
    />
  );
}

import type { GroupMember } from "../../api/types";
import { formatAssignments } from "../../lib/groupStates";
import { type HeaderColumn, numeric, Table } from "../TableParts";

const COLUMNS: HeaderColumn[] = ["Client id", "Host", numeric("Partitions"), "Assigned", "Member id"];

/** The connected members: client id, host, assigned partitions, member id. */
export function GroupMembersTable({ members }: { members: GroupMember[] }) {
  if (members.length === 0) {
    return (
      <p className="empty" data-testid="group-members-empty">
        No member is connected.
      </p>
    );
  }
  const sorted = [...members].sort((a, b) =>
    a.client_id < b.client_id ? -1 : a.client_id > b.client_id ? 1 : a.member_id < b.member_id ? -1 : 1,
  );
  return (
    <Table columns={COLUMNS} data-testid="group-members-table">
      {sorted.map((m) => (
        <tr key={m.member_id} data-testid={`member-row-${m.member_id}`}>
          <td className="mono">{m.client_id || "—"}</td>
          <td className="mono">{m.host || "—"}</td>
          <td className="num">{m.assignments.length}</td>
          <td className="wrap mono">{m.assignments.length ? formatAssignments(m.assignments) : "—"}</td>
          <td className="mono muted member-id" title={m.member_id}>
            {m.member_id}
          </td>
        </tr>
      ))}
    </Table>
  );
}

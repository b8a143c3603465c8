import type { GroupMember } from "../../api/types";
import { formatAssignments } from "../../lib/groupStates";

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
    <div className="table-wrap">
      <table className="table" data-testid="group-members-table">
        <thead>
          <tr>
            <th scope="col">Client id</th>
            <th scope="col">Host</th>
            <th scope="col" className="num">
              Partitions
            </th>
            <th scope="col">Assigned</th>
            <th scope="col">Member id</th>
          </tr>
        </thead>
        <tbody>
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
        </tbody>
      </table>
    </div>
  );
}

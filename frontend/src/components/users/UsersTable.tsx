import type { KeyboardEvent, MouseEvent } from "react";
import { Link, useNavigate } from "react-router-dom";
import type { ConsoleUser, Role } from "../../api/types";
import { formatCount } from "../../lib/format";
import { formatAgo, formatLocal } from "../../lib/time";
import { clusterRoleChips, ROLE_HELP } from "../../lib/users";
import { userPath } from "../../navigation";
import { StatusBadge } from "../StatusBadge";
import { EmptyRow, numeric, Table, type HeaderColumn } from "../TableParts";

const COLUMNS: HeaderColumn[] = [
  "User",
  "Enabled",
  { label: "Every cluster", title: "The role on every cluster (none: only the clusters of its own roles)" },
  { label: "Single clusters", title: "Roles on single clusters: they replace the role on every cluster there" },
  { label: "Sign-in", title: "With a password, or API tokens only" },
  "Last sign-in",
  numeric("Tokens", "API tokens the user holds (expired ones too)"),
];

/** A role as a small pill, in the role's colour. */
export function RoleBadge({ role, testId }: { role: Role | null; testId?: string }) {
  if (!role) {
    return (
      <span className="muted" data-testid={testId} data-role="">
        none
      </span>
    );
  }
  return (
    <span className={`user-role user-role-${role}`} title={ROLE_HELP[role]} data-testid={testId} data-role={role}>
      {role}
    </span>
  );
}

/** "local: operator" chips, one per cluster with its own role. */
export function ClusterRoleChips({ user, testId }: { user: Pick<ConsoleUser, "cluster_roles">; testId?: string }) {
  const chips = clusterRoleChips(user);
  if (chips.length === 0) return <span className="muted">—</span>;
  return (
    <span className="role-chips" data-testid={testId}>
      {chips.map(({ cluster, role }) => (
        <span key={cluster} className={`role-chip role-chip-${role}`} title={`${ROLE_HELP[role]} on ${cluster}`} data-cluster={cluster} data-role={role}>
          <span className="role-chip-cluster">{cluster}</span>: {role}
        </span>
      ))}
    </span>
  );
}

/** When a user last signed in with its password (never for tokens-only users). */
export function LastSignIn({ at }: { at: string | null }) {
  const ms = at ? Date.parse(at) : NaN;
  if (!at || Number.isNaN(ms)) return <span className="muted">never</span>;
  return (
    <time dateTime={at} title={`${formatLocal(ms).slice(0, 19)} (${formatAgo(ms)})`}>
      {formatLocal(ms).slice(0, 16)}
    </time>
  );
}

/** The console users, by name; a row opens the user's page (its roles and tokens). */
export function UsersTable({ users }: { users: readonly ConsoleUser[] }) {
  const navigate = useNavigate();
  return (
    <Table columns={COLUMNS} className="users-table" data-testid="users-table" data-count={users.length}>
      {users.length === 0 ? (
        <EmptyRow span={COLUMNS.length} testId="users-empty">
          No console users.
        </EmptyRow>
      ) : (
        users.map((user) => {
          const open = () => navigate(userPath(user.id));
          const onClick = (event: MouseEvent) => {
            if (!(event.target as HTMLElement).closest("a, button")) open();
          };
          const onKeyDown = (event: KeyboardEvent) => {
            if (event.target === event.currentTarget && event.key === "Enter") open();
          };
          return (
            <tr
              key={user.id}
              className={user.is_active ? "users-row" : "users-row users-row-disabled"}
              onClick={onClick}
              onKeyDown={onKeyDown}
              tabIndex={0}
              data-testid={`user-row-${user.username}`}
              data-id={user.id}
              data-active={user.is_active}
            >
              <td className="name-cell">
                <Link to={userPath(user.id)} className="strong-link" data-testid={`user-link-${user.username}`}>
                  {user.username}
                </Link>
                {user.is_superuser && (
                  <StatusBadge tone="warn" title="Admin on every cluster, whatever its roles say">
                    superuser
                  </StatusBadge>
                )}
              </td>
              <td>
                {user.is_active ? (
                  <StatusBadge tone="ok">enabled</StatusBadge>
                ) : (
                  <StatusBadge tone="neutral" title="Cannot sign in; its API tokens are refused">
                    disabled
                  </StatusBadge>
                )}
              </td>
              <td>
                <RoleBadge role={user.role} testId={`user-role-${user.username}`} />
              </td>
              <td className="wrap-chips">
                <ClusterRoleChips user={user} testId={`user-cluster-roles-${user.username}`} />
              </td>
              <td>{user.has_password ? "password" : <span className="muted">tokens only</span>}</td>
              <td className="nowrap">
                <LastSignIn at={user.last_login} />
              </td>
              <td className="num" data-testid={`user-tokens-${user.username}`}>
                {formatCount(user.tokens)}
              </td>
            </tr>
          );
        })
      )}
    </Table>
  );
}

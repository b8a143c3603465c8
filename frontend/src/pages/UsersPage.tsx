import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { Link } from "react-router-dom";
import { clustersQuery, userListQuery } from "../api/queries";
import { refetchNow } from "../api/queryClient";
import { queryKeys } from "../api/queryKeys";
import type { ConsoleUser } from "../api/types";
import { RoleNotice } from "../components/CurrentUser";
import { RowCount } from "../components/ListToolbar";
import { loadStateOf, PageShell } from "../components/PageShell";
import { NewUserForm } from "../components/users/NewUserForm";
import { UsersTable } from "../components/users/UsersTable";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { usePolledQuery } from "../hooks/usePolledQuery";
import { userPath } from "../navigation";

export const USERS_POLL_MS = 30_000;

/**
 * /users — the console's users (admins; docs/governance.md): each with its state, its role on
 * every cluster and on single ones, how it signs in, its last sign-in and its API tokens, polled
 * every 30 s. "New user" opens the form above the list; a row opens the user's page (enable or
 * disable, roles, tokens).
 */
export function UsersPage() {
  useDocumentTitle("Users");
  const client = useQueryClient();
  const list = usePolledQuery(userListQuery(), USERS_POLL_MS);
  const load = loadStateOf(list);
  const clusters = useQuery({ ...clustersQuery(), refetchOnWindowFocus: false });
  const clusterNames = useMemo(() => (clusters.data ?? []).map((c) => c.name), [clusters.data]);
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<ConsoleUser | null>(null);

  const users = list.data ?? [];
  const actions = (
    <>
      <RoleNotice role="admin" testId="admin-only">
        Only admins can see and change the console's users: the server refuses this page to your role
      </RoleNotice>
      {created && (
        <p className="notice notice-ok" role="status" data-testid="user-created">
          Created <strong className="mono">{created.username}</strong>
          {created.has_password ? "" : " (API tokens only)"}.{" "}
          <Link to={userPath(created.id)} data-testid="user-created-link">
            Open its page
          </Link>{" "}
          to make an API token or change its roles.
        </p>
      )}
      <div className="toolbar">
        <span className="muted">
          Who may use this console: a role on every cluster, and roles on single clusters that replace it there.
        </span>
        <span className="toolbar-spacer" />
        {list.data && <RowCount shown={users.length} total={users.length} noun="user" testId="users-count" />}
        {!adding && (
          <button
            type="button"
            className="button button-primary"
            onClick={() => {
              setCreated(null);
              setAdding(true);
            }}
            data-testid="new-user"
          >
            New user
          </button>
        )}
      </div>
      {adding && (
        <div className="users-form-box">
          <NewUserForm
            clusters={clusterNames}
            onCreated={(user) => {
              setCreated(user);
              setAdding(false);
              void refetchNow(client, queryKeys.userList());
            }}
            onClose={() => setAdding(false)}
          />
        </div>
      )}
    </>
  );

  return (
    <PageShell
      crumbs={[{ label: "Users" }]}
      title="Users"
      updatedAt={list.updatedAt}
      actions={actions}
      {...load}
      what="the users"
      loadingLabel="Loading users…"
      testId="users-page"
    >
      {list.data && <UsersTable users={users} />}
    </PageShell>
  );
}

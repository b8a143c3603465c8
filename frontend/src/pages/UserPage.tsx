import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useRef, useState } from "react";
import { Link, useParams } from "react-router-dom";
import { updateUser } from "../api/endpoints";
import { clustersQuery, userQuery, userTokensQuery } from "../api/queries";
import { refetchNow } from "../api/queryClient";
import { queryKeys } from "../api/queryKeys";
import type { ConsoleUser, ConsoleUserChange } from "../api/types";
import { RoleNotice, useCurrentUser } from "../components/CurrentUser";
import { ErrorBanner } from "../components/ErrorBanner";
import { FactTimestamp } from "../components/FactTimestamp";
import { loadStateOf, PageShell } from "../components/PageShell";
import { StatusBadge } from "../components/StatusBadge";
import { RoleRowsEditor } from "../components/users/RoleRowsEditor";
import { UserTokens } from "../components/users/UserTokens";
import { ClusterRoleChips, RoleBadge } from "../components/users/UsersTable";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { usePolledQuery } from "../hooks/usePolledQuery";
import { checkRoleRows, placeUserErrors, rolesFormOf, rolesPatch, sameRoles, userErrorHint, type RolesForm } from "../lib/users";
import { auditPath, USERS_PATH } from "../navigation";

export const USER_POLL_MS = 30_000;

/** What the last write answered: saved (what), or refused. */
type WriteOutcome = { saved: string } | { error: Error; clusters: Record<string, string[]> } | null;

/**
 * /users/:userId — one console user (admins): enabled or not (a switch; the server refuses
 * disabling yourself, and a change that leaves no active admin of every cluster: 409 last_admin),
 * its roles on every cluster and on single ones (edited, then saved with one PATCH: a removed row is
 * sent as null), and its API tokens (UserTokens). User and tokens polled every 30 s.
 */
export function UserPage() {
  const { userId = "" } = useParams<{ userId: string }>();
  const id = /^\d+$/.test(userId) ? Number(userId) : NaN;
  const client = useQueryClient();
  const { user: me } = useCurrentUser();
  const detail = usePolledQuery({ ...userQuery(id), enabled: !Number.isNaN(id) }, USER_POLL_MS);
  const tokens = usePolledQuery({ ...userTokensQuery(id), enabled: !Number.isNaN(id) }, USER_POLL_MS);
  const clusters = useQuery({ ...clustersQuery(), refetchOnWindowFocus: false });
  const clusterNames = useMemo(() => (clusters.data ?? []).map((c) => c.name), [clusters.data]);
  const user = detail.data;
  useDocumentTitle(user ? `${user.username} · Users` : "Users");

  // Until edited, the editor shows the user as last answered; once edited, a poll does not overwrite
  // it (a save or "Undo changes" lets go). The PATCH is the difference from the user as shown now.
  const [form, setForm] = useState<{ base: ConsoleUser; value: RolesForm } | null>(null);
  // The user's roles as the editor holds them (one object per answer: its rows keep their keys).
  const held = useMemo(() => (user ? rolesFormOf(user) : null), [user]);
  const editing = form && user && form.base.id === user.id ? form.value : held;
  const [rowErrors, setRowErrors] = useState<Record<number, string>>({});
  const [outcome, setOutcome] = useState<WriteOutcome>(null);
  const [busy, setBusy] = useState<"roles" | "active" | null>(null);
  const requestId = useRef(0);

  const write = async (what: "roles" | "active", patch: ConsoleUserChange, said: string) => {
    const call = ++requestId.current;
    setBusy(what);
    setOutcome(null);
    try {
      const answer = await updateUser(id, patch);
      if (call !== requestId.current) return;
      detail.replace(answer);
      if (what === "roles") setForm(null);
      setOutcome({ saved: said });
      void client.invalidateQueries({ queryKey: queryKeys.userList() });
    } catch (error) {
      if (call !== requestId.current) return;
      // Problems of a cluster's row also beside it; the whole answer in the banner.
      const placed = placeUserErrors(error, ["role", "is_active", "cluster_roles"] as const);
      setOutcome({ error: error instanceof Error ? error : new Error(String(error)), clusters: placed.clusters });
    } finally {
      if (call === requestId.current) setBusy(null);
    }
  };

  const saveRoles = () => {
    if (!user || !editing) return;
    const problems = checkRoleRows(editing.rows);
    setRowErrors(problems);
    if (Object.keys(problems).length > 0) return;
    const patch = rolesPatch(user, editing);
    if (patch) void write("roles", patch, "roles");
    // Only finished rows that change nothing: the editor shows the user as it is.
    else setForm(null);
  };

  const toggleActive = () => {
    if (!user) return;
    void write("active", { is_active: !user.is_active }, user.is_active ? "disabled" : "enabled");
  };

  const load = loadStateOf(detail);
  const self = !!user && !!me && me.username === user.username;
  const dirty = !!user && !!editing && !!held && (rolesPatch(user, editing) !== null || !sameRoles(editing, held));
  const error = outcome && "error" in outcome ? outcome.error : null;
  const hint = userErrorHint(error);

  const actions = (
    <RoleNotice role="admin" testId="admin-only">
      Only admins can see and change the console's users: the server refuses this page to your role
    </RoleNotice>
  );

  return (
    <PageShell
      crumbs={[{ label: "Users", to: USERS_PATH }, { label: user?.username ?? `#${userId}` }]}
      title={
        <>
          {user?.username ?? "User"}
          {user?.is_superuser && (
            <>
              {" "}
              <StatusBadge tone="warn" title="Admin on every cluster, whatever its roles say">
                superuser
              </StatusBadge>
            </>
          )}
        </>
      }
      updatedAt={detail.updatedAt}
      actions={actions}
      {...load}
      error={Number.isNaN(id) ? new Error(`“${userId}” is no user id.`) : load.error}
      what="the user"
      loadingLabel="Loading the user…"
      testId="user-page"
    >
      {user && (
        <>
          <dl className="facts user-facts" data-testid="user-facts">
            <div>
              <dt>State</dt>
              <dd>
                <button
                  type="button"
                  role="switch"
                  aria-checked={user.is_active}
                  className={user.is_active ? "switch switch-on" : "switch"}
                  disabled={busy !== null || (self && user.is_active)}
                  onClick={toggleActive}
                  title={self && user.is_active ? "You cannot disable yourself" : user.is_active ? "Disable: it can no longer sign in, its tokens stop" : "Enable: it can sign in and use its tokens again"}
                  data-testid="user-active"
                >
                  <span className="switch-knob" aria-hidden="true" />
                  <span className="switch-label">{user.is_active ? "enabled" : "disabled"}</span>
                </button>
                {self && <span className="muted small-line">You (cannot disable yourself)</span>}
              </dd>
            </div>
            <div>
              <dt>Signs in with</dt>
              <dd data-testid="user-sign-in">
                {user.sso ? "single sign-on or API tokens" : user.has_password ? "a password or API tokens" : "API tokens only"}
                {user.sso && (
                  <span className="muted small-line" data-testid="user-sso-note">
                    Its roles come from its groups at the identity provider: a change here lasts until its next sign-in.
                  </span>
                )}
              </dd>
            </div>
            <div>
              <dt>Every cluster</dt>
              <dd>
                <RoleBadge role={user.role} testId="user-role" />
              </dd>
            </div>
            <div>
              <dt>Single clusters</dt>
              <dd>
                <ClusterRoleChips user={user} testId="user-cluster-roles" />
              </dd>
            </div>
            <FactTimestamp label="Last sign-in" at={user.last_login} testId="user-last-login" />
            <FactTimestamp label="Joined" at={user.date_joined} testId="user-joined" />
            <div>
              <dt>Changes</dt>
              <dd>
                <Link to={auditPath({ target: user.username })} data-testid="user-audit-link">
                  In the audit log
                </Link>
              </dd>
            </div>
          </dl>

          {outcome && "saved" in outcome && (
            <p className="notice notice-ok" role="status" data-testid="user-saved">
              {outcome.saved === "roles"
                ? `Saved the roles of ${user.username}.`
                : `${user.username} is ${outcome.saved}${outcome.saved === "disabled" ? ": it can no longer sign in, and its tokens are refused." : "."}`}
            </p>
          )}
          {error && <ErrorBanner error={error} title="Not saved" />}
          {hint && (
            <p className="notice notice-warn" data-testid="user-error-hint">
              {hint}
            </p>
          )}

          <section className="user-section form-card user-roles-card" data-testid="user-roles">
            <h2 className="user-section-title">Roles</h2>
            {user.is_superuser && (
              <p className="notice notice-warn">A superuser is admin on every cluster whatever is set here (Django's admin sets superusers).</p>
            )}
            {editing && (
              <RoleRowsEditor
                value={editing}
                onChange={(value) => {
                  setForm({ base: user, value });
                  setRowErrors({});
                }}
                clusters={clusterNames}
                rowErrors={rowErrors}
                clusterErrors={outcome && "clusters" in outcome ? outcome.clusters : {}}
                disabled={busy !== null}
                testId="user-roles-editor"
              />
            )}
            <div className="form-actions">
              <button type="button" className="button button-primary" disabled={!dirty || busy !== null} onClick={saveRoles} data-testid="user-roles-save">
                {busy === "roles" ? "Saving…" : "Save roles"}
              </button>
              <button
                type="button"
                className="button"
                disabled={!dirty || busy !== null}
                onClick={() => {
                  setForm(null);
                  setRowErrors({});
                }}
                data-testid="user-roles-reset"
              >
                Undo changes
              </button>
              {dirty && <span className="muted">Not saved yet.</span>}
            </div>
          </section>

          <UserTokens
            userId={user.id}
            username={user.username}
            tokens={tokens.data}
            onChanged={() => {
              void refetchNow(client, queryKeys.user(user.id));
              void client.invalidateQueries({ queryKey: queryKeys.userList() });
            }}
          />
          {tokens.error && <ErrorBanner error={tokens.error} title="Could not load the tokens" onRetry={tokens.refresh} />}
        </>
      )}
    </PageShell>
  );
}

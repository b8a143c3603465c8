import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useParams } from "react-router-dom";
import { deleteScramCredential } from "../api/endpoints";
import { scramUserListQuery } from "../api/queries";
import { refetchNow } from "../api/queryClient";
import { queryKeys } from "../api/queryKeys";
import type { ScramMechanism } from "../api/types";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { hasRole, useCurrentUser } from "../components/CurrentUser";
import { RowCount } from "../components/ListToolbar";
import { clusterCrumbs, loadStateOf, PageShell, Stale } from "../components/PageShell";
import { ScramUserForm } from "../components/scramUsers/ScramUserForm";
import { ScramUsersTable } from "../components/scramUsers/ScramUsersTable";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { usePolledQuery } from "../hooks/usePolledQuery";
import { formatCount } from "../lib/format";
import { EMPTY_SCRAM_FORM, SCRAM_MECHANISMS, scramRows, type ScramRow } from "../lib/scramUsers";

export const SCRAM_USERS_POLL_MS = 30_000;

/** A credential's delete: asked for (the confirmation open), then on its way. */
interface PendingDelete {
  row: ScramRow;
  /** The user's only credential: the user leaves the list with it. */
  last: boolean;
  busy: boolean;
  error: Error | null;
}

/**
 * /clusters/:cluster/scram-users — SCRAM users tab (admins; docs/governance.md): every user's
 * credentials (mechanism, iterations; nothing else exists to show), polled every 30 s; the form
 * that creates a credential or rotates its password ("Rotate password" on a row fills it), and a
 * credential's delete after typing the user's name in the confirmation.
 */
export function ScramUsersPage() {
  const { cluster = "" } = useParams<{ cluster: string }>();
  useDocumentTitle(`SCRAM users · ${cluster}`);
  const client = useQueryClient();
  const { user } = useCurrentUser();
  // Only admins (of this cluster) may see or change SCRAM users: the others get a notice (and the
  // server's 403), no form.
  const admin = hasRole(user, "admin", cluster);
  const list = usePolledQuery(scramUserListQuery(cluster), SCRAM_USERS_POLL_MS);
  const load = loadStateOf(list);
  const { data } = list;
  const rows = data ? scramRows(data) : [];

  const [form, setForm] = useState(EMPTY_SCRAM_FORM);
  const passwordRef = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<PendingDelete | null>(null);
  const [deleted, setDeleted] = useState<ScramRow | null>(null);
  const requestId = useRef(0);

  const refetchList = () => void refetchNow(client, queryKeys.scramUsers(cluster));

  const onRotate = (row: ScramRow) => {
    const mechanism = SCRAM_MECHANISMS.find((m) => m === row.mechanism) ?? EMPTY_SCRAM_FORM.mechanism;
    setForm({ user: row.user, mechanism, iterations: String(row.iterations) });
    passwordRef.current?.scrollIntoView?.({ block: "center", behavior: "smooth" });
    passwordRef.current?.focus();
  };

  const onDelete = (row: ScramRow) => {
    setDeleted(null);
    const user = data?.find((u) => u.user === row.user);
    setPending({ row, last: (user?.credentials.length ?? 0) <= 1, busy: false, error: null });
  };

  const confirmDelete = async () => {
    if (!pending) return;
    const { row } = pending;
    const id = ++requestId.current;
    setPending({ ...pending, busy: true, error: null });
    try {
      await deleteScramCredential(cluster, row.user, row.mechanism as ScramMechanism);
      if (id !== requestId.current) return;
      setPending(null);
      setDeleted(row);
      refetchList();
    } catch (error) {
      if (id !== requestId.current) return;
      setPending({ ...pending, busy: false, error: error instanceof Error ? error : new Error(String(error)) });
    }
  };

  const cancelDelete = () => {
    requestId.current++;
    setPending(null);
  };

  const users = data?.length ?? 0;
  const actions = (
    <>
      {user && !admin && (
        <p className="notice notice-warn" data-testid="admin-only">
          Only admins can see and change SCRAM users; the server refuses this page for your role ({user.cluster_roles[cluster] ?? "none"}).
        </p>
      )}
      <div className="toolbar">
        <span className="muted">Credentials Kafka keeps for SASL/SCRAM sign-in: a mechanism and its iterations (never a password).</span>
        <span className="toolbar-spacer" />
        {data && <RowCount shown={users} total={users} noun="user" testId="scram-users-count" />}
      </div>
      {deleted && (
        <p className="notice notice-ok" role="status" data-testid="scram-deleted">
          Deleted the {deleted.mechanism} credential of <strong className="mono">{deleted.user}</strong>: it can no longer sign in with
          it.
        </p>
      )}
    </>
  );

  return (
    <PageShell
      crumbs={clusterCrumbs(cluster, "scram-users")}
      title={cluster}
      updatedAt={list.updatedAt}
      tabsOf={cluster}
      actions={actions}
      {...load}
      dimStale={false}
      what="the SCRAM users"
      loadingLabel="Loading SCRAM users…"
      testId="scram-users-page"
    >
      {data && (
        <Stale when={load.stale}>
          <ScramUsersTable rows={rows} onRotate={onRotate} onDelete={onDelete} disabled={pending !== null} />
        </Stale>
      )}
      {admin && (
        <div className="scram-form-box">
          <ScramUserForm
            key={cluster}
            cluster={cluster}
            values={form}
            onChange={setForm}
            users={data}
            passwordRef={passwordRef}
            onSaved={refetchList}
          />
        </div>
      )}

      {pending && (
        <ConfirmDialog
          title="Delete a SCRAM credential"
          expected={pending.row.user}
          confirmLabel={`Delete ${pending.row.mechanism}`}
          busy={pending.busy}
          error={pending.error}
          confirmTestId="scram-delete-confirm"
          errorTestId="scram-delete-error"
          onConfirm={() => void confirmDelete()}
          onCancel={cancelDelete}
        >
          <p>
            The {pending.row.mechanism} credential of <strong className="mono">{pending.row.user}</strong> (
            {formatCount(pending.row.iterations)} iterations) will be deleted from Kafka: clients signing in with it are refused from
            then on.
          </p>
          {pending.last && <p className="muted">It is the user's only credential: the user leaves the list.</p>}
        </ConfirmDialog>
      )}
    </PageShell>
  );
}

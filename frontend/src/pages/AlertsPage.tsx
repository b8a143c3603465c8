import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { AlertRule } from "../api/alerts";
import { alertEventsQuery, alertRulesQuery, clustersQuery } from "../api/queries";
import { AlertEventsTable } from "../components/alerts/AlertEventsTable";
import { RuleForm } from "../components/alerts/RuleForm";
import { RulesTable } from "../components/alerts/RulesTable";
import { hasRole, RoleNotice, useCurrentUser } from "../components/CurrentUser";
import { ErrorBanner } from "../components/ErrorBanner";
import { DeletedFlash, RowCount } from "../components/ListToolbar";
import { Loading } from "../components/Loading";
import { PageShell, Stale } from "../components/PageShell";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { usePolledQuery } from "../hooks/usePolledQuery";

/** The rules and the alerts sent are fetched again this often. */
export const ALERTS_POLL_MS = 10_000;
/** The newest alerts listed. */
export const ALERT_EVENTS_LIMIT = 50;

/** What the form edits: a new rule, or one of the list. */
type Editing = { rule: AlertRule | null } | null;

/**
 * /alerts — the lag alert rules (docs/alerts.md) and, below, the alerts they sent with each
 * delivery attempt; both polled every 10 s, each with its own load state (one failing leaves the
 * other on screen). Operators add, edit, test and delete rules (the form opens above the rules);
 * viewers read.
 */
export function AlertsPage() {
  useDocumentTitle("Alerts");
  const { user } = useCurrentUser();
  const canWrite = hasRole(user, "operator");
  const [editing, setEditing] = useState<Editing>(null);
  const [saved, setSaved] = useState<{ name: string; created: boolean } | null>(null);
  const [deleted, setDeleted] = useState<string | undefined>(undefined);

  const rules = usePolledQuery(alertRulesQuery(), ALERTS_POLL_MS);
  const events = usePolledQuery(alertEventsQuery({ limit: ALERT_EVENTS_LIMIT }), ALERTS_POLL_MS);
  // The cluster select's choices: asked for when the form opens.
  const clusters = useQuery({ ...clustersQuery(), enabled: editing !== null, refetchOnWindowFocus: false });

  const open = (next: Editing) => {
    setSaved(null);
    setDeleted(undefined);
    setEditing(next);
  };

  const actions = (
    <>
      <RoleNotice role="operator" testId="operator-only">
        Only operators can add, change, test or delete alert rules: read-only for your role
      </RoleNotice>
      <DeletedFlash what="Alert rule" name={deleted} />
      {saved && (
        <p className="notice notice-ok" role="status" data-testid="flash">
          Alert rule <strong>{saved.name}</strong> was {saved.created ? "created" : "saved"}.
        </p>
      )}
      <div className="toolbar">
        {rules.data && <RowCount shown={rules.data.length} total={rules.data.length} noun="rule" testId="rules-count" />}
        <span className="toolbar-spacer" />
        {canWrite && (
          <button
            type="button"
            className="button button-primary"
            onClick={() => open({ rule: null })}
            disabled={editing !== null && editing.rule === null}
            data-testid="new-rule"
          >
            New rule
          </button>
        )}
      </div>
    </>
  );

  return (
    <PageShell crumbs={[{ label: "Alerts" }]} title="Alerts" updatedAt={rules.updatedAt} actions={actions} testId="alerts-page">
      {canWrite && editing && (
        <RuleForm
          // A fresh form for each rule (and for a new one).
          key={editing.rule?.id ?? "new"}
          rule={editing.rule}
          clusters={clusters.data}
          onCancel={() => setEditing(null)}
          onSaved={(rule) => {
            setEditing(null);
            setSaved({ name: rule.name, created: editing.rule === null });
            rules.refresh();
          }}
        />
      )}

      <section className="alerts-section" aria-labelledby="alert-rules-title" data-testid="alert-rules">
        <h2 id="alert-rules-title">Rules</h2>
        {rules.error && (
          <ErrorBanner
            error={rules.error}
            title={rules.data ? "Could not refresh the alert rules" : "Could not load the alert rules"}
            stale={rules.data !== undefined}
            onRetry={rules.refresh}
          />
        )}
        {rules.loading && <Loading label="Loading the alert rules…" rows={3} />}
        {rules.data && (
          <Stale when={!!rules.error}>
            <RulesTable
              rules={rules.data}
              canWrite={canWrite}
              onEdit={(rule) => open({ rule })}
              onChanged={({ deleted: gone }) => {
                if (gone) {
                  setSaved(null);
                  setDeleted(gone.name);
                  if (editing?.rule?.id === gone.id) setEditing(null);
                }
                rules.refresh();
                events.refresh();
              }}
            />
          </Stale>
        )}
      </section>

      <section className="alerts-section" aria-labelledby="alert-events-title" data-testid="alert-events">
        <h2 id="alert-events-title">Recent alerts</h2>
        {events.error && (
          <ErrorBanner
            error={events.error}
            title={events.data ? "Could not refresh the alerts" : "Could not load the alerts"}
            stale={events.data !== undefined}
            onRetry={events.refresh}
          />
        )}
        {events.loading && <Loading label="Loading the alerts…" rows={3} />}
        {events.data && (
          <Stale when={!!events.error}>
            <AlertEventsTable events={events.data} />
            {events.data.length >= ALERT_EVENTS_LIMIT && (
              <p className="field-hint">The newest {ALERT_EVENTS_LIMIT} alerts.</p>
            )}
          </Stale>
        )}
      </section>
    </PageShell>
  );
}

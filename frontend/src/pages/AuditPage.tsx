import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";
import { auditExportUrl } from "../api/endpoints";
import { clustersQuery } from "../api/queries";
import { AuditFilters } from "../components/audit/AuditFilters";
import { AuditTable } from "../components/audit/AuditTable";
import { RoleNotice } from "../components/CurrentUser";
import { ErrorBanner } from "../components/ErrorBanner";
import { loadStateOf, PageShell, Stale } from "../components/PageShell";
import { useAuditLog } from "../hooks/useAuditLog";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useQueryUpdate } from "../hooks/useQueryUpdate";
import { auditQueryOf, EMPTY_AUDIT_FILTER, isFiltered, readAuditFilter, type AuditFilter, type AuditFilterKey } from "../lib/audit";
import { formatCount, plural } from "../lib/format";

/** Typing in a text filter asks the server this long after the last key. */
export const AUDIT_TYPING_MS = 300;

/** `value`, `ms` after it last changed (at once the first time). */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * /audit — the audit log (operators; docs/governance.md): every change made through the console,
 * newest first, filtered by actor, action (exactly or a prefix ending in "."), cluster, target
 * (contained text), outcome and a time range, all kept in the URL query. The newest page is polled
 * every 30 s, "Load older" adds the page before the oldest shown; an entry opens under its line
 * (request and details as JSON, a before → after when it recorded both) and links to what it
 * changed where that is known. "Export CSV" downloads the filtered entries (the server's CSV).
 */
export function AuditPage() {
  useDocumentTitle("Audit log");
  const [params, update] = useQueryUpdate();
  const filter = readAuditFilter(params);
  // The text boxes ask the server once typing pauses; the selects and times at once.
  const actor = useSettled(filter.actor, AUDIT_TYPING_MS);
  const action = useSettled(filter.action, AUDIT_TYPING_MS);
  const target = useSettled(filter.target, AUDIT_TYPING_MS);
  const settled: AuditFilter = { ...filter, actor, action, target };
  const query = auditQueryOf(settled);
  const audit = useAuditLog(query);
  const load = loadStateOf(audit.newest);
  const clusters = useQuery({ ...clustersQuery(), refetchOnWindowFocus: false });
  const clusterNames = useMemo(() => (clusters.data ?? []).map((c) => c.name), [clusters.data]);

  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  const onToggle = useCallback(
    (id: number) =>
      setOpen((prev) => {
        const next = new Set(prev);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    [],
  );

  const onFilter = (changes: Partial<Record<AuditFilterKey, string | null>>) => {
    const next: Record<string, string | null> = {};
    for (const [key, value] of Object.entries(changes)) next[key] = value ?? null;
    update(next);
  };
  const clear = () => update(Object.fromEntries(Object.keys(EMPTY_AUDIT_FILTER).map((key) => [key, null])));

  // A filter whose first page failed shows nothing of the last filter's.
  const log = audit.switching && audit.newest.error ? null : audit.log;
  const entries = log?.entries ?? [];
  const filtered = isFiltered(filter);
  const exportUrl = auditExportUrl(auditQueryOf(filter));

  const actions = (
    <>
      <RoleNotice role="operator" testId="operator-only">
        Only operators and admins can read the audit log: the server refuses it to your role
      </RoleNotice>
      <AuditFilters filter={filter} clusters={clusterNames} onChange={onFilter} />
      <div className="toolbar">
        {log && (
          <span className="muted" data-testid="audit-count" data-count={entries.length}>
            {formatCount(entries.length)} {plural(entries.length, "entry", "entries")}
            {log.end ? (filtered ? " match" : "") : " shown, newest first"}
          </span>
        )}
        {filtered && (
          <button type="button" className="button button-small" onClick={clear} data-testid="audit-clear">
            Clear filters
          </button>
        )}
        <span className="toolbar-spacer" />
        <a
          className="button button-small"
          href={exportUrl}
          title="Every entry the filters select (up to 100,000), newest first, as CSV"
          data-testid="audit-export"
        >
          Export CSV
        </a>
      </div>
    </>
  );

  return (
    <PageShell
      crumbs={[{ label: "Audit log" }]}
      title="Audit log"
      updatedAt={audit.newest.updatedAt}
      actions={actions}
      {...load}
      loading={load.loading && !log}
      dimStale={false}
      what="the audit log"
      loadingLabel="Loading the audit log…"
      testId="audit-page"
    >
      {log && (
        <Stale when={load.stale || audit.switching}>
          <AuditTable
            entries={entries}
            open={open}
            onToggle={onToggle}
            empty={filtered ? "No entry matches these filters." : "Nothing was changed through the console yet."}
          />
          <div className="audit-more">
            {log.end ? (
              entries.length > 0 && (
                <span className="muted" data-testid="audit-end">
                  The oldest entry{filtered ? " that matches" : ""} is shown.
                </span>
              )
            ) : (
              <button
                type="button"
                className="button"
                onClick={audit.loadOlder}
                disabled={audit.loadingOlder || audit.switching}
                data-testid="audit-load-older"
              >
                {audit.loadingOlder ? "Loading…" : "Load older"}
              </button>
            )}
          </div>
          {audit.olderError && <ErrorBanner error={audit.olderError} title="Could not load older entries" onRetry={audit.loadOlder} />}
        </Stale>
      )}
    </PageShell>
  );
}

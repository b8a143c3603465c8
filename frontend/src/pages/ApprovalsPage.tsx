import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef } from "react";
import { approvalListQuery, approvalQuery } from "../api/queries";
import { ApprovalDetail } from "../components/approvals/ApprovalDetail";
import { ApprovalsTable } from "../components/approvals/ApprovalsTable";
import { useCurrentUser } from "../components/CurrentUser";
import { ErrorBanner } from "../components/ErrorBanner";
import { RowCount } from "../components/ListToolbar";
import { loadStateOf, PageShell, Stale } from "../components/PageShell";
import { APPROVALS_LIVE_POLL_MS, APPROVALS_POLL_MS, useApprovalSockets, useNow } from "../hooks/useApprovals";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { usePolledQuery } from "../hooks/usePolledQuery";
import { useQueryUpdate } from "../hooks/useQueryUpdate";
import { readableClusters, readApprovalsQuery } from "../lib/approvals";

/** "Expires in" and ages are redrawn this often. */
const CLOCK_MS = 15_000;

/**
 * /approvals — changes held on protected clusters for a second person (docs/governance.md): the
 * pending requests (or all, `?state=all`) of the clusters the user may read, newest first. A
 * request (`?id=N`) opens below the list: its summary, exact plan, reason, outcome, and Approve /
 * Reject for those who may decide it. Live: one socket per cluster pushes every request as it is
 * asked for and decided (merged into the list at once); the list is polled every 30 s while a
 * socket is not live, every 2 min while they all are.
 */
export function ApprovalsPage() {
  useDocumentTitle("Approvals");
  const { user } = useCurrentUser();
  const [params, update] = useQueryUpdate();
  const { all, id } = readApprovalsQuery(params);
  const clusters = useMemo(() => readableClusters(user), [user]);
  const live = useApprovalSockets(clusters);
  const list = usePolledQuery(approvalListQuery(all ? null : "pending"), live.live ? APPROVALS_LIVE_POLL_MS : APPROVALS_POLL_MS);
  const now = useNow(CLOCK_MS);

  const rows = useMemo(() => list.data ?? [], [list.data]);
  const fromList = id === null ? undefined : rows.find((a) => a.id === id);
  // A request not in the list shown (decided, while the pending ones are listed): asked by itself.
  const single = useQuery({ ...approvalQuery(id ?? 0), enabled: id !== null && list.data !== undefined && !fromList });
  const selected = fromList ?? (id !== null ? single.data : undefined);
  const load = loadStateOf(list);

  const detailBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (id !== null) detailBox.current?.scrollIntoView?.({ block: "nearest", behavior: "smooth" });
  }, [id, selected !== undefined]);

  const actions = (
    <div className="toolbar">
      <div className="segmented" role="group" aria-label="Which requests">
        <button type="button" aria-pressed={!all} onClick={() => update({ state: null })} data-testid="approvals-filter-pending">
          Pending
        </button>
        <button type="button" aria-pressed={all} onClick={() => update({ state: "all" })} data-testid="approvals-filter-all">
          All
        </button>
      </div>
      <span className="muted">
        Changes on protected clusters wait here until someone other than the requester, with the role, approves or rejects
        them.
      </span>
      <span className="toolbar-spacer" />
      {list.data && (
        <RowCount shown={rows.length} total={rows.length} noun={all ? "request" : "pending request"} testId="approvals-count" />
      )}
    </div>
  );

  return (
    <PageShell
      crumbs={[{ label: "Approvals" }]}
      title="Approvals"
      updatedAt={list.updatedAt}
      live={live}
      actions={actions}
      {...load}
      dimStale={false}
      what="the approval requests"
      loadingLabel="Loading approval requests…"
      testId="approvals-page"
    >
      {list.data && (
        <Stale when={load.stale}>
          <ApprovalsTable
            approvals={rows}
            selected={id}
            onSelect={(next) => update({ id: String(next) })}
            now={now}
            empty={
              all
                ? "No change was held for approval yet (only protected clusters hold them)."
                : "Nothing waits for approval."
            }
          />
        </Stale>
      )}
      <div ref={detailBox}>
        {selected ? (
          <ApprovalDetail key={selected.id} approval={selected} user={user} now={now} onClose={() => update({ id: null })} />
        ) : (
          id !== null &&
          single.error && <ErrorBanner error={single.error} title={`Could not load request #${id}`} onRetry={() => void single.refetch()} />
        )}
      </div>
    </PageShell>
  );
}

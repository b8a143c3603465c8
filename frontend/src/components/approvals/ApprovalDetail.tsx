import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Link } from "react-router-dom";
import { ApiError } from "../../api/client";
import { approveApproval, rejectApproval } from "../../api/endpoints";
import { offsetResetQuery } from "../../api/queries";
import { refetchNow } from "../../api/queryClient";
import { queryKeys } from "../../api/queryKeys";
import type { Approval, ApprovalState, CurrentUser, OffsetReset } from "../../api/types";
import { storeApproval } from "../../hooks/useApprovals";
import {
  actionLabel,
  approvalError,
  approvalRole,
  approvalTargetLink,
  canDecide,
  decideBlock,
  resetIdOf,
  shownState,
} from "../../lib/approvals";
import { formatJson } from "../../lib/audit";
import { isRecord } from "../../lib/isRecord";
import { scopeSummary, strategySummary } from "../../lib/resetPlans";
import { formatLocal } from "../../lib/time";
import { groupPath } from "../../navigation";
import { ConfirmDialog } from "../ConfirmDialog";
import { ErrorBanner } from "../ErrorBanner";
import { PlanTable, PlanTotals, ResultTable } from "../ResetTables";
import { StaleChanges } from "../resetWizard/StaleChanges";
import { ApprovalStateBadge, expiresIn } from "./ApprovalsTable";

const PLAN_TITLE: Record<ApprovalState, string> = {
  pending: "Plan: exactly what runs once approved",
  running: "Plan: what runs now",
  executed: "Plan: what ran",
  failed: "Plan: what was to run",
  rejected: "Plan: what would have run",
  expired: "Plan: what would have run",
};

/** "2026-07-01 09:30:00" in this browser's zone (the ISO text when it does not parse). */
function when(iso: string | null): string {
  if (!iso) return "—";
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : formatLocal(ms).slice(0, 19);
}

interface ApprovalDetailProps {
  approval: Approval;
  user: CurrentUser | null;
  now: number;
  onClose: () => void;
}

/**
 * One request: what runs (the summary, the exact stored plan as JSON, and for an offset reset the
 * preview's plan table), who asked and why, its outcome (a failure's error, with the partitions
 * that moved for plan_stale; an execution's result), and Approve (confirmed) / Reject with an
 * optional reason for those who may decide it: not its requester, and only with the change's role
 * on its cluster (the server refuses the others with 403, whose message shows here).
 */
export function ApprovalDetail({ approval, user, now, onClose }: ApprovalDetailProps) {
  const client = useQueryClient();
  const reasonId = useId();
  const [reason, setReason] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState<"approve" | "reject" | null>(null);
  const [error, setError] = useState<Error | null>(null);

  const state = shownState(approval, now);
  const link = approvalTargetLink(approval);
  const resetId = resetIdOf(approval);
  const failure = approval.state === "failed" ? approvalError(approval) : null;
  const block = decideBlock(user, approval, now);
  const decidable = canDecide(user, approval, now);
  const role = approvalRole(approval.action);
  const destructive = approval.action === "topic.delete" || approval.action === "acl.delete" || isUnclean(approval);
  // A refusal the request itself now records (plan_stale …) shows once, as its failure.
  const shownError =
    error && !(failure && error instanceof ApiError && error.code === failure.code) ? error : null;

  const decide = async (how: "approve" | "reject") => {
    setBusy(how);
    setError(null);
    try {
      const done = how === "approve" ? await approveApproval(approval.id, reason.trim()) : await rejectApproval(approval.id, reason.trim());
      storeApproval(client, done);
      setConfirming(false);
    } catch (err) {
      setConfirming(false);
      setError(err instanceof Error ? err : new Error(String(err)));
      // Refused or failed: the request may have moved on (failed, decided by someone else).
      void refetchNow(client, queryKeys.approvals());
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="approval-detail" aria-label={`Request #${approval.id}`} data-testid="approval-detail" data-id={approval.id} data-state={state}>
      <div className="approval-detail-head">
        <h2 className="approval-detail-title">
          Request #{approval.id}: {actionLabel(approval.action)} on <span className="mono">{approval.cluster}</span>{" "}
          <ApprovalStateBadge approval={approval} now={now} testId="approval-detail-state" />
        </h2>
        <button type="button" className="button button-small" onClick={onClose} data-testid="approval-close">
          Close
        </button>
      </div>
      <p className="approval-summary" data-testid="approval-summary">
        {approval.summary}
      </p>

      <dl className="facts approval-facts">
        <div>
          <dt>Action</dt>
          <dd className="mono">{approval.action}</dd>
        </div>
        <div>
          <dt>Target</dt>
          <dd className="mono">
            {link ? (
              <Link to={link.to} data-testid="approval-target-link">
                {approval.target || link.label}
              </Link>
            ) : (
              approval.target || "—"
            )}
          </dd>
        </div>
        <div>
          <dt>Requested by</dt>
          <dd className="mono" data-testid="approval-requested-by">
            {approval.requested_by}
          </dd>
        </div>
        <div>
          <dt>Asked</dt>
          <dd>{when(approval.created_at)}</dd>
        </div>
        {approval.state === "pending" ? (
          <div>
            <dt>Expires</dt>
            <dd title={when(approval.expires_at)}>{state === "expired" ? "expired" : `in ${expiresIn(approval, now)}`}</dd>
          </div>
        ) : (
          approval.decided_by && (
            <div>
              <dt>Decided by</dt>
              <dd data-testid="approval-decided-by">
                <span className="mono">{approval.decided_by}</span> at {when(approval.decided_at)}
              </dd>
            </div>
          )
        )}
        {state === "pending" && (
          <div>
            <dt>Needs</dt>
            <dd>the approval of another {role}</dd>
          </div>
        )}
      </dl>
      <p className="approval-reason" data-testid="approval-reason">
        <span className="approval-label">Reason:</span>{" "}
        {approval.reason ? approval.reason : <span className="muted">none given</span>}
        {approval.decision_reason && (
          <>
            <br />
            <span className="approval-label">Decision:</span> <span data-testid="approval-decision">{approval.decision_reason}</span>
          </>
        )}
      </p>

      {shownError && <ErrorBanner error={shownError} title="Not decided" />}
      {failure && <ApprovalFailure error={failure} />}
      {approval.state === "executed" && <ApprovalResult approval={approval} />}

      <h3 className="approval-section-title">{PLAN_TITLE[state]}</h3>
      {resetId !== null && approval.action === "offsets.reset.execute" && (
        <ResetPlanPreview id={resetId} cluster={approval.cluster} group={approval.target} />
      )}
      {resetId !== null && approval.action === "offsets.reset.undo" && (
        <p className="muted" data-testid="approval-undo-of">
          Restores the offsets group{" "}
          <Link to={groupPath(approval.cluster, approval.target)} className="mono">
            {approval.target}
          </Link>{" "}
          had before reset #{resetId}.
        </p>
      )}
      <p className="approval-label approval-json-label">The stored plan</p>
      <pre className="approval-json" data-testid="approval-plan">
        {formatJson(approval.plan) ?? "{}"}
      </pre>

      {state === "pending" &&
        (decidable ? (
          <div className="approval-decide" data-testid="approval-decide">
            <label htmlFor={reasonId} className="field-label">
              Reason for your decision (optional, kept with the request and in the audit log)
            </label>
            <div className="action-row">
              <input
                id={reasonId}
                className="input input-wide"
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                disabled={busy !== null}
                data-testid="approval-decision-reason"
              />
              <button
                type="button"
                className={destructive ? "button button-danger" : "button button-primary"}
                onClick={() => setConfirming(true)}
                disabled={busy !== null}
                data-testid="approval-approve"
              >
                Approve…
              </button>
              <button type="button" className="button" onClick={() => void decide("reject")} disabled={busy !== null} data-testid="approval-reject">
                {busy === "reject" ? "Rejecting…" : "Reject"}
              </button>
            </div>
          </div>
        ) : (
          block && (
            <p className="notice approval-decide-note" data-testid="approval-decide-note">
              {block}
            </p>
          )
        ))}

      {confirming && (
        <ConfirmDialog
          title={`Approve request #${approval.id}`}
          confirmLabel="Approve and run"
          tone={destructive ? "danger" : "primary"}
          busy={busy === "approve"}
          confirmTestId="approval-approve-confirm"
          onConfirm={() => void decide("approve")}
          onCancel={() => setConfirming(false)}
        >
          <p>{approval.summary}</p>
          <p>
            It runs now on cluster <strong>{approval.cluster}</strong>, as you, exactly as planned (asked by{" "}
            <strong>{approval.requested_by}</strong>). If what it was planned on has moved since, it is refused and nothing
            changes.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function isUnclean(approval: Approval): boolean {
  return approval.action === "leaders.elect" && isRecord(approval.plan) && approval.plan.election === "unclean";
}

/** The preview an offset-reset request executes: its plan table (GET offset-resets/{id}). */
function ResetPlanPreview({ id, cluster, group }: { id: number; cluster: string; group: string }) {
  const reset = useQuery({ ...offsetResetQuery(id), refetchOnWindowFocus: false });
  if (reset.error) return <ErrorBanner error={reset.error} title={`Could not load preview #${id}`} />;
  if (!reset.data) return <p className="muted">Loading the plan of preview #{id}…</p>;
  const preview = reset.data;
  return (
    <div className="approval-reset" data-testid="approval-reset" data-reset={id}>
      <p>
        Preview #{id} of group{" "}
        <Link to={groupPath(cluster, group)} className="mono" data-testid="approval-group-link">
          {group}
        </Link>
        : {strategySummary(preview.strategy)}, {scopeSummary(preview)}.
      </p>
      <PlanTotals plan={preview.plan} idPrefix="approval-" />
      <PlanTable plan={preview.plan} idPrefix="approval-" />
    </div>
  );
}

/** Why an approved request did not run: the error, and for plan_stale the partitions that moved. */
function ApprovalFailure({ error }: { error: ApiError }) {
  const { changes: _changes, ...rest } = error.details;
  const details = error.code === "plan_stale" ? formatJson(rest) : formatJson(error.details);
  return (
    <div className="approval-failure" data-testid="approval-failure" data-code={error.code}>
      <p className="notice notice-error" role="status">
        <strong>Approved, but not run:</strong> {error.message} <span className="error-banner-meta">{error.code}</span>
      </p>
      <StaleChanges error={error} />
      {details && <pre className="approval-json">{details}</pre>}
    </div>
  );
}

function isReset(value: unknown): value is OffsetReset {
  return isRecord(value) && typeof value.id === "number" && typeof value.state === "string" && Array.isArray(value.plan);
}

/** What the change answered once run: a reset's result table, or its answer as JSON. */
function ApprovalResult({ approval }: { approval: Approval }) {
  const result = approval.result;
  return (
    <div className="approval-result" data-testid="approval-result">
      <p className="notice notice-ok" role="status">
        <strong>Executed</strong> by <span className="mono">{approval.decided_by}</span> at {when(approval.decided_at)}, exactly as
        planned.
      </p>
      {isReset(result) ? (
        <ResultTable reset={result} testId="approval-result-reset" idPrefix="approval-" />
      ) : (
        formatJson(result) && <pre className="approval-json">{formatJson(result)}</pre>
      )}
    </div>
  );
}

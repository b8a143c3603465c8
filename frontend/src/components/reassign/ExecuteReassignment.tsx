import { useId } from "react";
import type { ExecuteReassignmentRequest, Plan } from "../../api/types";
import { formatBytes, formatCount, formatDuration, plural } from "../../lib/format";
import { formatThrottle, planCounts } from "../../lib/reassign";
import { ConfirmDialog } from "../ConfirmDialog";
import { Field } from "../Field";
import { FieldErrors } from "../FieldErrors";

interface ExecuteReassignmentProps {
  plan: Plan;
  /** What Execute sends (the preview's document, the throttle typed, the reason); null: not yet. */
  body: ExecuteReassignmentRequest | null;
  /** Why Execute is not offered (stale preview, a bad throttle…), or null. */
  blocked: string | null;
  reason: string;
  onReason: (reason: string) => void;
  reasonErrors: string[] | undefined;
  confirming: boolean;
  busy: boolean;
  onConfirm: () => void;
  onDismiss: () => void;
  onExecute: () => void;
}

/** The reason, then "Execute…" and a confirmation saying what moves, how much is copied and how fast. */
export function ExecuteReassignment(props: ExecuteReassignmentProps) {
  const { plan, body, blocked, reason, onReason, reasonErrors, confirming, busy, onConfirm, onDismiss, onExecute } = props;
  const id = useId();
  const counts = planCounts(plan.moves);
  const nothing = counts.moving === 0;
  return (
    <div className="reassign-execute">
      <Field label="Reason (kept with the reassignment and in the audit log)" htmlFor={id}>
        <input
          id={id}
          className="input input-wide"
          value={reason}
          maxLength={500}
          onChange={(event) => onReason(event.target.value)}
          placeholder="e.g. drain broker 1 before its disk is replaced"
          data-testid="reassign-reason"
        />
        <FieldErrors messages={reasonErrors} testId="reassign-error-reason" />
      </Field>
      <div className="action-row">
        <button
          type="button"
          className="button button-danger"
          onClick={onConfirm}
          disabled={body === null || blocked !== null || nothing || busy}
          data-testid="reassign-execute"
        >
          Execute…
        </button>
        {(blocked ?? (nothing ? "Nothing moves: every partition keeps its replicas." : null)) && (
          <span className="muted" data-testid="reassign-execute-blocked">
            {blocked ?? "Nothing moves: every partition keeps its replicas."}
          </span>
        )}
      </div>
      {confirming && body && (
        <ConfirmDialog
          title="Start the reassignment?"
          confirmLabel="Execute"
          confirmTestId="reassign-confirm"
          busy={busy}
          onConfirm={onExecute}
          onCancel={onDismiss}
        >
          <ExecuteSummary plan={plan} body={body} />
        </ConfirmDialog>
      )}
    </div>
  );
}

function ExecuteSummary({ plan, body }: { plan: Plan; body: ExecuteReassignmentRequest }) {
  const counts = planCounts(plan.moves);
  const throttle = body.throttle_bytes_per_s;
  // The preview's estimate holds for the throttle it was made at.
  const seconds = throttle !== null && plan.throttle_bytes_per_s === throttle ? plan.estimated_seconds : null;
  return (
    <div data-testid="reassign-confirm-summary">
      <p>
        Kafka will move <strong>{formatCount(counts.moving)}</strong> {plural(counts.moving, "partition")} of{" "}
        {formatCount(counts.topics)} {plural(counts.topics, "topic")}, copying <strong>{formatBytes(plan.total_bytes)}</strong>
        {throttle === null ? (
          <>
            {" "}
            with <strong>no throttle</strong>: it may saturate the brokers&apos; network.
          </>
        ) : (
          <>
            {" "}
            at most <strong>{formatThrottle(throttle)}</strong> per broker
            {seconds !== null && <>, about {formatDuration(seconds)}</>}.
          </>
        )}
      </p>
      <p className="muted">
        The progress page follows it; you can change the throttle or cancel it there. The rollback plan can be downloaded
        first.
      </p>
      {body.reason && (
        <p>
          Reason: <em>{body.reason}</em>
        </p>
      )}
    </div>
  );
}

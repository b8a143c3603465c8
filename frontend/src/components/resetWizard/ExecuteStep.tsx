import { formatCount, plural } from "../../lib/format";
import { isGroupActive } from "../../lib/groupStates";
import { ApprovalNotice } from "../ApprovalNotice";
import { ErrorBanner } from "../ErrorBanner";
import { ResultStep } from "./ResultStep";
import { StaleChanges } from "./StaleChanges";
import type { ResetWizardState } from "./useResetWizard";
import { WizardStep } from "./WizardStep";

/**
 * Confirm and execute the preview (step 5) of the reset wizard: the group id typed exactly, then
 * POST offset-resets/{preview id}/execute. A 409 group_active shows in a red block, plan_stale
 * with what changed and "Preview again", anything else in a banner. Once executed: ResultStep. On a
 * protected cluster executing makes a request for a second operator: its notice, nothing executed.
 */
export function ExecuteStep({ w }: { w: ResetWizardState }) {
  const { executed, failure, group, groupId, members, requested, startOver } = w;
  return (
    <WizardStep number={5} title="Execute" className="step-danger">
      {members > 0 && !executed && !requested && (
        <p className="notice notice-warn" data-testid="reset-active-warning">
          The group has {members} running {plural(members, "member")} (state {group.state}). Kafka refuses to change
          the offsets of an active group: stop every consumer of <strong className="mono">{groupId}</strong> first.
          You can preview meanwhile.
        </p>
      )}
      {failure && isGroupActive(failure.error) && (
        <div className="blocked" role="alert" data-testid="reset-blocked">
          <strong>Not executed: the group is active.</strong>
          <p>{failure.error.message}</p>
          <p className="muted">
            Stop every consumer of this group, wait until its state is Empty, then execute again. No offset was
            changed.
          </p>
        </div>
      )}
      {requested ? (
        <div data-testid="reset-requested" data-approval={requested.id}>
          <ApprovalNotice approval={requested} />
          <div className="action-row wizard-foot">
            <button type="button" className="button" onClick={startOver} data-testid="reset-again">
              Start a new reset
            </button>
          </div>
        </div>
      ) : executed ? (
        <ResultStep w={w} executed={executed} />
      ) : (
        <ExecuteForm w={w} />
      )}
    </WizardStep>
  );
}

function ExecuteForm({ w }: { w: ResetWizardState }) {
  const { bannerFailure, busy, canExecute, confirmText, executeHint, groupId, ids, onExecute, preview, previewAgain, previewCurrent, setConfirmText } =
    w;
  const partitions = preview?.reset.plan.length ?? 0;
  return (
    <form
      className="execute-form"
      onSubmit={(event) => {
        event.preventDefault();
        void onExecute();
      }}
    >
      <label htmlFor={ids.confirm} className="field-label">
        Type <code className="confirm-expected">{groupId}</code> to confirm
      </label>
      <div className="action-row">
        <input
          id={ids.confirm}
          className="input mono confirm-input"
          value={confirmText}
          onChange={(event) => setConfirmText(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          disabled={busy === "execute"}
          data-testid="confirm-group-input"
        />
        <button type="submit" className="button button-danger" disabled={!canExecute} data-testid="reset-execute">
          {busy === "execute"
            ? "Executing…"
            : preview && previewCurrent
              ? `Execute preview #${preview.reset.id} on ${formatCount(partitions)} ${plural(partitions, "partition")}`
              : "Execute"}
        </button>
      </div>
      {executeHint && (
        <p className="field-hint" data-testid="execute-hint">
          {executeHint}
        </p>
      )}
      {bannerFailure?.action === "execute" && (
        <>
          <ErrorBanner error={bannerFailure.error} title="The reset was not executed" />
          <StaleChanges error={bannerFailure.error} busy={busy !== null} onPreviewAgain={previewAgain} />
        </>
      )}
    </form>
  );
}

import { formatCount, plural } from "../../lib/format";
import { isGroupActive } from "../../lib/groups";
import { ErrorBanner } from "../ErrorBanner";
import { StaleChanges } from "../StaleChanges";
import { ResultTable, UndoError } from "../ResetTables";
import type { ResetWizardState } from "./useResetWizard";

/** Confirm, execute, see the result, undo (step 5) of the reset wizard. */
export function ExecuteStep({ w }: { w: ResetWizardState }) {
  const {
    bannerFailure,
    busy,
    canExecute,
    confirmText,
    executeHint,
    executed,
    failure,
    group,
    groupId,
    ids,
    members,
    onExecute,
    onUndo,
    preview,
    previewCurrent,
    setConfirmText,
    setUndoReason,
    startOver,
    undoError,
    undoReason,
    undone,
  } = w;
  return (
    <fieldset className="wizard-step step-danger">
      <legend className="step-title">
        <span className="step-number">5</span> Execute
      </legend>
      {members > 0 && !executed && (
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
      {!executed ? (
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
                  ? `Execute on ${formatCount(preview.reset.plan.length)} ${plural(preview.reset.plan.length, "partition")}`
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
              <StaleChanges error={bannerFailure.error} onPreviewAgain={startOver} />
            </>
          )}
        </form>
      ) : (
        <div data-testid="reset-executed">
          <ResultTable reset={executed} testId="reset-result" />
          {executed.state !== "failed" && !undone && (
            <div className="undo-box">
              <label htmlFor={ids.undo} className="field-label">
                Undo: restore the offsets from before reset #{executed.id}
              </label>
              <div className="action-row">
                <input
                  id={ids.undo}
                  className="input undo-reason"
                  value={undoReason}
                  onChange={(event) => setUndoReason(event.target.value)}
                  aria-label="Reason for the undo"
                  data-testid="undo-reason"
                />
                <button
                  type="button"
                  className="button button-danger-outline"
                  onClick={() => void onUndo()}
                  disabled={busy !== null || !undoReason.trim()}
                  data-testid="reset-undo"
                >
                  {busy === "undo" ? "Undoing…" : "Undo"}
                </button>
              </div>
              {undoError && <UndoError error={undoError} />}
            </div>
          )}
          {undone && <ResultTable reset={undone} testId="undo-result" idPrefix="undo-" />}
          <div className="action-row wizard-foot">
            <button type="button" className="button" onClick={startOver} data-testid="reset-again">
              Start a new reset
            </button>
          </div>
        </div>
      )}
    </fieldset>
  );
}

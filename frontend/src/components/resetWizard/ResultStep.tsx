import type { OffsetReset } from "../../api/types";
import { ResultTable, UndoError, UndoReasonInput } from "../ResetTables";
import type { ResetWizardState } from "./useResetWizard";

/**
 * The outcome of the execution (every partition, ✓ or its error), its undo (with a reason,
 * prefilled "Undo of reset #id") and the undo's outcome, then "Start a new reset".
 */
export function ResultStep({ w, executed }: { w: ResetWizardState; executed: OffsetReset }) {
  const { busy, ids, onUndo, setUndoReason, startOver, undoError, undoReason, undone } = w;
  return (
    <div data-testid="reset-executed">
      <ResultTable reset={executed} testId="reset-result" />
      {executed.state !== "failed" && !undone && (
        <div className="undo-box">
          <label htmlFor={ids.undo} className="field-label">
            Undo: restore the offsets from before reset #{executed.id}
          </label>
          <div className="action-row">
            <UndoReasonInput id={ids.undo} value={undoReason} onChange={setUndoReason} testId="undo-reason" />
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
  );
}

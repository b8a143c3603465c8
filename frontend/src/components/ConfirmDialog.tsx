import { useEffect, useId, useRef, useState, type ReactNode } from "react";

interface ConfirmDialogProps {
  title: string;
  /** What will happen, shown above the input. */
  children: ReactNode;
  /** The text the user must type exactly (e.g. the topic name); without it the confirm button is
   * enabled at once (for actions that are easy to redo, such as cancelling a job). */
  expected?: string;
  confirmLabel: string;
  /** The label of the button that closes the dialog (default "Cancel"). */
  dismissLabel?: string;
  /** True while the action runs: the buttons are disabled. */
  busy?: boolean;
  /** Shown under the input when the action failed. */
  error?: Error | null;
  /** "primary" for an action that destroys nothing (e.g. making a model active): a blue button. */
  tone?: "danger" | "primary";
  /** Test ids of the confirm button (default "confirm-button") and of the error. */
  confirmTestId?: string;
  errorTestId?: string;
  /** Room for a table (e.g. the bindings a delete removes): up to 60rem instead of 32rem. */
  wide?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A modal for destructive (or otherwise weighty) actions: the confirm button enables only once the
 * input holds exactly `expected` (case and whitespace count), or at once when nothing
 * is expected. Escape or Cancel closes.
 */
export function ConfirmDialog({
  title,
  children,
  expected,
  confirmLabel,
  dismissLabel = "Cancel",
  busy = false,
  error,
  tone = "danger",
  confirmTestId = "confirm-button",
  errorTestId,
  wide = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const [typed, setTyped] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const dismiss = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const inputId = useId();
  const matches = expected === undefined || typed === expected;

  useEffect(() => {
    // A field of the caller's that took the focus (autoFocus, e.g. a reason) keeps it.
    if (dialog.current?.contains(document.activeElement)) return;
    // Without an input, the safe choice has the focus: Enter does not confirm by accident.
    (input.current ?? dismiss.current)?.focus();
  }, []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !busy) onCancel();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [busy, onCancel]);

  return (
    <div className="modal-backdrop">
      <div
        ref={dialog}
        className={`modal modal-${tone}${wide ? " modal-wide" : ""}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="confirm-dialog"
      >
        <h2 id={titleId} className="modal-title">
          {title}
        </h2>
        <div className="modal-body">{children}</div>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (matches && !busy) onConfirm();
          }}
        >
          {expected !== undefined && (
            <>
              <label htmlFor={inputId} className="field-label">
                Type <code className="confirm-expected">{expected}</code> to confirm
              </label>
              <input
                id={inputId}
                ref={input}
                className="input input-wide mono"
                value={typed}
                onChange={(event) => setTyped(event.target.value)}
                autoComplete="off"
                spellCheck={false}
                disabled={busy}
                data-testid="confirm-input"
              />
            </>
          )}
          {error && (
            <p className="field-error" role="alert" data-testid={errorTestId}>
              {error.message}
            </p>
          )}
          <div className="modal-actions">
            <button type="button" className="button" ref={dismiss} onClick={onCancel} disabled={busy} data-testid="confirm-dismiss">
              {dismissLabel}
            </button>
            <button
              type="submit"
              className={`button button-${tone}`}
              disabled={!matches || busy}
              data-testid={confirmTestId}
            >
              {busy ? "Working…" : confirmLabel}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}

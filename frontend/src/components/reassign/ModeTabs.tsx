import { REASSIGN_MODES, type ReassignMode } from "../../lib/reassign";

/** The three ways to plan, as a segmented choice; the chosen one's meaning under it. */
export function ModeTabs({ mode, onMode }: { mode: ReassignMode; onMode: (mode: ReassignMode) => void }) {
  const chosen = REASSIGN_MODES.find((m) => m.mode === mode);
  return (
    <div className="field">
      <div className="segmented" role="group" aria-label="How to plan the reassignment">
        {REASSIGN_MODES.map((m) => (
          <button
            key={m.mode}
            type="button"
            aria-pressed={m.mode === mode}
            onClick={() => onMode(m.mode)}
            data-testid={`reassign-mode-${m.mode}`}
          >
            {m.label}
          </button>
        ))}
      </div>
      {chosen && <p className="field-hint">{chosen.help}</p>}
    </div>
  );
}

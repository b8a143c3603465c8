import { useEffect, useId } from "react";
import type { ConfigEntry } from "../../api/types";
import type { ConfigLevel } from "../../lib/brokerConfigs";
import { humanConfigValue } from "../../lib/configValues";
import { Field } from "../Field";
import { FieldErrors } from "../FieldErrors";

interface BrokerConfigEditorProps {
  entry: ConfigEntry;
  brokerId: number;
  /** The new value as typed, and where to set it (controlled: they outlive a refused save). */
  value: string;
  level: ConfigLevel;
  /** The server's refusal of the last save, beside the value. */
  errors: string[] | null;
  onValue: (value: string) => void;
  onLevel: (level: ConfigLevel) => void;
  /** Asks for the confirmation (nothing is sent yet). */
  onSave: () => void;
  onCancel: () => void;
}

/**
 * The dialog to change one broker config: the new value (a sensitive one typed blind, never
 * prefilled) and its level, this broker or every broker (the cluster-wide default). Escape or
 * Cancel closes it.
 */
export function BrokerConfigEditor({ entry, brokerId, value, level, errors, onValue, onLevel, onSave, onCancel }: BrokerConfigEditorProps) {
  const titleId = useId();
  const inputId = useId();
  const errorId = useId();
  const levelName = useId();
  const empty = value.trim() === "";
  const human = entry.sensitive ? null : humanConfigValue(entry.name, value);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onCancel();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [onCancel]);

  return (
    <div className="modal-backdrop">
      <div className="modal modal-primary" role="dialog" aria-modal="true" aria-labelledby={titleId} data-testid="broker-config-editor">
        <h2 id={titleId} className="modal-title">
          Change <span className="mono">{entry.name}</span>
        </h2>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (!empty) onSave();
          }}
        >
          <Field label="New value" htmlFor={inputId}>
            <input
              id={inputId}
              type={entry.sensitive ? "password" : "text"}
              className="input input-wide mono"
              value={value}
              onChange={(event) => onValue(event.target.value)}
              autoFocus
              autoComplete={entry.sensitive ? "new-password" : "off"}
              spellCheck={false}
              aria-invalid={errors !== null}
              aria-describedby={errors ? errorId : undefined}
              data-testid="broker-config-value"
            />
            {human && (
              <p className="field-hint" data-testid="broker-config-value-hint">
                = {human.text}
              </p>
            )}
            {entry.sensitive && <p className="field-hint">Sensitive: the current value is never shown; type the new one.</p>}
            <FieldErrors id={errorId} messages={errors ?? undefined} testId="broker-config-error" />
          </Field>
          <fieldset className="field">
            <legend className="field-label">Set it on</legend>
            <div>
              <label className="checkbox">
                <input
                  type="radio"
                  name={levelName}
                  checked={level === "broker"}
                  onChange={() => onLevel("broker")}
                  data-testid="broker-config-level-broker"
                />
                this broker (broker {brokerId})
              </label>
            </div>
            <div>
              <label className="checkbox">
                <input
                  type="radio"
                  name={levelName}
                  checked={level === "cluster"}
                  onChange={() => onLevel("cluster")}
                  data-testid="broker-config-level-cluster"
                />
                all brokers (cluster-wide default)
              </label>
            </div>
          </fieldset>
          <div className="modal-actions">
            <button type="button" className="button" onClick={onCancel} data-testid="broker-config-cancel">
              Cancel
            </button>
            <button type="submit" className="button button-primary" disabled={empty} data-testid="broker-config-save">
              Save…
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}

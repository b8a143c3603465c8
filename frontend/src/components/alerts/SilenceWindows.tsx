import type { ReactNode } from "react";
import type { SilenceRow, WallInZone } from "../../lib/alertRules";
import { DateTimeInput } from "../resetWizard/DateTimeInput";
import { FieldErrors } from "../FieldErrors";

interface SilenceWindowsProps {
  rows: SilenceRow[];
  /** Messages by row (`silence-<index>`) and for the list as a whole (`silences`). */
  errors: Record<string, ReactNode[] | undefined>;
  onChange: (id: number, change: Partial<Pick<SilenceRow, "starts" | "ends">>) => void;
  onAdd: () => void;
  onRemove: (id: number) => void;
}

/**
 * The rule's silence windows (no alert is sent inside one): a row each, its start and end typed
 * in an explicit zone (DateTimeInput), the server's or the browser's problems beside the row.
 */
export function SilenceWindows({ rows, errors, onChange, onAdd, onRemove }: SilenceWindowsProps) {
  return (
    <fieldset className="field" data-testid="rule-silences">
      <legend className="field-label">Silence windows</legend>
      {rows.length === 0 && <p className="field-hint">None: alerts are sent at any time.</p>}
      {rows.map((row, index) => {
        const invalid = !!errors[`silence-${index}`];
        const edge = (which: "starts" | "ends", label: string) => (
          <DateTimeInput
            form={row[which]}
            set={(change: Partial<WallInZone>) => onChange(row.id, { [which]: { ...row[which], ...change } })}
            invalid={invalid}
            testId={`rule-silence-${index}-${which}`}
            label={label}
            hint={null}
            future={null}
            quick="future"
          />
        );
        return (
          <div key={row.id} className="silence-row" data-testid={`rule-silence-${index}`}>
            <div className="silence-row-head">
              <strong>Window {index + 1}</strong>
              <button
                type="button"
                className="button button-small"
                onClick={() => onRemove(row.id)}
                aria-label={`Remove silence window ${index + 1}`}
                data-testid={`rule-silence-remove-${index}`}
              >
                Remove
              </button>
            </div>
            {edge("starts", "Starts")}
            {edge("ends", "Ends")}
            <FieldErrors messages={errors[`silence-${index}`]} testId={`field-error-silence-${index}`} />
          </div>
        );
      })}
      <button type="button" className="button button-small" onClick={onAdd} data-testid="rule-silence-add">
        Add silence window
      </button>
      <FieldErrors messages={errors.silences} testId="field-error-silences" />
    </fieldset>
  );
}

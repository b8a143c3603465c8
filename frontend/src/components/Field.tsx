import type { ReactNode } from "react";

/** A form field: its label, then the control labelled (`children`, its id `htmlFor`) with any
 * hint and error under it. */
export function Field({ label, htmlFor, children }: { label: ReactNode; htmlFor: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={htmlFor} className="field-label">
        {label}
      </label>
      {children}
    </div>
  );
}

interface WholeNumberInputProps {
  id: string;
  /** As typed: the form checks it. */
  value: string;
  onChange: (value: string) => void;
  invalid: boolean;
  testId: string;
  min?: number;
  /** Its width: input-number (a count) or input-offset (an offset, up to 19 digits). */
  width: "input-number" | "input-offset";
}

/** A whole number's input (a count, an offset, a shift). */
export function WholeNumberInput({ id, value, onChange, invalid, testId, min, width }: WholeNumberInputProps) {
  return (
    <input
      id={id}
      type="number"
      min={min}
      step={1}
      className={`input ${width}`}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      aria-invalid={invalid}
      data-testid={testId}
    />
  );
}

import { useId } from "react";
import { formatCount, plural } from "../../lib/format";
import type { ResetForm } from "../../lib/resetForm";
import { DURATION_PRESETS } from "../../lib/resetStrategies";
import { describeDuration, formatLocal, formatUtc, parseDuration } from "../../lib/time";
import { Field, WholeNumberInput } from "../Field";
import { DateTimeInput } from "./DateTimeInput";

export interface StrategyInputProps {
  form: ResetForm;
  set: (change: Partial<ResetForm>) => void;
  invalid: boolean;
}

/** The input of the chosen strategy: a number, a date-time and zone, a duration or CSV (none for the rest). */
export function StrategyInput({ form, set, invalid }: StrategyInputProps) {
  const id = useId();
  /** The input of to_offset or shift_by: the form's `offset` or `shift`, as typed. */
  const numberInput = (field: "offset" | "shift") => (
    <WholeNumberInput
      id={id}
      width="input-offset"
      value={form[field]}
      onChange={(value) => set({ [field]: value })}
      invalid={invalid}
      testId={`strategy-${field}`}
    />
  );
  switch (form.strategy) {
    case "to_offset":
      return (
        <Field label="Offset" htmlFor={id}>
          {numberInput("offset")}
          <p className="field-hint">The same offset on every partition in scope; below log start or above log end it is clamped.</p>
        </Field>
      );
    case "shift_by": {
      const n = Number(form.shift);
      return (
        <Field label="Shift by N records" htmlFor={id}>
          {numberInput("shift")}
          <p className="field-hint" data-testid="strategy-shift-meaning">
            {form.shift.trim() && Number.isInteger(n) && n !== 0
              ? n < 0
                ? `Goes back ${formatCount(-n)} ${plural(-n, "record")} on each partition: they are read again.`
                : `Goes forward ${formatCount(n)} ${plural(n, "record")} on each partition: they are skipped.`
              : "Negative goes back (re-read), positive goes forward (skip)."}
          </p>
        </Field>
      );
    }
    case "to_datetime":
      return <DateTimeInput form={form} set={set} invalid={invalid} />;
    case "by_duration": {
      const ms = parseDuration(form.duration.trim().toUpperCase());
      return (
        <Field label="Duration back from now (ISO-8601)" htmlFor={id}>
          <div className="action-row">
            <input
              id={id}
              className="input mono input-duration"
              placeholder="PT15M"
              value={form.duration}
              onChange={(event) => set({ duration: event.target.value })}
              aria-invalid={invalid}
              data-testid="strategy-duration"
            />
            {DURATION_PRESETS.map(([iso, label]) => (
              <button
                key={iso}
                type="button"
                className={form.duration.trim().toUpperCase() === iso ? "button button-small active-choice" : "button button-small"}
                onClick={() => set({ duration: iso })}
                data-testid={`duration-${iso}`}
              >
                {label}
              </button>
            ))}
          </div>
          <p className="field-hint">
            <code>PT15M</code> = 15 minutes, <code>PT6H</code> = 6 hours, <code>P1D</code> = 1 day,{" "}
            <code>P2DT3H30M</code> = 2 days 3 hours 30 minutes. Weeks and months are not accepted.
          </p>
          {ms !== null && (
            <p className="strategy-meaning" data-testid="strategy-duration-meaning">
              = {describeDuration(ms)}
              {ms >= 0 ? (
                <>
                  : back to about <strong>{formatUtc(Date.now() - ms)}</strong> ({formatLocal(Date.now() - ms)} local). The
                  server takes “now” when it plans and again when it executes.
                </>
              ) : (
                <>: a negative duration points to the future, so every partition goes to the log end.</>
              )}
            </p>
          )}
        </Field>
      );
    }
    case "from_file":
      return (
        <Field label="CSV: topic,partition,offset per line (no header)" htmlFor={id}>
          <textarea
            id={id}
            className="input input-wide mono"
            rows={6}
            placeholder={"orders,0,1200\norders,1,1187"}
            value={form.csv}
            onChange={(event) => set({ csv: event.target.value })}
            aria-invalid={invalid}
            spellCheck={false}
            data-testid="strategy-csv"
          />
          <div className="action-row">
            <label className="button button-small file-button">
              Load a file…
              <input
                type="file"
                accept=".csv,text/csv,text/plain"
                className="visually-hidden"
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  if (file) void file.text().then((text) => set({ csv: text }));
                  event.target.value = "";
                }}
                data-testid="strategy-csv-file"
              />
            </label>
            <span className="field-hint">
              The format of “Export offsets.csv”; <code>group,topic,partition,offset</code> lines work too (other groups&apos;
              rows are skipped).
            </span>
          </div>
        </Field>
      );
    default:
      return null;
  }
}

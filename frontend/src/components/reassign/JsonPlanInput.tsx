import { useId } from "react";
import { Field } from "../Field";
import { FieldErrors } from "../FieldErrors";

interface JsonPlanInputProps {
  json: string;
  onJson: (text: string) => void;
  errors: string[] | undefined;
}

/** A plan in kafka-reassign-partitions.sh's JSON, typed, pasted or loaded from a file (which fills the box). */
export function JsonPlanInput({ json, onJson, errors }: JsonPlanInputProps) {
  const id = useId();
  const errorId = useId();
  return (
    <Field label="Plan (kafka-reassign-partitions.sh's JSON)" htmlFor={id}>
      <textarea
        id={id}
        className="input input-wide mono reassign-json"
        rows={12}
        value={json}
        onChange={(event) => onJson(event.target.value)}
        spellCheck={false}
        placeholder={'{"version": 1, "partitions": [{"topic": "orders", "partition": 0, "replicas": [2, 3], "log_dirs": ["any", "any"]}]}'}
        aria-invalid={!!errors}
        aria-describedby={errors ? errorId : undefined}
        data-testid="reassign-json"
      />
      <div className="action-row">
        <label className="button button-small file-button">
          Load a file…
          <input
            type="file"
            accept=".json,application/json,text/plain"
            className="visually-hidden"
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void file.text().then(onJson);
              event.target.value = "";
            }}
            data-testid="reassign-json-file"
          />
        </label>
        <span className="field-hint">What --generate printed, a plan downloaded here, or one written by hand.</span>
      </div>
      <FieldErrors id={errorId} messages={errors} testId="reassign-error-plan" />
    </Field>
  );
}

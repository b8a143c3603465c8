import { type ReactNode } from "react";
import { csvErrorLine } from "../../lib/resetForm";

/** A server error shown next to its field, with details.field small. */
export function FieldError({
  error,
  field,
  testId,
  children,
}: {
  error: Error | null;
  field?: string;
  testId: string;
  children?: ReactNode;
}) {
  if (!error) return null;
  return (
    <div className="field-error" role="alert" data-testid={testId} data-field={field}>
      {error.message}
      {children}
    </div>
  );
}

/** The CSV line a strategy.csv error names (details.line), quoted. */
export function CsvLine({ error, csv }: { error: Error | null; csv: string }) {
  const line = csvErrorLine(error, csv);
  if (!line) return null;
  return (
    <div className="csv-line" data-testid="csv-error-line">
      line {line.number}: <code>{line.text || "(empty)"}</code>
    </div>
  );
}


import { useId } from "react";
import { formatCount } from "../../lib/format";
import { parseThrottle } from "../../lib/reassign";
import { Field } from "../Field";
import { FieldErrors } from "../FieldErrors";

interface ThrottleInputProps {
  /** MiB/s as typed; "" no throttle. */
  value: string;
  onChange: (value: string) => void;
  /** The server's refusal of it. */
  errors: string[] | undefined;
}

/** The replication throttle in MiB/s per broker (empty: none, with a warning); checked as it is typed. */
export function ThrottleInput({ value, onChange, errors }: ThrottleInputProps) {
  const id = useId();
  const parsed = parseThrottle(value);
  const messages = parsed.ok ? errors : [parsed.error];
  return (
    <Field label="Throttle (MiB/s per broker)" htmlFor={id}>
      <input
        id={id}
        className="input input-number"
        inputMode="decimal"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder="none"
        autoComplete="off"
        aria-invalid={!!messages}
        data-testid="reassign-throttle"
      />
      {parsed.ok && parsed.value !== null && (
        <p className="field-hint" data-testid="reassign-throttle-bytes">
          = {formatCount(parsed.value)} bytes/s, the most each broker of the move sends and receives for it.
        </p>
      )}
      {parsed.ok && parsed.value === null && (
        <p className="notice notice-warn" data-testid="reassign-throttle-warning">
          No throttle: copying the replicas may saturate the brokers&apos; network and disks, and slow down producers and
          consumers.
        </p>
      )}
      <FieldErrors messages={messages} testId="reassign-error-throttle_bytes_per_s" />
    </Field>
  );
}

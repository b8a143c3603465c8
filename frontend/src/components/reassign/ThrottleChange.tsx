import { useId, useState, type FormEvent } from "react";
import { patchReassignmentThrottle } from "../../api/endpoints";
import type { Reassignment } from "../../api/types";
import { fieldProblems } from "../../lib/fieldErrors";
import { formatThrottle, parseRequiredThrottle, throttleInputText } from "../../lib/reassign";
import { ErrorBanner } from "../ErrorBanner";
import { FieldErrors } from "../FieldErrors";

interface ThrottleChangeProps {
  cluster: string;
  reassignment: Pick<Reassignment, "id" | "throttle_bytes_per_s">;
  /** The reassignment as the change answered it. */
  onChanged: (reassignment: Reassignment) => void;
}

/** A running reassignment's new throttle in MiB/s (PATCH): set at once on every broker of the move. */
export function ThrottleChange({ cluster, reassignment, onChanged }: ThrottleChangeProps) {
  const id = useId();
  const [text, setText] = useState(() => throttleInputText(reassignment.throttle_bytes_per_s));
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[] | null>(null);
  const [failure, setFailure] = useState<Error | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    setFailure(null);
    const parsed = parseRequiredThrottle(text);
    if (!parsed.ok) {
      setErrors([parsed.error]);
      return;
    }
    setBusy(true);
    try {
      const answer = await patchReassignmentThrottle(cluster, reassignment.id, parsed.value);
      onChanged(answer);
      setErrors(null);
      setDone(`Throttle now ${formatThrottle(answer.throttle_bytes_per_s)} per broker.`);
    } catch (err) {
      const problems = fieldProblems(err);
      if (problems.length > 0) setErrors(problems.map((p) => p.message));
      else setFailure(err instanceof Error ? err : new Error(String(err)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="reassign-throttle-change">
      <form className="inline-form" onSubmit={(event) => void onSubmit(event)} noValidate>
        <label htmlFor={id} className="field-label">
          Throttle (MiB/s per broker)
        </label>
        <input
          id={id}
          className="input input-number"
          inputMode="decimal"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setErrors(null);
          }}
          placeholder="none"
          aria-invalid={errors !== null}
          disabled={busy}
          data-testid="reassign-throttle-change"
        />
        <button type="submit" className="button" disabled={busy} data-testid="reassign-throttle-apply">
          {busy ? "Changing…" : "Change throttle"}
        </button>
        {done && (
          <span className="notice-inline" role="status" data-testid="reassign-throttle-changed">
            {done}
          </span>
        )}
      </form>
      <FieldErrors messages={errors ?? undefined} testId="reassign-throttle-error" />
      {failure && <ErrorBanner error={failure} title="Could not change the throttle" />}
    </div>
  );
}

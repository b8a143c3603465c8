import { useRef, useState, type Dispatch, type RefObject, type SetStateAction } from "react";
import { upsertScramUser } from "../../api/endpoints";
import type { ScramMechanism, ScramUser } from "../../api/types";
import { formatCount } from "../../lib/format";
import {
  checkScramForm,
  EMPTY_SCRAM_FORM,
  hasCredential,
  MAX_ITERATIONS,
  MIN_ITERATIONS,
  placeScramErrors,
  SCRAM_MECHANISMS,
  scramUpsertBody,
  type ScramFormErrors,
  type ScramFormField,
  type ScramFormValues,
} from "../../lib/scramUsers";
import { ErrorBanner } from "../ErrorBanner";
import { Field } from "../Field";
import { FieldErrors } from "../FieldErrors";

/** What the last save did (no password in it). */
interface SavedCredential {
  user: string;
  mechanism: ScramMechanism;
  iterations: number;
  rotated: boolean;
}

interface ScramUserFormProps {
  cluster: string;
  values: ScramFormValues;
  onChange: Dispatch<SetStateAction<ScramFormValues>>;
  /** The users listed now: tells a create from a rotation. */
  users: readonly ScramUser[] | undefined;
  /** The password input (the page focuses it for "Rotate password"). */
  passwordRef: RefObject<HTMLInputElement | null>;
  onSaved: (answer: ScramUser) => void;
}

/**
 * Create a SCRAM user's credential or rotate its password (PUT scram-users/{user}): user,
 * mechanism, password, iterations. The password lives in its input only: read when sent, the
 * input emptied at once whatever the answer, never kept in React state. A 400 beside its field,
 * the rest in a banner.
 */
export function ScramUserForm({ cluster, values, onChange, users, passwordRef, onSaved }: ScramUserFormProps) {
  const [errors, setErrors] = useState<ScramFormErrors>({});
  const [banner, setBanner] = useState<Error | null>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<SavedCredential | null>(null);
  const requestId = useRef(0);

  const clear = (field: ScramFormField) => {
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const edit = (field: Exclude<ScramFormField, "password">, value: string) => {
    onChange((v) => ({ ...v, [field]: value }));
    clear(field);
  };

  const send = async () => {
    setBanner(null);
    setSaved(null);
    const input = passwordRef.current;
    const local = checkScramForm(values, input?.value ?? "");
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    const user = values.user.trim();
    const body = scramUpsertBody(values, input?.value ?? "");
    // The password leaves the page with this request only.
    if (input) input.value = "";
    const rotated = hasCredential(users, user, body.mechanism);
    const id = ++requestId.current;
    setBusy(true);
    try {
      const answer = await upsertScramUser(cluster, user, body);
      if (id !== requestId.current) return;
      setSaved({ user, mechanism: body.mechanism, iterations: body.iterations ?? MIN_ITERATIONS, rotated });
      onChange(EMPTY_SCRAM_FORM);
      onSaved(answer);
    } catch (error) {
      if (id !== requestId.current) return;
      const placed = placeScramErrors(error);
      setErrors(placed.fields);
      setBanner(placed.banner);
    } finally {
      if (id === requestId.current) setBusy(false);
    }
  };

  return (
    <form
      className="form-card scram-form"
      data-testid="scram-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <h2>Create a user or rotate a password</h2>
      <p className="field-hint scram-form-intro">
        As kafka-configs.sh --alter --add-config: a user without this mechanism's credential gets one; a user with it gets the new
        password (the old one stops working).
      </p>
      <div className="scram-form-grid">
        <Field label="User" htmlFor="scram-user">
          <input
            id="scram-user"
            className="input mono scram-user-input"
            value={values.user}
            placeholder="alice"
            onChange={(event) => edit("user", event.target.value)}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={!!errors.user}
            data-testid="scram-user"
          />
          <FieldErrors messages={errors.user} testId="field-error-user" />
        </Field>
        <Field label="Mechanism" htmlFor="scram-mechanism">
          <select
            id="scram-mechanism"
            className="input"
            value={values.mechanism}
            onChange={(event) => edit("mechanism", event.target.value)}
            aria-invalid={!!errors.mechanism}
            data-testid="scram-mechanism"
          >
            {SCRAM_MECHANISMS.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
          <FieldErrors messages={errors.mechanism} testId="field-error-mechanism" />
        </Field>
        <Field label="Password" htmlFor="scram-password">
          <input
            id="scram-password"
            ref={passwordRef}
            type="password"
            className="input scram-password-input"
            defaultValue=""
            onInput={() => clear("password")}
            autoComplete="new-password"
            spellCheck={false}
            aria-invalid={!!errors.password}
            data-testid="scram-password"
          />
          <p className="field-hint">Sent once, never stored or shown; spaces count.</p>
          <FieldErrors messages={errors.password} testId="field-error-password" />
        </Field>
        <Field label="Iterations" htmlFor="scram-iterations">
          <input
            id="scram-iterations"
            type="number"
            min={MIN_ITERATIONS}
            max={MAX_ITERATIONS}
            step={1}
            className="input input-number"
            value={values.iterations}
            onChange={(event) => edit("iterations", event.target.value)}
            aria-invalid={!!errors.iterations}
            data-testid="scram-iterations"
          />
          <p className="field-hint">
            {formatCount(MIN_ITERATIONS)} to {formatCount(MAX_ITERATIONS)}.
          </p>
          <FieldErrors messages={errors.iterations} testId="field-error-iterations" />
        </Field>
      </div>

      {banner && <ErrorBanner error={banner} title="Could not save the credential" />}

      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy} data-testid="scram-save">
          {busy ? "Saving…" : "Save credential"}
        </button>
      </div>

      {saved && (
        <p className="notice notice-ok preview" role="status" data-testid="scram-saved" data-action={saved.rotated ? "rotated" : "created"}>
          {saved.rotated ? (
            <>
              New password for the {saved.mechanism} credential of <strong className="mono">{saved.user}</strong> (
              {formatCount(saved.iterations)} iterations): the old one no longer works.
            </>
          ) : (
            <>
              Created the {saved.mechanism} credential of <strong className="mono">{saved.user}</strong> ({formatCount(saved.iterations)}{" "}
              iterations).
            </>
          )}
        </p>
      )}
    </form>
  );
}

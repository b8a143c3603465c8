import { useId, useRef, useState } from "react";
import { createUser } from "../../api/endpoints";
import type { ConsoleUser } from "../../api/types";
import {
  checkNewUser,
  NEW_USER_FIELDS,
  placeUserErrors,
  rolesFormOf,
  userCreateBody,
  userErrorHint,
  type NewUserValues,
  type UserFormErrors,
} from "../../lib/users";
import { ErrorBanner } from "../ErrorBanner";
import { Field } from "../Field";
import { FieldErrors } from "../FieldErrors";
import { RoleRowsEditor } from "./RoleRowsEditor";

const EMPTY: NewUserValues = { username: "", roles: { role: "", rows: [] } };

interface NewUserFormProps {
  /** The registered clusters (the per-cluster rows' choices). */
  clusters: readonly string[];
  onCreated: (user: ConsoleUser) => void;
  onClose: () => void;
}

/**
 * A new console user (POST users): a name, an optional password (without one it signs in with API
 * tokens only; the password lives in its input only, read when sent and emptied at once), the role
 * on every cluster (or none) and roles on single clusters. Problems are shown beside their field
 * or cluster row; a 409 (the name is taken) and the rest in a banner.
 */
export function NewUserForm({ clusters, onCreated, onClose }: NewUserFormProps) {
  const id = useId();
  const [values, setValues] = useState<NewUserValues>(() => ({ ...EMPTY, roles: rolesFormOf(null) }));
  const [fields, setFields] = useState<UserFormErrors>({});
  const [rowErrors, setRowErrors] = useState<Record<number, string>>({});
  const [clusterErrors, setClusterErrors] = useState<Record<string, string[]>>({});
  const [banner, setBanner] = useState<Error | null>(null);
  const [busy, setBusy] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  const requestId = useRef(0);

  const send = async () => {
    setBanner(null);
    setClusterErrors({});
    const local = checkNewUser(values);
    setFields(local.fields);
    setRowErrors(local.rows);
    if (Object.keys(local.fields).length > 0 || Object.keys(local.rows).length > 0) return;
    const input = passwordRef.current;
    const body = userCreateBody(values, input?.value ?? "");
    // The password leaves the page with this request only.
    if (input) input.value = "";
    const call = ++requestId.current;
    setBusy(true);
    try {
      const user = await createUser(body);
      if (call !== requestId.current) return;
      setValues({ ...EMPTY, roles: rolesFormOf(null) });
      onCreated(user);
    } catch (error) {
      if (call !== requestId.current) return;
      const placed = placeUserErrors(error, NEW_USER_FIELDS);
      const rowClusters = new Set(values.roles.rows.map((r) => r.cluster));
      const elsewhere = Object.entries(placed.clusters).filter(([cluster]) => !rowClusters.has(cluster));
      setFields(placed.fields);
      setClusterErrors(placed.clusters);
      setBanner(
        placed.banner ?? (elsewhere.length > 0 ? new Error(elsewhere.map(([cluster, m]) => `${cluster}: ${m.join(" ")}`).join(" ")) : null),
      );
    } finally {
      if (call === requestId.current) setBusy(false);
    }
  };

  const hint = userErrorHint(banner);
  return (
    <form
      className="form-card user-form"
      data-testid="new-user-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <h2>New user</h2>
      <div className="user-form-grid">
        <Field label="User name" htmlFor={`${id}-username`}>
          <input
            id={`${id}-username`}
            className="input input-wide"
            value={values.username}
            onChange={(event) => {
              setValues({ ...values, username: event.target.value });
              if (fields.username) setFields({ ...fields, username: undefined });
            }}
            autoComplete="off"
            spellCheck={false}
            maxLength={150}
            aria-invalid={!!fields.username}
            data-testid="new-user-username"
          />
          <p className="field-hint">Letters, digits and @ . + - _</p>
          <FieldErrors messages={fields.username} testId="field-error-username" />
        </Field>
        <Field label="Password (optional)" htmlFor={`${id}-password`}>
          <input
            id={`${id}-password`}
            ref={passwordRef}
            type="password"
            className="input input-wide"
            defaultValue=""
            onInput={() => fields.password && setFields({ ...fields, password: undefined })}
            autoComplete="new-password"
            spellCheck={false}
            aria-invalid={!!fields.password}
            data-testid="new-user-password"
          />
          <p className="field-hint">Without one the user signs in with API tokens only. Sent once, never shown.</p>
          <FieldErrors messages={fields.password} testId="field-error-password" />
        </Field>
      </div>
      <RoleRowsEditor
        value={values.roles}
        onChange={(roles) => {
          setValues({ ...values, roles });
          setRowErrors({});
        }}
        clusters={clusters}
        rowErrors={rowErrors}
        clusterErrors={clusterErrors}
        roleErrors={[...(fields.role ?? []), ...(fields.cluster_roles ?? [])]}
        disabled={busy}
        testId="new-user-roles"
      />
      {banner && <ErrorBanner error={banner} title="Could not create the user" />}
      {hint && (
        <p className="notice notice-warn" data-testid="new-user-hint">
          {hint}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy} data-testid="new-user-submit">
          {busy ? "Creating…" : "Create user"}
        </button>
        <button type="button" className="button" onClick={onClose} disabled={busy} data-testid="new-user-cancel">
          Cancel
        </button>
      </div>
    </form>
  );
}

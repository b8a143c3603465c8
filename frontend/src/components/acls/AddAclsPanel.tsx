import { useRef, useState, type ReactNode } from "react";
import { createAcls } from "../../api/endpoints";
import type { AclCreated } from "../../api/types";
import {
  ACL_ADD_MODES,
  ACL_BINDING_PATTERNS,
  ACL_MODE_FIELDS,
  ACL_OPERATIONS,
  ACL_PERMISSIONS,
  ACL_RESOURCE_TYPES,
  aclCreateBody,
  aclCreateKey,
  checkAclForm,
  EMPTY_ACL_FORM,
  placeAclErrors,
  type AclAddMode,
  type AclFormErrors,
  type AclFormField,
  type AclFormValues,
} from "../../lib/acls";
import { plural } from "../../lib/format";
import { ErrorBanner } from "../ErrorBanner";
import { Field } from "../Field";
import { FieldErrors } from "../FieldErrors";
import { AclBindingsTable } from "./AclBindings";

/** Which form value each field edits. */
const VALUE_OF: Record<AclFormField, keyof AclFormValues> = {
  principal: "principal",
  host: "host",
  pattern_type: "patternType",
  resource_type: "resourceType",
  resource_name: "resourceName",
  operation: "operation",
  permission: "permission",
  topics: "topics",
  transactional_ids: "transactionalIds",
  idempotent: "idempotent",
  groups: "groups",
};

/** The input test ids: `acls-add-<field with dashes>`. */
function inputId(field: AclFormField): string {
  return `acls-add-${field.replace(/_/g, "-")}`;
}

interface Preview {
  /** aclCreateKey of the request it previewed. */
  key: string;
  answer: AclCreated;
}

/**
 * The admins' "Add ACLs" panel: one binding, the producer set or the consumer set. Preview asks
 * with dry_run true and lists the bindings to be created and those that exist already; "Create N
 * bindings" sends the same request with dry_run false (only while the form is the previewed one).
 * Problems show beside their field (the server's 400 too, by its details.field), the rest in a banner.
 */
export function AddAclsPanel({ cluster, onCreated, onClose }: { cluster: string; onCreated: (answer: AclCreated) => void; onClose: () => void }) {
  const [mode, setMode] = useState<AclAddMode>("producer");
  const [values, setValues] = useState<AclFormValues>(EMPTY_ACL_FORM);
  const [errors, setErrors] = useState<AclFormErrors>({});
  const [banner, setBanner] = useState<Error | null>(null);
  const [busy, setBusy] = useState<"preview" | "create" | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [created, setCreated] = useState<AclCreated | null>(null);
  // The answer of an older request (the form changed, or another was sent) is dropped.
  const requestId = useRef(0);

  const currentKey = aclCreateKey(aclCreateBody(mode, values, true));
  const previewCurrent = preview !== null && preview.key === currentKey;
  const toCreate = previewCurrent ? preview.answer.bindings.length : 0;
  const shown = ACL_MODE_FIELDS[mode];

  const set = (field: AclFormField, value: string | boolean) => {
    setValues((current) => ({ ...current, [VALUE_OF[field]]: value }));
    setCreated(null);
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const send = async (dryRun: boolean) => {
    setBanner(null);
    setCreated(null);
    const local = checkAclForm(mode, values);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    const body = aclCreateBody(mode, values, dryRun);
    const key = aclCreateKey(body);
    const id = ++requestId.current;
    setBusy(dryRun ? "preview" : "create");
    try {
      const answer = await createAcls(cluster, body);
      if (id !== requestId.current) return;
      if (dryRun) {
        setPreview({ key, answer });
      } else {
        setPreview(null);
        setCreated(answer);
        onCreated(answer);
      }
    } catch (error) {
      if (id !== requestId.current) return;
      const placed = placeAclErrors(error, mode);
      setErrors(placed.fields);
      setBanner(placed.banner);
    } finally {
      if (id === requestId.current) setBusy(null);
    }
  };

  /** A field of the current mode: its label, input, hint and errors. */
  const field = (name: AclFormField, label: string, input: ReactNode, hint?: ReactNode) =>
    shown.includes(name) && (
      <Field label={label} htmlFor={inputId(name)}>
        {input}
        {hint && <p className="field-hint">{hint}</p>}
        <FieldErrors messages={errors[name]} testId={`field-error-${name}`} />
      </Field>
    );

  const text = (name: AclFormField, placeholder: string, wide = true) => (
    <input
      id={inputId(name)}
      className={wide ? "input input-wide mono" : "input mono"}
      value={String(values[VALUE_OF[name]])}
      placeholder={placeholder}
      onChange={(event) => set(name, event.target.value)}
      autoComplete="off"
      spellCheck={false}
      aria-invalid={!!errors[name]}
      data-testid={inputId(name)}
    />
  );

  const select = (name: AclFormField, options: readonly string[]) => (
    <select
      id={inputId(name)}
      className="input"
      value={String(values[VALUE_OF[name]])}
      onChange={(event) => set(name, event.target.value)}
      aria-invalid={!!errors[name]}
      data-testid={inputId(name)}
    >
      {options.map((option) => (
        <option key={option} value={option}>
          {option}
        </option>
      ))}
    </select>
  );

  const chosen = ACL_ADD_MODES.find((m) => m.mode === mode);

  return (
    <form
      className="form-card form-card-wide preview"
      data-testid="acls-add"
      data-mode={mode}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void send(true);
      }}
    >
      <h2>Add ACLs</h2>
      <div className="field">
        <div className="segmented" role="group" aria-label="What to add">
          {ACL_ADD_MODES.map((m) => (
            <button
              key={m.mode}
              type="button"
              aria-pressed={m.mode === mode}
              onClick={() => {
                setMode(m.mode);
                setErrors({});
                setBanner(null);
                setCreated(null);
              }}
              data-testid={`acls-add-mode-${m.mode}`}
            >
              {m.label}
            </button>
          ))}
        </div>
        {chosen && <p className="field-hint">{chosen.help}</p>}
      </div>

      <div className="field-row">
        {field("resource_type", "Resource type", select("resource_type", ACL_RESOURCE_TYPES))}
        {field(
          "resource_name",
          "Resource name",
          text("resource_name", values.resourceType === "CLUSTER" ? "kafka-cluster" : "orders, or * for all"),
        )}
      </div>
      {field("principal", "Principal", text("principal", "User:alice"), "Type:name, e.g. User:alice.")}
      {field(
        "topics",
        "Topics",
        text("topics", "orders, payments"),
        "Comma-separated; with the prefixed pattern, each is a prefix.",
      )}
      {field("transactional_ids", "Transactional ids", text("transactional_ids", "none"), "Comma-separated; optional.")}
      {field("groups", "Groups", text("groups", "orders-app"), "Comma-separated consumer group ids.")}
      {shown.includes("idempotent") && (
        <div className="field">
          <label className="checkbox">
            <input
              type="checkbox"
              checked={values.idempotent}
              onChange={(event) => set("idempotent", event.target.checked)}
              data-testid={inputId("idempotent")}
            />
            Idempotent (IDEMPOTENT_WRITE on the cluster)
          </label>
          <FieldErrors messages={errors.idempotent} testId="field-error-idempotent" />
        </div>
      )}
      <div className="field-row">
        {field("pattern_type", "Pattern", select("pattern_type", ACL_BINDING_PATTERNS))}
        {field("operation", "Operation", select("operation", ACL_OPERATIONS))}
        {field("permission", "Permission", select("permission", ACL_PERMISSIONS))}
        {field("host", "Host", text("host", "*", false), "* or an IP address.")}
      </div>

      {banner && <ErrorBanner error={banner} title="Could not add the ACLs" />}

      <div className="form-actions">
        <button type="submit" className="button" disabled={busy !== null} data-testid="acls-preview">
          {busy === "preview" ? "Previewing…" : "Preview"}
        </button>
        <button
          type="button"
          className="button button-primary"
          disabled={busy !== null || toCreate === 0}
          onClick={() => void send(false)}
          data-testid="acls-create"
        >
          {busy === "create" ? "Creating…" : `Create ${toCreate} ${plural(toCreate, "binding")}`}
        </button>
        <button type="button" className="button" onClick={onClose} data-testid="acls-add-close">
          Close
        </button>
      </div>

      {preview && (
        <div className={previewCurrent ? "preview" : "preview stale-preview"} data-testid="acls-preview-result" data-current={previewCurrent}>
          {!previewCurrent && (
            <p className="notice notice-warn" data-testid="acls-preview-stale">
              The form changed since this preview: preview again before creating.
            </p>
          )}
          <h3>
            To be created: {preview.answer.bindings.length} {plural(preview.answer.bindings.length, "binding")}
          </h3>
          {preview.answer.bindings.length > 0 ? (
            <AclBindingsTable bindings={preview.answer.bindings} testId="acls-preview-new" />
          ) : (
            <p className="muted" data-testid="acls-preview-nothing">
              Nothing new: every binding asked for exists already.
            </p>
          )}
          {preview.answer.existing.length > 0 && (
            <>
              <h3>
                Already in Kafka: {preview.answer.existing.length} {plural(preview.answer.existing.length, "binding")}
              </h3>
              <AclBindingsTable bindings={preview.answer.existing} testId="acls-preview-existing" />
            </>
          )}
        </div>
      )}

      {created && (
        <p className="notice notice-ok preview" role="status" data-testid="acls-created" data-count={created.bindings.length}>
          Created {created.bindings.length} {plural(created.bindings.length, "binding")}
          {created.existing.length > 0 && ` (${created.existing.length} already existed)`}.
        </p>
      )}
    </form>
  );
}

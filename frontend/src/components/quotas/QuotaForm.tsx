import { useRef, useState, type Dispatch, type SetStateAction } from "react";
import { alterQuotas } from "../../api/endpoints";
import type { QuotaChanged } from "../../api/types";
import {
  checkQuotaForm,
  EMPTY_QUOTA_FORM,
  exactQuotaValue,
  formatByteRate,
  formatQuotaValue,
  formEntity,
  keysFor,
  parseQuotaValue,
  placeQuotaErrors,
  QUOTA_KEY_INFO,
  quotaChangeBody,
  type PartMode,
  type QuotaFormErrors,
  type QuotaFormField,
  type QuotaFormValues,
  type QuotaKey,
  type QuotaTarget,
} from "../../lib/quotas";
import { ErrorBanner } from "../ErrorBanner";
import { Field } from "../Field";
import { FieldErrors } from "../FieldErrors";
import { Table } from "../TableParts";
import { QuotaChangeResult } from "./QuotaChangeResult";
import { QuotaEntityName } from "./QuotasTable";

const TARGETS: readonly { target: QuotaTarget; label: string; help: string }[] = [
  {
    target: "client",
    label: "User / client id",
    help: "A user, a client id, or a user's quota for one client id; each a name or the default (kafka-configs.sh --entity-default). Kafka applies the most specific one that matches a client.",
  },
  { target: "ip", label: "IP", help: "An IP address, or the default for every address: limits how fast connections are made." },
];

interface QuotaFormProps {
  cluster: string;
  values: QuotaFormValues;
  onChange: Dispatch<SetStateAction<QuotaFormValues>>;
  /** The values the form's entity has now ({} when none). */
  current: Record<string, number>;
  onSaved: (answer: QuotaChanged) => void;
}

/**
 * The form that sets or removes an entity's quota values (PATCH quotas): the entity (a user and / or
 * a client id, or an ip; each a name or the default), a new value per key (empty: unchanged), a
 * Remove tick per key set now. The answer's values before → after show under it; a 400 beside the
 * field its details.field names, the rest in a banner.
 */
export function QuotaForm({ cluster, values, onChange, current, onSaved }: QuotaFormProps) {
  const [errors, setErrors] = useState<QuotaFormErrors>({});
  const [banner, setBanner] = useState<Error | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<QuotaChanged | null>(null);
  // The answer of an older request (another was sent since) is dropped.
  const requestId = useRef(0);

  const entity = formEntity(values);
  const keys = keysFor(values.target);

  const clear = (...fields: QuotaFormField[]) => {
    if (fields.some((f) => errors[f])) {
      setErrors((e) => {
        const next = { ...e };
        for (const f of fields) delete next[f];
        return next;
      });
    }
  };

  const edit = (changes: Partial<QuotaFormValues>, ...fields: QuotaFormField[]) => {
    onChange((v) => ({ ...v, ...changes }));
    clear(...fields, "change");
  };

  const setValue = (key: QuotaKey, text: string) => {
    onChange((v) => ({ ...v, values: { ...v.values, [key]: text } }));
    clear(key, "change");
  };

  const toggleRemove = (key: QuotaKey, on: boolean) => {
    onChange((v) => ({ ...v, remove: on ? [...v.remove.filter((k) => k !== key), key] : v.remove.filter((k) => k !== key) }));
    clear(key, "change");
  };

  const send = async () => {
    setBanner(null);
    setResult(null);
    const local = checkQuotaForm(values);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    const body = quotaChangeBody(values);
    const id = ++requestId.current;
    setBusy(true);
    try {
      const answer = await alterQuotas(cluster, body);
      if (id !== requestId.current) return;
      setResult(answer);
      // Done: nothing typed or ticked any more (the entity stays).
      onChange((v) => ({ ...v, values: {}, remove: [] }));
      onSaved(answer);
    } catch (error) {
      if (id !== requestId.current) return;
      const placed = placeQuotaErrors(error, body);
      setErrors(placed.fields);
      setBanner(placed.banner);
    } finally {
      if (id === requestId.current) setBusy(false);
    }
  };

  const partInput = (
    part: "user" | "client_id",
    label: string,
    mode: PartMode,
    name: string,
    set: (mode: PartMode, name: string) => Partial<QuotaFormValues>,
  ) => {
    const testId = part === "user" ? "quota-user" : "quota-client-id";
    return (
      <Field label={label} htmlFor={testId}>
        <div className="inline-form">
          <select
            className="input"
            aria-label={`${label}: which`}
            value={mode}
            onChange={(event) => edit(set(event.target.value as PartMode, name), part, "entity")}
            data-testid={`${testId}-mode`}
          >
            <option value="none">{part === "user" ? "No user" : "No client id"}</option>
            <option value="name">{part === "user" ? "User named" : "Client id named"}</option>
            <option value="default">{part === "user" ? "Default user" : "Default client id"}</option>
          </select>
          {mode === "name" && (
            <input
              id={testId}
              className="input mono quota-name-input"
              value={name}
              placeholder={part === "user" ? "alice" : "orders-app"}
              onChange={(event) => edit(set(mode, event.target.value), part)}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={!!errors[part]}
              data-testid={testId}
            />
          )}
        </div>
        <FieldErrors messages={errors[part]} testId={`field-error-${part}`} />
      </Field>
    );
  };

  const target = TARGETS.find((t) => t.target === values.target);

  return (
    <form
      className="form-card form-card-wide quota-form"
      data-testid="quota-form"
      data-target={values.target}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <h2>Set or remove quotas</h2>
      <div className="field">
        <div className="segmented" role="group" aria-label="Entity type">
          {TARGETS.map((t) => (
            <button
              key={t.target}
              type="button"
              aria-pressed={t.target === values.target}
              onClick={() => {
                if (t.target === values.target) return;
                onChange({ ...EMPTY_QUOTA_FORM, target: t.target });
                setErrors({});
                setBanner(null);
                setResult(null);
              }}
              data-testid={`quota-target-${t.target}`}
            >
              {t.label}
            </button>
          ))}
        </div>
        {target && <p className="field-hint">{target.help}</p>}
      </div>

      {values.target === "client" ? (
        <div className="field-row">
          {partInput("user", "User", values.userMode, values.user, (mode, name) => ({ userMode: mode, user: name }))}
          {partInput("client_id", "Client id", values.clientMode, values.clientId, (mode, name) => ({
            clientMode: mode,
            clientId: name,
          }))}
        </div>
      ) : (
        <Field label="IP address" htmlFor="quota-ip">
          <div className="inline-form">
            <select
              className="input"
              aria-label="IP address: which"
              value={values.ipMode}
              onChange={(event) => edit({ ipMode: event.target.value as "name" | "default" }, "ip", "entity")}
              data-testid="quota-ip-mode"
            >
              <option value="name">Address</option>
              <option value="default">Default ip</option>
            </select>
            {values.ipMode === "name" && (
              <input
                id="quota-ip"
                className="input mono quota-name-input"
                value={values.ip}
                placeholder="10.0.0.7"
                onChange={(event) => edit({ ip: event.target.value }, "ip")}
                autoComplete="off"
                spellCheck={false}
                aria-invalid={!!errors.ip}
                data-testid="quota-ip"
              />
            )}
          </div>
          <FieldErrors messages={errors.ip} testId="field-error-ip" />
        </Field>
      )}
      <FieldErrors messages={errors.entity} testId="field-error-entity" />

      <p className="quota-entity-line" data-testid="quota-entity" data-entity={entity ? JSON.stringify(entity) : ""}>
        <span className="field-label">Entity</span>
        {entity ? <QuotaEntityName entity={entity} /> : <span className="muted">name a user, a client id or an IP above</span>}
      </p>

      <Table
        columns={["Quota", { label: "Now", numeric: true }, "New value", { label: "Remove", hidden: true }]}
        className="quota-keys"
        data-testid="quota-keys"
      >
        {keys.map((key) => {
          const info = QUOTA_KEY_INFO[key];
          const now = current[key];
          const removing = values.remove.includes(key);
          const typed = values.values[key] ?? "";
          const parsed = typed.trim() ? parseQuotaValue(key, typed) : null;
          const inputId = `quota-value-${key}`;
          return (
            <tr key={key} data-testid={`quota-key-${key}`} data-set={now !== undefined}>
              <td className="quota-key-cell">
                <label htmlFor={inputId} className="quota-key-label">
                  {info.label}
                </label>
                <span className="quota-key-help">{info.help}</span>
              </td>
              <td className="num" title={now === undefined ? undefined : exactQuotaValue(key, now)} data-testid={`quota-now-${key}`}>
                {now === undefined ? <span className="muted">not set</span> : formatQuotaValue(key, now)}
              </td>
              <td className="quota-input-cell">
                <div className="inline-form">
                  <input
                    id={inputId}
                    className="input input-offset mono"
                    inputMode={info.whole ? "numeric" : "decimal"}
                    value={removing ? "" : typed}
                    placeholder={removing ? "removed" : "unchanged"}
                    disabled={removing}
                    onChange={(event) => setValue(key, event.target.value)}
                    autoComplete="off"
                    aria-invalid={!!errors[key]}
                    data-testid={`quota-input-${key}`}
                  />
                  <span className="muted nowrap">{info.unit}</span>
                </div>
                {parsed?.ok && info.unit === "bytes/s" && parsed.value >= 1024 && (
                  <p className="field-hint" data-testid={`quota-typed-${key}`}>
                    = {formatByteRate(parsed.value)}
                  </p>
                )}
                <FieldErrors messages={errors[key]} testId={`field-error-${key}`} />
              </td>
              <td className="quota-remove-cell">
                {now !== undefined && (
                  <label className="checkbox" title={`Remove the ${info.label.toLowerCase()}: no limit from this entity`}>
                    <input
                      type="checkbox"
                      checked={removing}
                      onChange={(event) => toggleRemove(key, event.target.checked)}
                      data-testid={`quota-remove-${key}`}
                    />
                    Remove
                  </label>
                )}
              </td>
            </tr>
          );
        })}
      </Table>
      <FieldErrors messages={errors.change} testId="field-error-change" />

      {banner && <ErrorBanner error={banner} title="Could not change the quotas" />}

      <div className="form-actions quota-actions">
        <button type="submit" className="button button-primary" disabled={busy} data-testid="quota-save">
          {busy ? "Saving…" : "Save"}
        </button>
        <button
          type="button"
          className="button"
          disabled={busy}
          onClick={() => {
            onChange({ ...EMPTY_QUOTA_FORM, target: values.target });
            setErrors({});
            setBanner(null);
            setResult(null);
          }}
          data-testid="quota-clear"
        >
          Clear
        </button>
      </div>

      {result && <QuotaChangeResult answer={result} />}
    </form>
  );
}

import { useMutation } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { produceMessage, type Produced, type WriteFormat } from "../../api/messages";
import {
  addHeader,
  isRegistryFormat,
  buildProduceBody,
  errorsByField,
  moveHeader,
  removeHeader,
  serverProblems,
  updateHeader,
  WRITE_FORMATS,
  type PartDraft,
  type ProduceDraft,
  type ProduceErrors,
} from "../../lib/produce";
import { ErrorBanner } from "../ErrorBanner";

interface ProduceFormProps {
  cluster: string;
  topic: string;
  partitionCount: number | null;
  draft: ProduceDraft;
  onChange: (draft: ProduceDraft) => void;
  onClose: () => void;
  /** What the last "Copy to producer" filled in ("partition 0 · offset 4"), or null. */
  copiedFrom: string | null;
}

/**
 * One record to the topic (operator): key, value and headers each as `{format, data}`, the
 * partition or the default partitioner. What the browser can check is checked before sending;
 * a 400 is shown beside the field it names; the answer (partition, offset, time) stays under the
 * button until the next produce.
 */
export function ProduceForm({ cluster, topic, partitionCount, draft, onChange, onClose, copiedFrom }: ProduceFormProps) {
  const ids = { partition: useId(), key: useId(), value: useId() };
  const [local, setLocal] = useState<ProduceErrors>({});
  const mutation = useMutation({
    mutationFn: (body: Parameters<typeof produceMessage>[2]) => produceMessage(cluster, topic, body),
  });
  const server = serverProblems(mutation.error);
  const shown = errorsByField(Object.keys(local).length ? local : server);
  const otherError = mutation.error && Object.keys(server).length === 0 ? mutation.error : null;
  const set = (change: Partial<ProduceDraft>) => {
    onChange({ ...draft, ...change });
    setLocal({});
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = buildProduceBody(draft);
    if ("errors" in built) {
      setLocal(built.errors);
      mutation.reset();
      return;
    }
    setLocal({});
    mutation.mutate(built.body);
  };

  return (
    <section className="produce-card" aria-label={`Produce a record to ${topic}`} data-testid="produce-form">
      <header className="produce-head">
        <h3>
          Produce a record <span className="muted">to {topic}</span>
        </h3>
        {copiedFrom && (
          <span className="muted" data-testid="produce-copied-from">
            Filled from the record at {copiedFrom}
          </span>
        )}
        <button type="button" className="button button-small" onClick={onClose} data-testid="produce-close">
          Close
        </button>
      </header>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label className="field-label" htmlFor={ids.partition}>
            Partition{partitionCount !== null && <span className="muted"> (0–{partitionCount - 1})</span>}
          </label>
          <input
            id={ids.partition}
            className="input input-number mono"
            inputMode="numeric"
            placeholder="default"
            value={draft.partition}
            onChange={(e) => set({ partition: e.target.value })}
            aria-invalid={!!shown.partition}
            data-testid="produce-partition"
          />
          <p className="field-hint">Empty: Kafka's default partitioner (a key goes where the Java producer would put it).</p>
          <FieldError message={shown.partition} testId="produce-partition-error" />
        </div>

        <PartField
          id={ids.key}
          label="Key"
          nullLabel="No key (null)"
          part={draft.key}
          onChange={(key) => set({ key })}
          error={shown.key}
          testId="produce-key"
          rows={1}
        />
        <PartField
          id={ids.value}
          label="Value"
          nullLabel="Tombstone (null value)"
          part={draft.value}
          onChange={(value) => set({ value })}
          error={shown.value}
          testId="produce-value"
          rows={6}
        />

        <fieldset className="field produce-headers" data-testid="produce-headers">
          <legend className="field-label">
            Headers <span className="muted">(in order; a key may repeat)</span>
          </legend>
          {draft.headers.length === 0 && <p className="field-hint">No headers.</p>}
          {draft.headers.map((header, i) => (
            <div key={header.id} className="produce-header-row" data-testid="produce-header">
              <input
                className="input mono"
                placeholder="key"
                aria-label={`Header ${i + 1} key`}
                value={header.key}
                onChange={(e) => set({ headers: updateHeader(draft.headers, i, { key: e.target.value }) })}
                aria-invalid={!!shown[`headers[${i}].key`]}
                data-testid="produce-header-key"
              />
              <FormatSelect
                value={header.value.format}
                onChange={(format) => set({ headers: updateHeader(draft.headers, i, { value: { ...header.value, format } }) })}
                label={`Header ${i + 1} format`}
                testId="produce-header-format"
                disabled={header.value.isNull}
              />
              <input
                className="input mono"
                placeholder={header.value.isNull ? "null" : "value"}
                aria-label={`Header ${i + 1} value`}
                value={header.value.text}
                disabled={header.value.isNull}
                onChange={(e) => set({ headers: updateHeader(draft.headers, i, { value: { ...header.value, text: e.target.value } }) })}
                aria-invalid={!!shown[`headers[${i}].value`]}
                data-testid="produce-header-value"
              />
              <label className="checkbox produce-null" title="Send the header with a null value">
                <input
                  type="checkbox"
                  checked={header.value.isNull}
                  onChange={(e) => set({ headers: updateHeader(draft.headers, i, { value: { ...header.value, isNull: e.target.checked } }) })}
                />
                null
              </label>
              <span className="produce-header-buttons">
                <button type="button" className="button button-small" onClick={() => set({ headers: moveHeader(draft.headers, i, -1) })} disabled={i === 0} aria-label={`Move header ${i + 1} up`}>
                  ↑
                </button>
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => set({ headers: moveHeader(draft.headers, i, 1) })}
                  disabled={i === draft.headers.length - 1}
                  aria-label={`Move header ${i + 1} down`}
                >
                  ↓
                </button>
                <button type="button" className="button button-small" onClick={() => set({ headers: removeHeader(draft.headers, i) })} aria-label={`Remove header ${i + 1}`} data-testid="produce-header-remove">
                  ✕
                </button>
              </span>
              <FieldError message={[shown[`headers[${i}].key`], shown[`headers[${i}].value`]].filter(Boolean).join(" ") || undefined} testId="produce-header-error" wide />
            </div>
          ))}
          <button type="button" className="button button-small" onClick={() => set({ headers: addHeader(draft.headers) })} data-testid="produce-header-add">
            Add header
          </button>
          <FieldError message={shown.headers} testId="produce-headers-error" />
        </fieldset>

        <FieldError message={shown.form} testId="produce-form-error" />
        {otherError && <ErrorBanner error={otherError} title="Could not produce the record" />}

        <div className="produce-submit">
          <button type="submit" className="button button-primary" disabled={mutation.isPending} data-testid="produce-submit">
            {mutation.isPending ? "Producing…" : "Produce"}
          </button>
          {mutation.data && !mutation.isPending && <ProducedLine produced={mutation.data} />}
        </div>
      </form>
    </section>
  );
}

function ProducedLine({ produced }: { produced: Produced }) {
  return (
    <p className="notice notice-ok produce-result" role="status" data-testid="produce-result" data-partition={produced.partition} data-offset={produced.offset}>
      Written to partition <strong>{produced.partition}</strong> at offset <strong className="mono">{produced.offset}</strong>
      {produced.timestamp ? <span className="muted"> · {produced.timestamp}</span> : null}
    </p>
  );
}

function FieldError({ message, testId, wide }: { message: string | undefined; testId: string; wide?: boolean }) {
  if (!message) return null;
  return (
    <p className={wide ? "field-error produce-row-error" : "field-error"} role="alert" data-testid={testId}>
      {message}
    </p>
  );
}

function FormatSelect({ value, onChange, label, testId, disabled }: { value: WriteFormat; onChange: (format: WriteFormat) => void; label: string; testId: string; disabled?: boolean }) {
  return (
    <select className="input produce-format" value={value} onChange={(e) => onChange(e.target.value as WriteFormat)} aria-label={label} data-testid={testId} disabled={disabled}>
      {WRITE_FORMATS.map((f) => (
        <option key={f.value} value={f.value} disabled={f.disabled}>
          {f.label}
        </option>
      ))}
    </select>
  );
}

const PLACEHOLDERS: Partial<Record<WriteFormat, string>> = {
  json: '{"id": "o-1", "amount": 1200}',
  msgpack: '{"id": "o-1"}',
  text: "text",
  bytes: "base64, e.g. AAECAw==",
  int: "42",
  long: "1700000000000",
  double: "3.14",
  avro: '{"id": "o-1"} (the JSON form of a value of the schema)',
  protobuf: '{"id": "o-1"} (Protobuf\'s JSON mapping)',
  jsonschema: '{"id": "o-1"}',
};

function PartField({
  id,
  label,
  nullLabel,
  part,
  onChange,
  error,
  testId,
  rows,
}: {
  id: string;
  label: string;
  nullLabel: string;
  part: PartDraft;
  onChange: (part: PartDraft) => void;
  error: string | undefined;
  testId: string;
  rows: number;
}) {
  return (
    <div className="field produce-part" data-testid={testId}>
      <div className="produce-part-head">
        <label className="field-label" htmlFor={id}>
          {label}
        </label>
        <FormatSelect value={part.format} onChange={(format) => onChange({ ...part, format })} label={`${label} format`} testId={`${testId}-format`} disabled={part.isNull} />
        {isRegistryFormat(part.format) && !part.isNull && (
          <input
            className="input input-number mono"
            inputMode="numeric"
            placeholder="schema id"
            aria-label={`${label} schema id`}
            title="The registry's schema id; empty: the latest schema of the topic's -key / -value subject"
            value={part.schemaId ?? ""}
            onChange={(e) => onChange({ ...part, schemaId: e.target.value })}
            data-testid={`${testId}-schema-id`}
          />
        )}
        <label className="checkbox">
          <input type="checkbox" checked={part.isNull} onChange={(e) => onChange({ ...part, isNull: e.target.checked })} data-testid={`${testId}-null`} />
          {nullLabel}
        </label>
      </div>
      <textarea
        id={id}
        className="input input-wide mono produce-text"
        rows={Math.min(16, Math.max(rows, (part.isNull ? "" : part.text).split("\n").length))}
        spellCheck={false}
        disabled={part.isNull}
        placeholder={part.isNull ? "null" : PLACEHOLDERS[part.format]}
        value={part.isNull ? "" : part.text}
        onChange={(e) => onChange({ ...part, text: e.target.value })}
        aria-invalid={!!error}
        data-testid={`${testId}-text`}
      />
      <FieldError message={error} testId={`${testId}-error`} />
    </div>
  );
}

import { useEffect, useId, useState, type FormEvent } from "react";
import type { ApiError } from "../../api/client";
import type { MessageDirection, MessageFormat, MessageIsolation, MessagePosition } from "../../api/messages";
import { FILTER_EXAMPLES, filterErrorPlace, filterErrorText, FORMATS, PAGE_SIZES, POSITIONS, type MessageView } from "../../lib/messages";
import { DateTimeInput } from "../resetWizard/DateTimeInput";

type ControlErrors = Partial<Record<"offset" | "timestamp" | "partitions", string>>;

interface MessageControlsProps {
  /** The view shown (the URL's). */
  view: MessageView;
  partitionCount: number | null;
  /** What is wrong with the view's position controls (nothing is read then). */
  errors: ControlErrors;
  /** The server's 400 naming `filter`: shown beside the box. */
  filterError: ApiError | null;
  /** Show another view (the URL changes, the page is read). */
  onShow: (view: MessageView) => void;
  reading: boolean;
  onReadAgain: () => void;
}

/**
 * Where to read and how: the position, direction and partitions are a draft until "Read" (or
 * Enter); page size, decoders and isolation apply at once and keep the page (its cursor); the
 * filter applies with Enter or "Apply", from the position again.
 */
export function MessageControls({ view, partitionCount, errors, filterError, onShow, reading, onReadAgain }: MessageControlsProps) {
  const [draft, setDraft] = useState(view);
  // The URL changed (a page, a link, the back button): the controls show it.
  useEffect(() => setDraft(view), [view]);
  const set = (change: Partial<MessageView>) => setDraft((d) => ({ ...d, ...change }));
  const ids = { offset: useId(), direction: useId(), partitions: useId(), limit: useId(), kf: useId(), vf: useId(), iso: useId(), filter: useId() };

  // Read from the position (a new read drops the cursor).
  const read = (event?: FormEvent) => {
    event?.preventDefault();
    onShow({ ...draft, cursor: "" });
  };
  // The page size, decoders and isolation: the same records read again (the cursor stays).
  const apply = (change: Partial<MessageView>) => onShow({ ...view, ...change });
  const applyFilter = (filter: string) => onShow({ ...draft, filter, cursor: "" });

  const shownErrors: ControlErrors = sameControls(draft, view) ? errors : {};

  return (
    <div className="messages-controls">
      <form className="messages-form" onSubmit={read} data-testid="messages-form">
        <div className="messages-row">
          <div className="field">
            <span className="field-label" id={`${ids.offset}-label`}>
              Position
            </span>
            <span className="segmented" role="group" aria-labelledby={`${ids.offset}-label`}>
              {POSITIONS.map((p) => (
                <button
                  key={p.value}
                  type="button"
                  aria-pressed={draft.position === p.value}
                  onClick={() => set({ position: p.value as MessagePosition })}
                  data-testid={`messages-position-${p.value}`}
                >
                  {p.label}
                </button>
              ))}
            </span>
          </div>
          {draft.position === "offset" && (
            <div className="field">
              <label className="field-label" htmlFor={ids.offset}>
                Offset
              </label>
              <input
                id={ids.offset}
                className="input input-offset mono"
                inputMode="numeric"
                value={draft.offset}
                onChange={(e) => set({ offset: e.target.value })}
                aria-invalid={!!shownErrors.offset}
                data-testid="messages-offset"
              />
              {shownErrors.offset && <p className="field-error">{shownErrors.offset}</p>}
            </div>
          )}
          <div className="field">
            <label className="field-label" htmlFor={ids.direction}>
              Direction
            </label>
            <select
              id={ids.direction}
              className="input"
              value={draft.direction}
              onChange={(e) => set({ direction: e.target.value as MessageDirection | "" })}
              data-testid="messages-direction"
            >
              <option value="">{draft.position === "latest" ? "Newest first (default)" : "Oldest first (default)"}</option>
              <option value="forward">Forward: oldest first</option>
              <option value="backward">Backward: newest first</option>
            </select>
          </div>
          <div className="field">
            <label className="field-label" htmlFor={ids.partitions}>
              Partitions{partitionCount !== null && <span className="muted"> (0–{partitionCount - 1})</span>}
            </label>
            <input
              id={ids.partitions}
              className="input mono messages-partitions"
              placeholder="all"
              value={draft.partitions}
              onChange={(e) => set({ partitions: e.target.value })}
              aria-invalid={!!shownErrors.partitions}
              title="Empty for every partition; else numbers and ranges: 0, 2, 5-7"
              data-testid="messages-partitions"
            />
            {shownErrors.partitions && <p className="field-error">{shownErrors.partitions}</p>}
          </div>
          <div className="field messages-read">
            <button type="submit" className="button button-primary" data-testid="messages-read">
              Read
            </button>
            <button
              type="button"
              className="button"
              onClick={onReadAgain}
              disabled={reading}
              title="Read the same page again (new records, another decoder)"
              data-testid="messages-refresh"
            >
              {reading ? "Reading…" : "Read again"}
            </button>
          </div>
        </div>
        {draft.position === "timestamp" && (
          <div className="messages-datetime">
            <DateTimeInput
              form={{ datetime: draft.datetime, zone: draft.zone }}
              set={(change) => set(change)}
              invalid={!!shownErrors.timestamp}
              testId="messages-ts"
              label="From the first record at or after"
              hint="a partition with no record at or after it starts at its end."
              future="in the future: every partition starts at its end."
            />
            {shownErrors.timestamp && <p className="field-error">{shownErrors.timestamp}</p>}
          </div>
        )}
      </form>

      <div className="messages-row messages-decoding">
        <SelectField
          id={ids.limit}
          label="Page size"
          value={String(view.limit)}
          options={PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) }))}
          onChange={(v) => apply({ limit: Number(v) })}
          testId="messages-limit"
        />
        <SelectField
          id={ids.kf}
          label="Key format"
          value={view.keyFormat}
          options={FORMATS}
          onChange={(v) => apply({ keyFormat: v as MessageFormat })}
          testId="messages-key-format"
          className="input messages-format-select"
        />
        <SelectField
          id={ids.vf}
          label="Value format"
          value={view.valueFormat}
          options={FORMATS}
          onChange={(v) => apply({ valueFormat: v as MessageFormat })}
          testId="messages-value-format"
          className="input messages-format-select"
        />
        <SelectField
          id={ids.iso}
          label="Isolation"
          value={view.isolation}
          options={[
            { value: "read_committed", label: "read_committed (no aborted records)" },
            { value: "read_uncommitted", label: "read_uncommitted (aborted marked)" },
          ]}
          onChange={(v) => apply({ isolation: v as MessageIsolation })}
          testId="messages-isolation"
        />
        {(view.keyFormat === "avro" || view.keyFormat === "protobuf" || view.valueFormat === "avro" || view.valueFormat === "protobuf") && (
          <p className="notice notice-warn messages-registry" data-testid="messages-registry-notice">
            Avro and Protobuf need the cluster's Schema Registry, not configured in this version: such records come back as
            bytes with their schema id.
          </p>
        )}
      </div>

      <FilterBox
        id={ids.filter}
        applied={view.filter}
        value={draft.filter}
        onChange={(filter) => set({ filter })}
        onApply={applyFilter}
        error={filterError}
      />
    </div>
  );
}

/** The position controls of `a` and `b` are the same (their errors are about what is typed). */
function sameControls(a: MessageView, b: MessageView): boolean {
  return a.position === b.position && a.offset === b.offset && a.datetime === b.datetime && a.zone === b.zone && a.partitions === b.partitions;
}

function SelectField({
  id,
  label,
  value,
  options,
  onChange,
  testId,
  className = "input",
}: {
  id: string;
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
  testId: string;
  className?: string;
}) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <select id={id} className={className} value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

interface FilterBoxProps {
  id: string;
  /** The filter the page was read with. */
  applied: string;
  value: string;
  onChange: (value: string) => void;
  onApply: (filter: string) => void;
  error: ApiError | null;
}

/** The CEL filter: the box, Apply / Clear, clickable examples, and the server's refusal beside it
 * (its line and column pointed at under the expression). */
function FilterBox({ id, applied, value, onChange, onApply, error }: FilterBoxProps) {
  const place = error ? filterErrorPlace(error.details) : null;
  const errorId = `${id}-error`;
  const lines = applied.split("\n");
  const badLine = place ? (lines[place.line - 1] ?? "") : "";
  return (
    <div className="messages-filter" data-testid="messages-filter">
      <div className="messages-filter-main">
        <label className="field-label" htmlFor={id}>
          Filter <span className="muted">(CEL: key, value, headers, partition, offset, timestamp)</span>
        </label>
        <form
          className="messages-filter-row"
          onSubmit={(e) => {
            e.preventDefault();
            onApply(value);
          }}
        >
          <input
            id={id}
            type="text"
            className="input mono messages-filter-input"
            placeholder='value.amount > 6000 && key.startsWith("truck-")'
            spellCheck={false}
            autoComplete="off"
            value={value}
            onChange={(e) => onChange(e.target.value)}
            aria-invalid={!!error}
            aria-describedby={error ? errorId : undefined}
            data-testid="messages-filter-input"
          />
          <button type="submit" className="button" data-testid="messages-filter-apply">
            Apply
          </button>
          {(applied || value) && (
            <button
              type="button"
              className="button"
              onClick={() => {
                onChange("");
                onApply("");
              }}
              data-testid="messages-filter-clear"
            >
              Clear
            </button>
          )}
        </form>
        <p className="messages-examples">
          <span className="muted">Examples:</span>
          {FILTER_EXAMPLES.map((example) => (
            <button
              key={example}
              type="button"
              className="messages-example mono"
              onClick={() => {
                onChange(example);
                onApply(example);
              }}
              title="Filter with this expression"
              data-testid="messages-filter-example"
            >
              {example}
            </button>
          ))}
        </p>
      </div>
      {error && (
        <div className="messages-filter-error" id={errorId} role="alert" data-testid="messages-filter-error">
          <p className="field-error-line">
            <strong>The filter was refused:</strong> <span title={error.message}>{filterErrorText(error.message, place !== null)}</span>
          </p>
          {place && (
            <>
              <p className="field-error-line" data-testid="messages-filter-error-place">
                At line {place.line}, column {place.column}
                {lines.length === 1 ? "" : ` of ${lines.length}`}:
              </p>
              <pre className="messages-caret" data-testid="messages-filter-caret" data-column={place.column}>
                {badLine}
                {"\n"}
                {" ".repeat(Math.max(0, place.column - 1))}^
              </pre>
            </>
          )}
        </div>
      )}
    </div>
  );
}

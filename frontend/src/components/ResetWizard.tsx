import { useEffect, useId, useMemo, useState, type ReactNode } from "react";
import { isAbortError } from "../api/client";
import { createOffsetReset, executeOffsetReset, listTopics, undoOffsetReset } from "../api/endpoints";
import type { GroupDetail, OffsetReset, ResetRequest, ResetStrategyType, TopicSummary } from "../api/types";
import { formatCount, plural } from "../lib/format";
import {
  buildResetRequest,
  csvErrorLine,
  DURATION_PRESETS,
  errorPlace,
  groupTopics,
  isGroupActive,
  samePlanInputs,
  STRATEGIES,
  strategyInfo,
  type ErrorPlace,
  type ResetForm,
  type ScopeTopic,
} from "../lib/groups";
import {
  browserTimeZone,
  COMMON_ZONES,
  describeDuration,
  FIXED_OFFSETS,
  formatAgo,
  formatLocal,
  formatOffset,
  formatUtc,
  parseDuration,
  UTC_ZONE,
  wallTimeIn,
  zonedToInstant,
  zoneOffsetMinutes,
} from "../lib/time";
import { ErrorBanner } from "./ErrorBanner";
import { StaleChanges } from "./StaleChanges";
import { PlanTable, PlanTotals, ResultTable, UndoError } from "./ResetTables";

interface ResetWizardProps {
  cluster: string;
  group: GroupDetail;
  /** After anything was written (a preview, an execution, an undo): refresh the group and history. */
  onChanged: () => void;
  onClose: () => void;
}

/** A request that failed, with the body it sent (to place a 400 next to its field). */
interface Failure {
  error: Error;
  body: ResetRequest | null;
  action: "preview" | "execute";
}

const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));

function initialForm(group: GroupDetail): ResetForm {
  return {
    topics: groupTopics(group).map((topic) => ({
      topic,
      selected: true,
      partitions: "",
      partitionCount: null,
      ofGroup: true,
    })),
    strategy: "earliest",
    offset: "",
    shift: "",
    datetime: "",
    zone: UTC_ZONE,
    duration: "",
    csv: "",
    reason: "",
  };
}

/**
 * The offset reset wizard of a group page, in one panel: 1 scope (topics and
 * partitions), 2 strategy with its input, 3 reason, 4 preview (a dry run: the
 * plan per partition), 5 execute after typing the group id, then the result
 * and an undo. Executing needs the preview of exactly the current inputs.
 */
export function ResetWizard({ cluster, group, onChanged, onClose }: ResetWizardProps) {
  const groupId = group.group_id;
  const [form, setForm] = useState<ResetForm>(() => initialForm(group));
  const [clusterTopics, setClusterTopics] = useState<TopicSummary[] | null>(null);
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState<"preview" | "execute" | "undo" | null>(null);
  const [preview, setPreview] = useState<{ body: ResetRequest; reset: OffsetReset } | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [confirmText, setConfirmText] = useState("");
  const [executed, setExecuted] = useState<OffsetReset | null>(null);
  const [undoReason, setUndoReason] = useState("");
  const [undone, setUndone] = useState<OffsetReset | null>(null);
  const [undoError, setUndoError] = useState<Error | null>(null);
  const ids = { reason: useId(), strategy: useId(), confirm: useId(), undo: useId() };

  // Partition counts (for checking "0,1,4") and the topic search: every topic of the cluster.
  useEffect(() => {
    const controller = new AbortController();
    listTopics(cluster, { includeInternal: false }, controller.signal).then(
      (topics) => setClusterTopics(topics),
      (err: unknown) => {
        if (!isAbortError(err)) setClusterTopics([]);
      },
    );
    return () => controller.abort();
  }, [cluster]);

  const counts = useMemo(() => new Map((clusterTopics ?? []).map((t) => [t.name, t.partition_count])), [clusterTopics]);
  const formWithCounts: ResetForm = useMemo(
    () => ({ ...form, topics: form.topics.map((t) => ({ ...t, partitionCount: counts.get(t.topic) ?? null })) }),
    [form, counts],
  );
  const built = useMemo(() => buildResetRequest(formWithCounts, true), [formWithCounts]);
  const localErrors = built.ok ? {} : built.errors;
  const previewCurrent = preview !== null && built.ok && samePlanInputs(preview.body, built.body);

  const set = (change: Partial<ResetForm>) => setForm((f) => ({ ...f, ...change }));
  const setTopic = (topic: string, change: Partial<ScopeTopic>) =>
    setForm((f) => ({ ...f, topics: f.topics.map((t) => (t.topic === topic ? { ...t, ...change } : t)) }));

  const place: ErrorPlace = failure ? errorPlace(failure.error, failure.body) : { area: null };
  const serverError = (area: ErrorPlace["area"], topic?: string) =>
    failure && place.area === area && place.topic === topic ? failure.error : null;

  const onPreview = async () => {
    setAttempted(true);
    if (!built.ok) return;
    const body = built.body;
    setBusy("preview");
    setFailure(null);
    try {
      const reset = await createOffsetReset(cluster, groupId, body);
      setPreview({ body, reset });
      setExecuted(null);
      setUndone(null);
      setUndoError(null);
      onChanged();
    } catch (err) {
      setFailure({ error: asError(err), body, action: "preview" });
    } finally {
      setBusy(null);
    }
  };

  const reason = form.reason.trim();
  const confirmed = confirmText === groupId;
  const canExecute =
    previewCurrent && preview!.reset.plan.length > 0 && confirmed && reason !== "" && busy === null && !executed;

  const onExecute = async () => {
    if (!canExecute || !built.ok) return;
    const body: ResetRequest = { ...built.body, dry_run: false, reason };
    setBusy("execute");
    setFailure(null);
    try {
      // Executes the previewed plan itself; the server refuses (409) if it no longer holds.
      const reset = await executeOffsetReset(preview!.reset.id, reason);
      setExecuted(reset);
      setUndoReason(`Undo of reset #${reset.id}`);
      setUndone(null);
      setUndoError(null);
      onChanged();
    } catch (err) {
      setFailure({ error: asError(err), body, action: "execute" });
    } finally {
      setBusy(null);
    }
  };

  const onUndo = async () => {
    if (!executed || !undoReason.trim()) return;
    setBusy("undo");
    setUndoError(null);
    try {
      const reset = await undoOffsetReset(executed.id, undoReason.trim());
      setUndone(reset);
      onChanged();
    } catch (err) {
      setUndoError(asError(err));
    } finally {
      setBusy(null);
    }
  };

  const startOver = () => {
    setPreview(null);
    setExecuted(null);
    setUndone(null);
    setUndoError(null);
    setFailure(null);
    setConfirmText("");
    setAttempted(false);
  };

  const members = group.members.length;
  const fromFile = form.strategy === "from_file";
  const bannerFailure = failure && place.area === null && !isGroupActive(failure.error) ? failure : null;

  const executeHint = !preview
    ? "Preview first: execution runs exactly the previewed inputs."
    : !previewCurrent
      ? "The inputs changed since the preview: preview again."
      : preview.reset.plan.length === 0
        ? "The preview has no partition: nothing to execute."
        : reason === ""
          ? "Give a reason (step 3)."
          : !confirmed
            ? `Type the group id ${groupId} exactly.`
            : null;

  return (
    <section className="wizard" aria-label="Reset offsets" data-testid="reset-wizard">
      <div className="wizard-head">
        <h2>Reset offsets of {groupId}</h2>
        <button type="button" className="button button-small" onClick={onClose} data-testid="reset-close">
          Close
        </button>
      </div>
      <p className="muted wizard-intro">
        Moves the group&apos;s committed offsets, as <code>kafka-consumer-groups.sh --reset-offsets</code> does. Nothing
        changes until you execute; the group must have no running member then.
      </p>

      {/* 1. Scope */}
      <fieldset className={fromFile ? "wizard-step step-disabled" : "wizard-step"} data-testid="reset-scope">
        <legend className="step-title">
          <span className="step-number">1</span> Scope: which partitions
        </legend>
        {fromFile ? (
          <p className="muted">The CSV names the partitions; the scope is ignored for “From CSV file”.</p>
        ) : (
          <ScopePicker
            topics={form.topics}
            counts={counts}
            clusterTopics={clusterTopics}
            localErrors={localErrors}
            serverError={serverError}
            onTopic={setTopic}
            onAdd={(topic) =>
              setForm((f) =>
                f.topics.some((t) => t.topic === topic)
                  ? { ...f, topics: f.topics.map((t) => (t.topic === topic ? { ...t, selected: true } : t)) }
                  : {
                      ...f,
                      topics: [...f.topics, { topic, selected: true, partitions: "", partitionCount: null, ofGroup: false }],
                    },
              )
            }
            onAll={(selected) => setForm((f) => ({ ...f, topics: f.topics.map((t) => ({ ...t, selected })) }))}
            showEmpty={attempted}
          />
        )}
        {!fromFile && <FieldError error={serverError("scope")} field={place.field} testId="field-error-scope" />}
      </fieldset>

      {/* 2. Strategy */}
      <fieldset className="wizard-step" data-testid="reset-strategy">
        <legend className="step-title">
          <span className="step-number">2</span> Strategy: where each partition goes
        </legend>
        <div className="field">
          <label htmlFor={ids.strategy} className="field-label">
            New offset
          </label>
          <select
            id={ids.strategy}
            className="input"
            value={form.strategy}
            onChange={(event) => set({ strategy: event.target.value as ResetStrategyType })}
            data-testid="strategy-select"
          >
            {STRATEGIES.map((s) => (
              <option key={s.type} value={s.type}>
                {s.label}
              </option>
            ))}
          </select>
          <p className="field-hint" data-testid="strategy-help">
            {strategyInfo(form.strategy)?.help}
          </p>
        </div>
        <StrategyInput form={form} set={set} invalid={place.area === "strategy" || (attempted && !!localErrors.strategy)} />
        {attempted && localErrors.strategy && !serverError("strategy") && (
          <p className="field-error" role="alert" data-testid="field-error-strategy" data-field="local">
            {localErrors.strategy}
          </p>
        )}
        <FieldError error={serverError("strategy")} field={place.field} testId="field-error-strategy">
          {form.strategy === "from_file" && <CsvLine error={serverError("strategy")} csv={form.csv} />}
        </FieldError>
      </fieldset>

      {/* 3. Reason */}
      <fieldset className="wizard-step">
        <legend className="step-title">
          <span className="step-number">3</span> Reason
        </legend>
        <label htmlFor={ids.reason} className="visually-hidden">
          Reason
        </label>
        <textarea
          id={ids.reason}
          className="input input-wide"
          rows={2}
          placeholder="Why, e.g. INC-1234: replay the orders lost by the bad deploy at 02:10"
          value={form.reason}
          onChange={(event) => set({ reason: event.target.value })}
          aria-invalid={place.area === "reason"}
          data-testid="reset-reason"
        />
        <p className="field-hint">Kept in the audit log and the reset history. Required to execute.</p>
        <FieldError error={serverError("reason")} field={place.field} testId="field-error-reason" />
      </fieldset>

      {/* 4. Preview */}
      <fieldset className="wizard-step">
        <legend className="step-title">
          <span className="step-number">4</span> Preview (dry run: nothing changes)
        </legend>
        <div className="action-row">
          <button
            type="button"
            className="button button-primary"
            onClick={() => void onPreview()}
            disabled={busy !== null}
            data-testid="reset-preview"
          >
            {busy === "preview" ? "Planning…" : preview ? "Preview again" : "Preview"}
          </button>
          {attempted && !built.ok && (
            <span className="field-error" role="alert" data-testid="preview-blocked">
              Fix the marked {plural(Object.keys(localErrors).length, "input")} first.
            </span>
          )}
        </div>
        {bannerFailure?.action === "preview" && (
          <ErrorBanner error={bannerFailure.error} title="The preview failed" />
        )}
        {preview && (
          <div className={previewCurrent ? "preview" : "preview stale-preview"} data-testid="reset-preview-result">
            {!previewCurrent && (
              <p className="notice notice-warn" data-testid="preview-stale">
                The inputs changed since this preview (#{preview.reset.id}). Preview again before executing.
              </p>
            )}
            <PlanTotals plan={preview.reset.plan} />
            <PlanTable plan={preview.reset.plan} />
          </div>
        )}
      </fieldset>

      {/* 5. Execute */}
      <fieldset className="wizard-step step-danger">
        <legend className="step-title">
          <span className="step-number">5</span> Execute
        </legend>
        {members > 0 && !executed && (
          <p className="notice notice-warn" data-testid="reset-active-warning">
            The group has {members} running {plural(members, "member")} (state {group.state}). Kafka refuses to change
            the offsets of an active group: stop every consumer of <strong className="mono">{groupId}</strong> first.
            You can preview meanwhile.
          </p>
        )}
        {failure && isGroupActive(failure.error) && (
          <div className="blocked" role="alert" data-testid="reset-blocked">
            <strong>Not executed: the group is active.</strong>
            <p>{failure.error.message}</p>
            <p className="muted">
              Stop every consumer of this group, wait until its state is Empty, then execute again. No offset was
              changed.
            </p>
          </div>
        )}
        {!executed ? (
          <form
            className="execute-form"
            onSubmit={(event) => {
              event.preventDefault();
              void onExecute();
            }}
          >
            <label htmlFor={ids.confirm} className="field-label">
              Type <code className="confirm-expected">{groupId}</code> to confirm
            </label>
            <div className="action-row">
              <input
                id={ids.confirm}
                className="input mono confirm-input"
                value={confirmText}
                onChange={(event) => setConfirmText(event.target.value)}
                autoComplete="off"
                spellCheck={false}
                disabled={busy === "execute"}
                data-testid="confirm-group-input"
              />
              <button type="submit" className="button button-danger" disabled={!canExecute} data-testid="reset-execute">
                {busy === "execute"
                  ? "Executing…"
                  : preview && previewCurrent
                    ? `Execute on ${formatCount(preview.reset.plan.length)} ${plural(preview.reset.plan.length, "partition")}`
                    : "Execute"}
              </button>
            </div>
            {executeHint && (
              <p className="field-hint" data-testid="execute-hint">
                {executeHint}
              </p>
            )}
            {bannerFailure?.action === "execute" && (
              <>
                <ErrorBanner error={bannerFailure.error} title="The reset was not executed" />
                <StaleChanges error={bannerFailure.error} onPreviewAgain={startOver} />
              </>
            )}
          </form>
        ) : (
          <div data-testid="reset-executed">
            <ResultTable reset={executed} testId="reset-result" />
            {executed.state !== "failed" && !undone && (
              <div className="undo-box">
                <label htmlFor={ids.undo} className="field-label">
                  Undo: restore the offsets from before reset #{executed.id}
                </label>
                <div className="action-row">
                  <input
                    id={ids.undo}
                    className="input undo-reason"
                    value={undoReason}
                    onChange={(event) => setUndoReason(event.target.value)}
                    aria-label="Reason for the undo"
                    data-testid="undo-reason"
                  />
                  <button
                    type="button"
                    className="button button-danger-outline"
                    onClick={() => void onUndo()}
                    disabled={busy !== null || !undoReason.trim()}
                    data-testid="reset-undo"
                  >
                    {busy === "undo" ? "Undoing…" : "Undo"}
                  </button>
                </div>
                {undoError && <UndoError error={undoError} />}
              </div>
            )}
            {undone && <ResultTable reset={undone} testId="undo-result" idPrefix="undo-" />}
            <div className="action-row wizard-foot">
              <button type="button" className="button" onClick={startOver} data-testid="reset-again">
                Start a new reset
              </button>
            </div>
          </div>
        )}
      </fieldset>
    </section>
  );
}

/** A server error shown next to its field, with details.field small. */
function FieldError({
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

function CsvLine({ error, csv }: { error: Error | null; csv: string }) {
  const line = csvErrorLine(error, csv);
  if (!line) return null;
  return (
    <div className="csv-line" data-testid="csv-error-line">
      line {line.number}: <code>{line.text || "(empty)"}</code>
    </div>
  );
}

// ---- step 1: scope ----

interface ScopePickerProps {
  topics: ScopeTopic[];
  counts: Map<string, number>;
  clusterTopics: TopicSummary[] | null;
  localErrors: Record<string, string>;
  serverError: (area: ErrorPlace["area"], topic?: string) => Error | null;
  onTopic: (topic: string, change: Partial<ScopeTopic>) => void;
  onAdd: (topic: string) => void;
  onAll: (selected: boolean) => void;
  showEmpty: boolean;
}

const SEARCH_SHOWN = 8;

function ScopePicker({ topics, counts, clusterTopics, localErrors, serverError, onTopic, onAdd, onAll, showEmpty }: ScopePickerProps) {
  const [search, setSearch] = useState("");
  const selected = topics.filter((t) => t.selected).length;
  const needle = search.trim().toLowerCase();
  const matches = needle
    ? (clusterTopics ?? []).filter((t) => t.name.toLowerCase().includes(needle) && !topics.some((s) => s.topic === t.name && s.selected))
    : [];

  return (
    <>
      <p className="field-hint scope-hint">
        Default: every topic of the group, all partitions (including partitions the group never committed on). Untick
        topics, or type partitions such as <code>0,1,4</code> or <code>0-3</code> to limit a topic.
      </p>
      {topics.length === 0 ? (
        <p className="muted" data-testid="scope-none">
          The group has no committed offsets or assignments: add the topics to reset below.
        </p>
      ) : (
        <table className="table scope-table">
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">Selected</span>
              </th>
              <th scope="col">Topic</th>
              <th scope="col">Partitions (empty = all)</th>
            </tr>
          </thead>
          <tbody>
            {topics.map((t) => {
              const count = counts.get(t.topic);
              const local = t.partitions.trim() ? localErrors[`scope:${t.topic}`] : undefined;
              const remote = serverError("scope", t.topic);
              return (
                <tr key={t.topic} data-testid={`scope-row-${t.topic}`} className={t.selected ? undefined : "row-off"}>
                  <td className="col-check">
                    <input
                      type="checkbox"
                      checked={t.selected}
                      onChange={(event) => onTopic(t.topic, { selected: event.target.checked })}
                      aria-label={`Reset ${t.topic}`}
                      data-testid={`scope-topic-${t.topic}`}
                    />
                  </td>
                  <td className="mono">
                    {t.topic}
                    {!t.ofGroup && <span className="badge badge-info badge-inline">added</span>}
                  </td>
                  <td className="wrap">
                    <input
                      className="input partitions-input mono"
                      value={t.partitions}
                      placeholder={count !== undefined ? `all ${count}` : "all"}
                      onChange={(event) => onTopic(t.topic, { partitions: event.target.value })}
                      disabled={!t.selected}
                      aria-label={`Partitions of ${t.topic}`}
                      aria-invalid={!!(local || remote)}
                      data-testid={`scope-partitions-${t.topic}`}
                    />
                    {local && (
                      <p className="field-error" role="alert" data-testid={`field-error-scope-${t.topic}`}>
                        {local}
                      </p>
                    )}
                    {!local && remote && (
                      <p className="field-error" role="alert" data-testid={`field-error-scope-${t.topic}`}>
                        {remote.message}
                      </p>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <div className="action-row scope-actions">
        {topics.length > 1 && (
          <>
            <button type="button" className="button button-small" onClick={() => onAll(true)} data-testid="scope-all">
              All
            </button>
            <button type="button" className="button button-small" onClick={() => onAll(false)} data-testid="scope-none-button">
              None
            </button>
          </>
        )}
        <span className="muted" data-testid="scope-count" data-count={selected}>
          {selected} of {topics.length} {plural(topics.length, "topic")} selected
        </span>
      </div>
      {showEmpty && selected === 0 && (
        <p className="field-error" role="alert" data-testid="field-error-scope-empty">
          Choose at least one topic.
        </p>
      )}
      <div className="scope-search">
        <input
          type="search"
          className="input"
          placeholder="Add another topic of the cluster…"
          aria-label="Search the cluster's topics"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          data-testid="scope-search"
        />
        {needle && clusterTopics === null && <span className="muted"> loading topics…</span>}
        {needle && clusterTopics !== null && (
          <ul className="search-results" data-testid="scope-search-results">
            {matches.length === 0 && <li className="muted">No other topic matches.</li>}
            {matches.slice(0, SEARCH_SHOWN).map((t) => (
              <li key={t.name}>
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => {
                    onAdd(t.name);
                    setSearch("");
                  }}
                  data-testid={`scope-add-${t.name}`}
                >
                  Add
                </button>{" "}
                <span className="mono">{t.name}</span>{" "}
                <span className="muted">
                  ({t.partition_count} {plural(t.partition_count, "partition")})
                </span>
              </li>
            ))}
            {matches.length > SEARCH_SHOWN && (
              <li className="muted">…and {matches.length - SEARCH_SHOWN} more: type more of the name.</li>
            )}
          </ul>
        )}
      </div>
    </>
  );
}

// ---- step 2: the strategy's input ----

interface StrategyInputProps {
  form: ResetForm;
  set: (change: Partial<ResetForm>) => void;
  invalid: boolean;
}

function zoneLabel(zone: string, now: number): string {
  const offset = formatOffset(zoneOffsetMinutes(zone, now), false);
  return `${zone.replace(/_/g, " ")} (UTC${offset})`;
}

function StrategyInput({ form, set, invalid }: StrategyInputProps) {
  const id = useId();
  switch (form.strategy) {
    case "to_offset":
      return (
        <div className="field">
          <label htmlFor={id} className="field-label">
            Offset
          </label>
          <input
            id={id}
            type="number"
            step={1}
            className="input input-offset"
            value={form.offset}
            onChange={(event) => set({ offset: event.target.value })}
            aria-invalid={invalid}
            data-testid="strategy-offset"
          />
          <p className="field-hint">The same offset on every partition in scope; below log start or above log end it is clamped.</p>
        </div>
      );
    case "shift_by": {
      const n = Number(form.shift);
      return (
        <div className="field">
          <label htmlFor={id} className="field-label">
            Shift by N records
          </label>
          <input
            id={id}
            type="number"
            step={1}
            className="input input-offset"
            value={form.shift}
            onChange={(event) => set({ shift: event.target.value })}
            aria-invalid={invalid}
            data-testid="strategy-shift"
          />
          <p className="field-hint" data-testid="strategy-shift-meaning">
            {form.shift.trim() && Number.isInteger(n) && n !== 0
              ? n < 0
                ? `Goes back ${formatCount(-n)} ${plural(-n, "record")} on each partition: they are read again.`
                : `Goes forward ${formatCount(n)} ${plural(n, "record")} on each partition: they are skipped.`
              : "Negative goes back (re-read), positive goes forward (skip)."}
          </p>
        </div>
      );
    }
    case "to_datetime":
      return <DateTimeInput form={form} set={set} invalid={invalid} />;
    case "by_duration": {
      const ms = parseDuration(form.duration.trim().toUpperCase());
      return (
        <div className="field">
          <label htmlFor={id} className="field-label">
            Duration back from now (ISO-8601)
          </label>
          <div className="action-row">
            <input
              id={id}
              className="input mono input-duration"
              placeholder="PT15M"
              value={form.duration}
              onChange={(event) => set({ duration: event.target.value })}
              aria-invalid={invalid}
              data-testid="strategy-duration"
            />
            {DURATION_PRESETS.map(([iso, label]) => (
              <button
                key={iso}
                type="button"
                className={form.duration.trim().toUpperCase() === iso ? "button button-small active-choice" : "button button-small"}
                onClick={() => set({ duration: iso })}
                data-testid={`duration-${iso}`}
              >
                {label}
              </button>
            ))}
          </div>
          <p className="field-hint">
            <code>PT15M</code> = 15 minutes, <code>PT6H</code> = 6 hours, <code>P1D</code> = 1 day,{" "}
            <code>P2DT3H30M</code> = 2 days 3 hours 30 minutes. Weeks and months are not accepted.
          </p>
          {ms !== null && (
            <p className="strategy-meaning" data-testid="strategy-duration-meaning">
              = {describeDuration(ms)}
              {ms >= 0 ? (
                <>
                  : back to about <strong>{formatUtc(Date.now() - ms)}</strong> ({formatLocal(Date.now() - ms)} local). The
                  server takes “now” when it plans and again when it executes.
                </>
              ) : (
                <>: a negative duration points to the future, so every partition goes to the log end.</>
              )}
            </p>
          )}
        </div>
      );
    }
    case "from_file":
      return (
        <div className="field">
          <label htmlFor={id} className="field-label">
            CSV: topic,partition,offset per line (no header)
          </label>
          <textarea
            id={id}
            className="input input-wide mono"
            rows={6}
            placeholder={"orders,0,1200\norders,1,1187"}
            value={form.csv}
            onChange={(event) => set({ csv: event.target.value })}
            aria-invalid={invalid}
            spellCheck={false}
            data-testid="strategy-csv"
          />
          <div className="action-row">
            <label className="button button-small file-button">
              Load a file…
              <input
                type="file"
                accept=".csv,text/csv,text/plain"
                className="visually-hidden"
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  if (file) void file.text().then((text) => set({ csv: text }));
                  event.target.value = "";
                }}
                data-testid="strategy-csv-file"
              />
            </label>
            <span className="field-hint">
              The format of “Export offsets.csv”; <code>group,topic,partition,offset</code> lines work too (other groups&apos;
              rows are skipped).
            </span>
          </div>
        </div>
      );
    default:
      return null;
  }
}

function DateTimeInput({ form, set, invalid }: StrategyInputProps) {
  const id = useId();
  const zoneId = useId();
  const now = Date.now();
  const browser = browserTimeZone();
  const named = [UTC_ZONE, ...(browser !== UTC_ZONE ? [browser] : []), ...COMMON_ZONES.filter((z) => z !== browser)];
  const known = named.includes(form.zone) || FIXED_OFFSETS.includes(form.zone);
  const at = zonedToInstant(form.datetime, form.zone);
  const setWall = (ms: number) => set({ datetime: wallTimeIn(ms, form.zone) });
  const startOfToday = () => {
    const today = wallTimeIn(now, form.zone).slice(0, 10);
    set({ datetime: `${today}T00:00:00.000` });
  };

  return (
    <div className="field">
      <div className="field-row datetime-row">
        <div className="field">
          <label htmlFor={id} className="field-label">
            Date and time
          </label>
          <input
            id={id}
            type="datetime-local"
            step={0.001}
            className="input mono"
            value={form.datetime}
            onChange={(event) => set({ datetime: event.target.value })}
            aria-invalid={invalid}
            data-testid="strategy-datetime"
          />
        </div>
        <div className="field">
          <label htmlFor={zoneId} className="field-label">
            in time zone
          </label>
          <select
            id={zoneId}
            className="input"
            value={form.zone}
            onChange={(event) => set({ zone: event.target.value })}
            data-testid="strategy-tz"
          >
            {!known && <option value={form.zone}>{form.zone}</option>}
            <optgroup label="Zones">
              {named.map((zone) => (
                <option key={zone} value={zone}>
                  {zone === UTC_ZONE ? "UTC" : zone === browser ? `${zoneLabel(zone, now)} — this browser` : zoneLabel(zone, now)}
                </option>
              ))}
            </optgroup>
            <optgroup label="Fixed UTC offset">
              {FIXED_OFFSETS.map((offset) => (
                <option key={offset} value={offset}>
                  UTC{offset}
                </option>
              ))}
            </optgroup>
          </select>
        </div>
      </div>
      <div className="action-row">
        <button type="button" className="button button-small" onClick={() => setWall(now)} data-testid="datetime-now">
          Now
        </button>
        <button type="button" className="button button-small" onClick={() => setWall(now - 15 * 60_000)}>
          15 min ago
        </button>
        <button type="button" className="button button-small" onClick={() => setWall(now - 3_600_000)}>
          1 h ago
        </button>
        <button type="button" className="button button-small" onClick={startOfToday}>
          Today 00:00
        </button>
      </div>
      {at ? (
        <p className="strategy-meaning" data-testid="strategy-utc" data-iso={at.iso} data-ms={at.ms}>
          Sends <code data-testid="strategy-iso">{at.iso}</code> = <strong>{formatUtc(at.ms)}</strong> ({formatLocal(at.ms)}{" "}
          local, {formatAgo(at.ms, now)})
          {at.nonexistent && (
            <span className="field-error" data-testid="strategy-tz-gap">
              {" "}
              This wall-clock time does not exist in {form.zone} (the clocks jumped over it).
            </span>
          )}
          {at.ms > now && <span className="move-forward"> — in the future: every partition will go to the log end.</span>}
        </p>
      ) : (
        <p className="field-hint">
          Milliseconds count; with no record at or after this time a partition goes to the log end.
        </p>
      )}
    </div>
  );
}

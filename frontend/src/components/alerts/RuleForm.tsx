import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { createAlertRule, updateAlertRule, type AlertRule, type AlertStatus } from "../../api/alerts";
import type { ClusterSummary } from "../../api/types";
import {
  ALERT_STATUSES,
  CHANNELS,
  checkRule,
  newRuleValues,
  placeRuleErrors,
  repeatWords,
  ruleBody,
  rulePatch,
  ruleValues,
  TIME_UNITS,
  toSeconds,
  type RuleFormErrors,
  type RuleFormValues,
  type SilenceRow,
  type TimeUnit,
} from "../../lib/alertRules";
import { LAG_STATUS_HELP } from "../../lib/lagStatus";
import { UTC_ZONE } from "../../lib/time";
import { ErrorBanner } from "../ErrorBanner";
import { Field } from "../Field";
import { FieldErrors } from "../FieldErrors";
import { SilenceWindows } from "./SilenceWindows";

interface RuleFormProps {
  /** The rule to edit; null: a new one. */
  rule: AlertRule | null;
  /** The registered clusters (GET clusters), for the cluster select. */
  clusters: ClusterSummary[] | undefined;
  onSaved: (rule: AlertRule) => void;
  onCancel: () => void;
}

/**
 * A lag alert rule, new or edited: name, cluster, group pattern, the conditions (statuses, the
 * lag in seconds, minutes or hours, the retention risk; at least one), channel and target, how
 * often to tell again, silence windows, enabled. Every problem shows at once beside its field, in
 * plain words; the server's 400 likewise. Editing sends only what changed, and the target only
 * when a new one is typed (the rule's shows masked).
 */
export function RuleForm({ rule, clusters, onSaved, onCancel }: RuleFormProps) {
  const nextId = useRef(1);
  const newId = () => nextId.current++;
  const [values, setValues] = useState<RuleFormValues>(() =>
    rule ? ruleValues(rule, newId) : newRuleValues(clusters?.length === 1 ? clusters[0]!.name : ""),
  );
  const [errors, setErrors] = useState<RuleFormErrors>({});
  const [banner, setBanner] = useState<Error | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const card = useRef<HTMLFormElement>(null);

  // Opened below the toolbar: brought into view (Edit on a row far down the table).
  useEffect(() => {
    card.current?.scrollIntoView?.({ block: "nearest" });
  }, []);

  // The only cluster: chosen once the list arrives.
  useEffect(() => {
    if (!rule && clusters?.length === 1) setValues((v) => (v.cluster ? v : { ...v, cluster: clusters[0]!.name }));
  }, [rule, clusters]);

  /** Editing a field clears what was said about it. */
  const clear = (...fields: string[]) => {
    if (fields.some((f) => errors[f])) {
      setErrors((current) => Object.fromEntries(Object.entries(current).filter(([f]) => !fields.includes(f))));
    }
  };
  const set = (change: Partial<RuleFormValues>, ...fields: string[]) => {
    clear(...fields);
    setValues((v) => ({ ...v, ...change }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBanner(null);
    const local = checkRule(values, rule);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    setBusy(true);
    try {
      if (rule) {
        const patch = rulePatch(values, rule);
        onSaved(Object.keys(patch).length ? await updateAlertRule(rule.id, patch) : rule);
      } else {
        onSaved(await createAlertRule(ruleBody(values)));
      }
    } catch (err) {
      const placed = placeRuleErrors(err);
      setErrors(placed.fields);
      setBanner(placed.banner);
      setBusy(false);
    }
  };

  const toggleStatus = (status: AlertStatus, on: boolean) =>
    set(
      { statuses: ALERT_STATUSES.filter((s) => (s === status ? on : values.statuses.includes(s))) },
      "statuses",
    );

  const unitSelect = (value: TimeUnit, onChange: (unit: TimeUnit) => void, label: string, testId: string) => (
    <select
      className="input"
      value={value}
      onChange={(event) => onChange(event.target.value as TimeUnit)}
      aria-label={label}
      data-testid={testId}
    >
      {TIME_UNITS.map((unit) => (
        <option key={unit.value} value={unit.value}>
          {unit.label}
        </option>
      ))}
    </select>
  );

  const channel = CHANNELS.find((c) => c.value === values.channel) ?? CHANNELS[0]!;
  const repeat = toSeconds(values.repeatAmount, values.repeatUnit);
  const clusterNames = (clusters ?? []).map((c) => c.name);
  // A rule's cluster no longer registered (or the list not loaded yet) stays choosable.
  if (values.cluster && !clusterNames.includes(values.cluster)) clusterNames.unshift(values.cluster);
  const emptyWall = { datetime: "", zone: UTC_ZONE };

  return (
    <form
      ref={card}
      className="form-card rule-form"
      onSubmit={(event) => void onSubmit(event)}
      noValidate
      data-testid="rule-form"
      data-mode={rule ? "edit" : "create"}
    >
      <h2>{rule ? <>Edit rule “{rule.name}”</> : "New rule"}</h2>

      <Field label="Name" htmlFor={`${id}-name`}>
        <input
          id={`${id}-name`}
          className="input input-wide"
          value={values.name}
          onChange={(event) => set({ name: event.target.value }, "name")}
          autoComplete="off"
          autoFocus
          aria-invalid={!!errors.name}
          data-testid="rule-name"
        />
        <FieldErrors messages={errors.name} testId="field-error-name" />
      </Field>

      <div className="field-row">
        <Field label="Cluster" htmlFor={`${id}-cluster`}>
          <select
            id={`${id}-cluster`}
            className="input"
            value={values.cluster}
            onChange={(event) => set({ cluster: event.target.value }, "cluster")}
            aria-invalid={!!errors.cluster}
            data-testid="rule-cluster"
          >
            <option value="">Choose a cluster…</option>
            {clusterNames.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
          <FieldErrors messages={errors.cluster} testId="field-error-cluster" />
        </Field>
        <Field label="Group pattern" htmlFor={`${id}-pattern`}>
          <input
            id={`${id}-pattern`}
            className="input mono"
            value={values.groupPattern}
            onChange={(event) => set({ groupPattern: event.target.value }, "group_pattern")}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={!!errors.group_pattern}
            data-testid="rule-pattern"
          />
          <p className="field-hint">
            A glob over group ids: <code>*</code> any text, <code>?</code> one character, <code>[abc]</code> one of;{" "}
            <code>*</code> alone watches every group, <code>billing-*</code> those starting “billing-”.
          </p>
          <FieldErrors messages={errors.group_pattern} testId="field-error-group_pattern" />
        </Field>
      </div>

      <fieldset className="field" data-testid="rule-conditions">
        <legend className="field-label">Fires while any of these holds (at least one)</legend>
        <div className="rule-statuses">
          <span className="rule-condition-label">The group&apos;s lag status is</span>
          {ALERT_STATUSES.map((status) => (
            <label key={status} className="checkbox" title={LAG_STATUS_HELP[status]}>
              <input
                type="checkbox"
                checked={values.statuses.includes(status)}
                onChange={(event) => toggleStatus(status, event.target.checked)}
                data-testid={`rule-status-${status}`}
              />
              {status}
            </label>
          ))}
        </div>
        <div className="inline-form rule-lag">
          <label htmlFor={`${id}-lag`} className="rule-condition-label">
            Lag behind more than
          </label>
          <input
            id={`${id}-lag`}
            type="number"
            min={0}
            step="any"
            className="input input-number"
            value={values.lagAmount}
            onChange={(event) => set({ lagAmount: event.target.value }, "lag_seconds_over", "statuses")}
            aria-invalid={!!errors.lag_seconds_over}
            data-testid="rule-lag"
          />
          {unitSelect(values.lagUnit, (lagUnit) => set({ lagUnit }, "lag_seconds_over"), "Lag unit", "rule-lag-unit")}
        </div>
        <p className="field-hint">The age of the group&apos;s oldest unread record. Empty: no lag condition.</p>
        <FieldErrors messages={errors.lag_seconds_over} testId="field-error-lag_seconds_over" />
        <label className="checkbox rule-retention">
          <input
            type="checkbox"
            checked={values.retentionRisk}
            onChange={(event) => set({ retentionRisk: event.target.checked }, "retention_risk", "statuses")}
            data-testid="rule-retention"
          />
          Retention deleted, or may soon delete, records the group has not read
        </label>
        <FieldErrors messages={errors.retention_risk} testId="field-error-retention_risk" />
        <FieldErrors messages={errors.statuses} testId="field-error-statuses" />
      </fieldset>

      <div className="field-row">
        <Field label="Channel" htmlFor={`${id}-channel`}>
          <select
            id={`${id}-channel`}
            className="input"
            value={values.channel}
            onChange={(event) => set({ channel: event.target.value as RuleFormValues["channel"] }, "channel", "target")}
            aria-invalid={!!errors.channel}
            data-testid="rule-channel"
          >
            {CHANNELS.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
          <FieldErrors messages={errors.channel} testId="field-error-channel" />
        </Field>
        <Field label={values.channel === "email" ? "Email addresses" : "URL"} htmlFor={`${id}-target`}>
          <input
            id={`${id}-target`}
            className="input input-wide mono"
            value={values.target}
            placeholder={rule ? "unchanged" : channel.placeholder}
            onChange={(event) => set({ target: event.target.value }, "target")}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={!!errors.target}
            data-testid="rule-target"
          />
          <p className="field-hint">{channel.hint}</p>
          {rule && (
            <p className="field-hint" data-testid="rule-target-kept">
              Now <code>{rule.target}</code>: a URL is shown only up to its host (it is a secret). Leave this empty to keep
              it; type a new one to replace it.
            </p>
          )}
          <FieldErrors messages={errors.target} testId="field-error-target" />
        </Field>
      </div>

      <Field label="Tell again while it fires, every" htmlFor={`${id}-repeat`}>
        <div className="inline-form">
          <input
            id={`${id}-repeat`}
            type="number"
            min={0}
            step={1}
            className="input input-number"
            value={values.repeatAmount}
            onChange={(event) => set({ repeatAmount: event.target.value }, "repeat_interval_s")}
            aria-invalid={!!errors.repeat_interval_s}
            data-testid="rule-repeat"
          />
          {unitSelect(values.repeatUnit, (repeatUnit) => set({ repeatUnit }, "repeat_interval_s"), "Repeat unit", "rule-repeat-unit")}
        </div>
        <p className="field-hint" data-testid="rule-repeat-words">
          0: tell once.{repeat !== null && Number.isInteger(repeat) ? ` Now: ${repeatWords(repeat)}.` : ""}
        </p>
        <FieldErrors messages={errors.repeat_interval_s} testId="field-error-repeat_interval_s" />
      </Field>

      <SilenceWindows
        rows={values.silences}
        errors={errors}
        onChange={(rowId, change) => {
          const index = values.silences.findIndex((r) => r.id === rowId);
          clear(`silence-${index}`, "silences");
          setValues((v) => ({ ...v, silences: v.silences.map((r) => (r.id === rowId ? { ...r, ...change } : r)) }));
        }}
        onAdd={() => {
          const row: SilenceRow = { id: newId(), starts: emptyWall, ends: emptyWall };
          clear("silences");
          setValues((v) => ({ ...v, silences: [...v.silences, row] }));
        }}
        onRemove={(rowId) => {
          // The rows after it move up: what was said of them no longer fits.
          setErrors((current) => Object.fromEntries(Object.entries(current).filter(([f]) => !f.startsWith("silence"))));
          setValues((v) => ({ ...v, silences: v.silences.filter((r) => r.id !== rowId) }));
        }}
      />

      <div className="field">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={values.enabled}
            onChange={(event) => set({ enabled: event.target.checked }, "enabled")}
            data-testid="rule-enabled"
          />
          Enabled
        </label>
        <p className="field-hint">A disabled rule is kept but sends nothing.</p>
        <FieldErrors messages={errors.enabled} testId="field-error-enabled" />
      </div>

      {banner && <ErrorBanner error={banner} title={rule ? "Could not save the rule" : "Could not create the rule"} />}

      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy} data-testid="rule-submit">
          {busy ? "Saving…" : rule ? "Save changes" : "Create rule"}
        </button>
        <button type="button" className="button" onClick={onCancel} disabled={busy} data-testid="rule-cancel">
          Cancel
        </button>
      </div>
    </form>
  );
}

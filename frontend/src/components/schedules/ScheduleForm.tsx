import { useEffect, useId, useMemo, useRef, useState } from "react";
import { createSchedule } from "../../api/endpoints";
import type { ScheduleDetail } from "../../api/types";
import { useSparkFormData } from "../../hooks/useSparkFormData";
import {
  checkSchedule,
  CRON_EXAMPLE,
  EVERY_MINUTES_MAX,
  everyWords,
  newScheduleValues,
  NO_SCHEDULE_ERRORS,
  placeScheduleErrors,
  scheduleBody,
  type ScheduleErrors,
  type ScheduleField,
  type ScheduleFormValues,
  type TimingMode,
} from "../../lib/schedules";
import { formSchema } from "../../lib/sparkForm";
import { COMMON_ZONES, UTC_ZONE } from "../../lib/time";
import { ErrorBanner } from "../ErrorBanner";
import { Field } from "../Field";
import { FieldErrors } from "../FieldErrors";
import { SparkFormNotices } from "../sparkJobs/SparkFormNotices";
import { ClusterSelect } from "../sparkJobs/ClusterSelect";
import { SparkParamsForm } from "../sparkJobs/SparkParamsForm";

interface ScheduleFormProps {
  onCreated: (schedule: ScheduleDetail) => void;
  onCancel: () => void;
  /** As SparkParamsForm's (tests; default: Ajv where the page's CSP lets it compile). */
  checkInBrowser?: boolean;
}

/**
 * A new schedule: the job type (the catalog's), the cluster, the timing (a cron expression in a
 * time zone, or every N minutes), enabled, then the job type's params as the Spark submit form
 * shows them (SparkParamsForm, checked in the browser against the type's schema). Every problem
 * shows at once beside its field; a refusal's (400) likewise, `params.<name>` beside that param,
 * the rest in a banner. Loaded lazily with the form library.
 */
export function ScheduleForm({ onCreated, onCancel, checkInBrowser }: ScheduleFormProps) {
  const [askedCluster, setAskedCluster] = useState<string | null>(null);
  const { types, clusters, cluster, formProps } = useSparkFormData(askedCluster, setAskedCluster);
  const canSubmit = formProps.canSubmit;
  const [values, setValues] = useState<ScheduleFormValues>(() => newScheduleValues("", ""));
  const [errors, setErrors] = useState<ScheduleErrors>(NO_SCHEDULE_ERRORS);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const card = useRef<HTMLDivElement>(null);

  // Opened below the toolbar: brought into view.
  useEffect(() => {
    card.current?.scrollIntoView?.({ block: "nearest" });
  }, []);

  // The first job type until another is chosen.
  const jobType = types.data?.find((t) => t.name === values.jobType) ?? types.data?.[0];
  const schema = useMemo(() => (jobType ? formSchema(jobType.params_schema) : null), [jobType]);
  const current: ScheduleFormValues = { ...values, jobType: jobType?.name ?? "", cluster };

  /** Editing a field clears what was said about it (and about the request as a whole). */
  const set = (change: Partial<ScheduleFormValues>, ...fields: ScheduleField[]) => {
    setErrors((e) => ({
      ...e,
      banner: null,
      fields: Object.fromEntries(Object.entries(e.fields).filter(([f]) => !fields.includes(f as ScheduleField))),
    }));
    setValues((v) => ({ ...v, ...change }));
  };
  const setMode = (mode: TimingMode) => {
    if (mode !== values.mode) set({ mode }, "cron", "timezone", "every_minutes");
  };

  const onSubmit = async (params: Record<string, unknown>) => {
    const local = checkSchedule(current);
    if (Object.keys(local).length > 0) {
      setErrors({ ...NO_SCHEDULE_ERRORS, fields: local });
      return;
    }
    setBusy(true);
    setErrors(NO_SCHEDULE_ERRORS);
    try {
      onCreated(await createSchedule(scheduleBody(current, params)));
    } catch (err) {
      setErrors(placeScheduleErrors(err, schema ?? {}));
      setBusy(false);
    }
  };

  const disabled = !canSubmit || busy;
  const fieldErrors = (field: ScheduleField) => errors.fields[field];
  const invalid = (field: ScheduleField) => (errors.fields[field]?.length ?? 0) > 0;
  const everyMinutes = Number(values.every);
  const everyHint =
    values.every.trim() && Number.isInteger(everyMinutes) && everyMinutes >= 1 && everyMinutes <= EVERY_MINUTES_MAX
      ? `Runs ${everyWords(everyMinutes)}.`
      : `1 to ${EVERY_MINUTES_MAX.toLocaleString("en-US")} minutes.`;

  return (
    <div ref={card} className="form-card spark-form schedule-form" data-testid="schedule-form">
      <h2>New schedule</h2>
      <SparkFormNotices action="create schedules" clusters={clusters} />
      {types.error && !types.data && (
        <p className="inline-error" role="alert">
          Could not load the job types: {types.error.message}
        </p>
      )}

      <div className="field-row">
        <Field label={<>Job type<span className="required">*</span></>} htmlFor={`${id}-type`}>
          <select
            id={`${id}-type`}
            className="input"
            value={jobType?.name ?? ""}
            onChange={(event) => {
              // The new type's params form starts empty: what was said of the old one's goes.
              setErrors((e) => ({ ...e, params: [] }));
              set({ jobType: event.target.value }, "job_type");
            }}
            disabled={disabled || !types.data}
            aria-invalid={invalid("job_type")}
            data-testid="schedule-job-type"
          >
            {!types.data && <option value="">Loading job types…</option>}
            {types.data?.map((type) => (
              <option key={type.name} value={type.name}>
                {type.name} · {type.title}
              </option>
            ))}
          </select>
          {jobType && <p className="field-hint">{jobType.description}</p>}
          <FieldErrors messages={fieldErrors("job_type")} testId="field-error-job_type" />
        </Field>
        <Field label={<>Cluster<span className="required">*</span></>} htmlFor={`${id}-cluster`}>
          <ClusterSelect
            id={`${id}-cluster`}
            clusters={clusters.data}
            value={cluster}
            onChange={(name) => {
              set({}, "cluster");
              setAskedCluster(name);
            }}
            disabled={disabled}
            invalid={invalid("cluster")}
            testId="schedule-cluster"
          />
          <FieldErrors messages={fieldErrors("cluster")} testId="field-error-cluster" />
        </Field>
      </div>

      <fieldset className="field schedule-timing" disabled={disabled}>
        <legend className="field-label">When</legend>
        <div className="schedule-timing-choice">
          <label className="checkbox">
            <input
              type="radio"
              name={`${id}-mode`}
              checked={values.mode === "cron"}
              onChange={() => setMode("cron")}
              data-testid="schedule-timing-cron"
            />
            At the times of a cron expression
          </label>
          <div className={values.mode === "cron" ? "schedule-timing-inputs" : "schedule-timing-inputs schedule-timing-off"}>
            <div>
              <input
                className="input mono"
                aria-label="Cron expression"
                value={values.cron}
                placeholder={CRON_EXAMPLE}
                onFocus={() => setMode("cron")}
                onChange={(event) => set({ cron: event.target.value, mode: "cron" }, "cron", "every_minutes")}
                autoComplete="off"
                spellCheck={false}
                aria-invalid={invalid("cron")}
                data-testid="schedule-cron"
              />
              <FieldErrors messages={fieldErrors("cron")} testId="field-error-cron" />
            </div>
            <span className="muted">in</span>
            <div>
              <input
                className="input"
                aria-label="Time zone"
                list={`${id}-zones`}
                value={values.timezone}
                placeholder={UTC_ZONE}
                onFocus={() => setMode("cron")}
                onChange={(event) => set({ timezone: event.target.value, mode: "cron" }, "timezone")}
                autoComplete="off"
                spellCheck={false}
                aria-invalid={invalid("timezone")}
                data-testid="schedule-timezone"
              />
              <datalist id={`${id}-zones`}>
                {[UTC_ZONE, ...COMMON_ZONES].map((zone) => (
                  <option key={zone} value={zone} />
                ))}
              </datalist>
              <FieldErrors messages={fieldErrors("timezone")} testId="field-error-timezone" />
            </div>
          </div>
          <p className="field-hint">
            Five fields: minute hour day month weekday; <code>{CRON_EXAMPLE}</code> is every day at 01:30 in the zone (an
            IANA name such as Europe/Paris).
          </p>
        </div>
        <div className="schedule-timing-choice">
          <label className="checkbox">
            <input
              type="radio"
              name={`${id}-mode`}
              checked={values.mode === "every"}
              onChange={() => setMode("every")}
              data-testid="schedule-timing-every"
            />
            Every N minutes
          </label>
          <div className={values.mode === "every" ? "schedule-timing-inputs" : "schedule-timing-inputs schedule-timing-off"}>
            <div>
              <input
                type="number"
                min={1}
                max={EVERY_MINUTES_MAX}
                step={1}
                className="input input-number"
                aria-label="Minutes between runs"
                value={values.every}
                onFocus={() => setMode("every")}
                onChange={(event) => set({ every: event.target.value, mode: "every" }, "every_minutes", "cron")}
                aria-invalid={invalid("every_minutes")}
                data-testid="schedule-every"
              />
              <FieldErrors messages={fieldErrors("every_minutes")} testId="field-error-every_minutes" />
            </div>
            <span className="muted">minutes</span>
          </div>
          <p className="field-hint" data-testid="schedule-every-hint">
            {everyHint}
          </p>
        </div>
      </fieldset>

      <div className="field">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={values.enabled}
            onChange={(event) => set({ enabled: event.target.checked }, "enabled")}
            disabled={disabled}
            data-testid="schedule-enabled"
          />
          Enabled
        </label>
        <p className="field-hint">A disabled schedule is kept but starts no job until it is enabled again.</p>
        <FieldErrors messages={fieldErrors("enabled")} testId="field-error-enabled" />
      </div>

      {errors.banner && (
        <div data-testid="schedule-error">
          <ErrorBanner error={errors.banner} title="Could not create the schedule" />
        </div>
      )}

      {jobType ? (
        <section className="schedule-params-form" aria-label={`${jobType.title}: params`}>
          <h3>Params of {jobType.title}</h3>
          <SparkParamsForm
            key={jobType.name}
            jobType={jobType}
            topics={formProps.topics}
            errors={errors.params}
            onErrorsChange={(params) => setErrors((e) => ({ ...e, params }))}
            disabled={disabled}
            onSubmit={(params) => void onSubmit(params)}
            // The params' problems are at their fields: the timing's are shown with them.
            onInvalid={() => setErrors({ ...NO_SCHEDULE_ERRORS, fields: checkSchedule(current) })}
            checkInBrowser={checkInBrowser}
          >
            <div className="form-actions">
              <button type="submit" className="button button-primary" disabled={disabled || !cluster} data-testid="schedule-submit">
                {busy ? "Creating…" : "Create schedule"}
              </button>
              <button type="button" className="button" onClick={onCancel} disabled={busy} data-testid="schedule-cancel">
                Cancel
              </button>
            </div>
          </SparkParamsForm>
        </section>
      ) : (
        <div className="form-actions">
          {types.data && <p className="empty">The server offers no job types.</p>}
          <button type="button" className="button" onClick={onCancel} data-testid="schedule-cancel">
            Cancel
          </button>
        </div>
      )}
    </div>
  );
}

import Form from "@rjsf/core";
import type { IChangeEvent } from "@rjsf/core";
import type { RJSFSchema } from "@rjsf/utils";
import { useId, useMemo, useState } from "react";
import { submitSparkJob } from "../../api/endpoints";
import type { ClusterSummary, SparkJob, SparkJobType } from "../../api/types";
import {
  cleanParams,
  formSchema,
  formUiSchema,
  NO_SUBMIT_ERRORS,
  paramErrorSchema,
  placeSubmitErrors,
  valueAt,
  type ParamsFormData,
  type SubmitErrors,
} from "../../lib/sparkForm";
import { ErrorBanner } from "../ErrorBanner";
import { Field } from "../Field";
import { FieldErrors } from "../FieldErrors";
import { FORM_TEMPLATES, FORM_WIDGETS, type SparkFormContext } from "./formTheme";
import { ajvPlainErrors, formValidator } from "./formValidator";

export interface SparkJobFormProps {
  jobType: SparkJobType;
  /** The registered clusters (GET clusters); undefined while loading. */
  clusters: ClusterSummary[] | undefined;
  cluster: string;
  onClusterChange: (cluster: string) => void;
  /** The chosen cluster's topics, offered in the topic fields. */
  topics: string[];
  /** Operators and admins; the others see the form disabled. */
  canSubmit: boolean;
  onSubmitted: (job: SparkJob) => void;
  /** Check the params with Ajv (true) or the interpreting check that compiles nothing (false);
   * default: Ajv where the page's CSP lets it compile (see formValidator). The server checks them
   * again in any case. */
  checkInBrowser?: boolean;
}

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * One job type's form: the cluster, then the params generated from the type's JSON Schema,
 * checked in the browser against it before sending (every problem at once, each beside its
 * field, in plain words; see formValidator). Submitting queues the job; a refusal's problems are
 * shown beside the fields they name (`cluster`, `params.<name>`, `params.<step>.<name>`, all of
 * them when the answer lists several), without the path prefix; the rest in a banner.
 */
export function SparkJobForm({
  jobType,
  clusters,
  cluster,
  onClusterChange,
  topics,
  canSubmit,
  onSubmitted,
  checkInBrowser,
}: SparkJobFormProps) {
  const validator = formValidator(checkInBrowser);
  const schema = useMemo(() => formSchema(jobType.params_schema), [jobType]);
  const uiSchema = useMemo(() => formUiSchema(jobType.params_schema), [jobType]);
  const formContext = useMemo<SparkFormContext>(() => ({ topics }), [topics]);
  const clusterId = useId();

  const [formData, setFormData] = useState<ParamsFormData>({});
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<SubmitErrors>(NO_SUBMIT_ERRORS);
  const extraErrors = useMemo(() => (errors.params.length ? paramErrorSchema(errors.params) : undefined), [errors.params]);

  const onSubmit = async ({ formData: data }: IChangeEvent<ParamsFormData>) => {
    setBusy(true);
    setErrors(NO_SUBMIT_ERRORS);
    try {
      const job = await submitSparkJob({ job_type: jobType.name, cluster, params: cleanParams(data) });
      onSubmitted(job);
      // A page that keeps the form (the maintenance page folds it) may submit it again, e.g.
      // with another cut-off; the typed values stay.
      setBusy(false);
    } catch (err) {
      setErrors(placeSubmitErrors(err, schema));
      setBusy(false);
    }
  };

  return (
    <div className="form-card spark-form" data-testid={`spark-form-${jobType.name}`}>
      {errors.banner && <ErrorBanner error={errors.banner} title="Could not submit the job" />}
      <Field label={<>Cluster<span className="required">*</span></>} htmlFor={clusterId}>
        <select
          id={clusterId}
          className="input"
          value={cluster}
          onChange={(event) => {
            if (errors.cluster.length) setErrors((e) => ({ ...e, cluster: [] }));
            onClusterChange(event.target.value);
          }}
          disabled={!canSubmit || busy || !clusters}
          aria-invalid={errors.cluster.length > 0}
          data-testid="spark-cluster"
        >
          {!clusters && <option value={cluster}>{cluster || "Loading clusters…"}</option>}
          {clusters?.map((c) => (
            <option key={c.name} value={c.name}>
              {c.name}
              {c.reachable ? "" : " (unreachable)"}
            </option>
          ))}
        </select>
        <FieldErrors messages={errors.cluster} testId="field-error-cluster" />
      </Field>
      <Form<ParamsFormData, RJSFSchema, SparkFormContext>
        schema={schema}
        uiSchema={uiSchema}
        validator={validator}
        formData={formData}
        onChange={(event) => {
          const next = event.formData ?? {};
          // The server's complaint is about what a field held: editing that field clears it.
          const kept = errors.params.filter((e) => same(valueAt(next, e.path), valueAt(formData, e.path)));
          if (kept.length !== errors.params.length) setErrors((e) => ({ ...e, params: kept }));
          setFormData(next);
        }}
        onSubmit={(event) => void onSubmit(event)}
        // The browser-side check failed: its errors are at the fields, the server's are stale.
        onError={() => setErrors(NO_SUBMIT_ERRORS)}
        formContext={formContext}
        templates={FORM_TEMPLATES}
        widgets={FORM_WIDGETS}
        extraErrors={extraErrors}
        transformErrors={ajvPlainErrors}
        disabled={!canSubmit || busy}
        showErrorList={false}
        noHtml5Validate
        focusOnFirstError
      >
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={!canSubmit || busy || !cluster} data-testid="spark-submit">
            {busy ? "Submitting…" : "Submit job"}
          </button>
        </div>
      </Form>
    </div>
  );
}

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
  paramErrors,
  paramNames,
  submitErrorPlace,
  type ParamsFormData,
} from "../../lib/sparkForm";
import { ErrorBanner } from "../ErrorBanner";
import { FORM_TEMPLATES, FORM_WIDGETS, type SparkFormContext } from "./formTheme";
import { formValidator, serverCheckedValidator } from "./formValidator";

interface SparkJobFormProps {
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
  /** Check the params against the schema before sending (default: where the page's CSP lets the
   * validator compile, see formValidator); the server checks them in any case. */
  checkInBrowser?: boolean;
}

/**
 * One job type's form: the cluster, then the params generated from the type's JSON Schema
 * (checked in the browser against it first where the CSP allows, see formValidator). Submitting queues the job; a 400 is shown next to
 * the field its `details.field` names (`cluster`, `params.<name>`), anything else in a banner.
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
  const names = useMemo(() => paramNames(jobType.params_schema), [jobType]);
  const formContext = useMemo<SparkFormContext>(() => ({ topics }), [topics]);
  const clusterId = useId();

  const [formData, setFormData] = useState<ParamsFormData>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const place = submitErrorPlace(error, names);
  const extraErrors = error && place.at === "param" ? paramErrors(place.name, error.message) : undefined;

  const onSubmit = async ({ formData: data }: IChangeEvent<ParamsFormData>) => {
    setBusy(true);
    setError(null);
    try {
      const job = await submitSparkJob({ job_type: jobType.name, cluster, params: cleanParams(data) });
      onSubmitted(job);
    } catch (err) {
      setError(err instanceof Error ? err : new Error(String(err)));
      setBusy(false);
    }
  };

  return (
    <div className="form-card spark-form" data-testid={`spark-form-${jobType.name}`}>
      {error && place.at === "banner" && <ErrorBanner error={error} title="Could not submit the job" />}
      <div className="field">
        <label htmlFor={clusterId} className="field-label">
          Cluster<span className="required">*</span>
        </label>
        <select
          id={clusterId}
          className="input"
          value={cluster}
          onChange={(event) => {
            if (place.at === "cluster") setError(null);
            onClusterChange(event.target.value);
          }}
          disabled={!canSubmit || busy || !clusters}
          aria-invalid={place.at === "cluster"}
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
        {error && place.at === "cluster" && (
          <p className="field-error" role="alert" data-testid="field-error-cluster">
            {error.message}
          </p>
        )}
      </div>
      <Form<ParamsFormData, RJSFSchema, SparkFormContext>
        schema={schema}
        uiSchema={uiSchema}
        validator={validator}
        formData={formData}
        onChange={(event) => {
          const next = event.formData ?? {};
          // The server's complaint is about what the field held: editing the field clears it.
          if (place.at === "param" && next[place.name] !== formData[place.name]) setError(null);
          setFormData(next);
        }}
        onSubmit={(event) => void onSubmit(event)}
        // The browser-side check failed: its errors are at the fields, the server's are stale.
        onError={() => setError(null)}
        formContext={formContext}
        templates={FORM_TEMPLATES}
        widgets={FORM_WIDGETS}
        extraErrors={extraErrors}
        disabled={!canSubmit || busy}
        showErrorList={false}
        noValidate={validator === serverCheckedValidator}
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

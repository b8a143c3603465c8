import { useId, useMemo, useState } from "react";
import { submitSparkJob } from "../../api/endpoints";
import type { ClusterSummary, SparkJob, SparkJobType } from "../../api/types";
import { formSchema, NO_SUBMIT_ERRORS, placeSubmitErrors, type SubmitErrors } from "../../lib/sparkForm";
import { ErrorBanner } from "../ErrorBanner";
import { Field } from "../Field";
import { FieldErrors } from "../FieldErrors";
import { ClusterSelect } from "./ClusterSelect";
import { SparkParamsForm } from "./SparkParamsForm";

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
  const schema = useMemo(() => formSchema(jobType.params_schema), [jobType]);
  const clusterId = useId();

  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<SubmitErrors>(NO_SUBMIT_ERRORS);

  const onSubmit = async (params: Record<string, unknown>) => {
    setBusy(true);
    setErrors(NO_SUBMIT_ERRORS);
    try {
      const job = await submitSparkJob({ job_type: jobType.name, cluster, params });
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
        <ClusterSelect
          id={clusterId}
          clusters={clusters}
          value={cluster}
          onChange={(name) => {
            if (errors.cluster.length) setErrors((e) => ({ ...e, cluster: [] }));
            onClusterChange(name);
          }}
          disabled={!canSubmit || busy}
          invalid={errors.cluster.length > 0}
          testId="spark-cluster"
        />
        <FieldErrors messages={errors.cluster} testId="field-error-cluster" />
      </Field>
      <SparkParamsForm
        jobType={jobType}
        topics={topics}
        errors={errors.params}
        onErrorsChange={(params) => setErrors((e) => ({ ...e, params }))}
        disabled={!canSubmit || busy}
        onSubmit={(params) => void onSubmit(params)}
        onInvalid={() => setErrors(NO_SUBMIT_ERRORS)}
        checkInBrowser={checkInBrowser}
      >
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={!canSubmit || busy || !cluster} data-testid="spark-submit">
            {busy ? "Submitting…" : "Submit job"}
          </button>
        </div>
      </SparkParamsForm>
    </div>
  );
}

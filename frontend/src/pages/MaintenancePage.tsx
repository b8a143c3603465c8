import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useState, type ReactNode } from "react";
import { ApiError } from "../api/client";
import { PIPELINE_JOB_TYPE } from "../api/maintenance";
import { latestPipelineRunQuery, sparkModelsQuery, sparkPredictionsQuery } from "../api/queries";
import { queryKeys } from "../api/queryKeys";
import type { SparkJob } from "../api/types";
import { ErrorBanner } from "../components/ErrorBanner";
import { Loading } from "../components/Loading";
import { MaintenanceModels } from "../components/MaintenanceModels";
import { MaintenancePredictions } from "../components/MaintenancePredictions";
import { MaintenanceRun } from "../components/MaintenanceRun";
import { MaintenanceRunForm } from "../components/MaintenanceRunForm";
import { PageShell } from "../components/PageShell";
import { SparkFormNotices } from "../components/sparkJobs/SparkFormNotices";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { usePolledQuery } from "../hooks/usePolledQuery";
import { useQueryUpdate } from "../hooks/useQueryUpdate";
import { useSparkFormData } from "../hooks/useSparkFormData";

/** A run submitted elsewhere shows within this; the run itself is live (its job socket). */
export const RUN_POLL_MS = 10_000;
/** Models and predictions change with runs: fetched again when a run seen here succeeds. */
export const MODELS_POLL_MS = 60_000;
export const PREDICTIONS_POLL_MS = 60_000;
/** Rows of the top-risk table. */
export const TOP_RISK_LIMIT = 20;

/**
 * /maintenance — predictive maintenance on Spark: run the `maintenance-pipeline` job (the Spark
 * submit page's form, operators only; viewers see it disabled), the latest run live with its
 * steps, the trained models with the chosen one's ROC curve, and the equipment most likely to
 * fail on the chosen cluster (query `cluster`). Models and predictions are fetched again when a
 * run watched here succeeds.
 */
export function MaintenancePage() {
  useDocumentTitle("Predictive maintenance");
  const [query, update] = useQueryUpdate();

  const { types, clusters, cluster, formProps } = useSparkFormData(query.get("cluster"), (name) => update({ cluster: name }));
  const { canSubmit } = formProps;
  const pipelineType = types.data?.find((t) => t.name === PIPELINE_JOB_TYPE);

  const latest = usePolledQuery(latestPipelineRunQuery(), RUN_POLL_MS);
  const [submittedId, setSubmittedId] = useState<number | null>(null);
  const listedId = latest.data?.id ?? null;
  const runId = submittedId === null ? listedId : listedId === null ? submittedId : Math.max(submittedId, listedId);

  const models = usePolledQuery(sparkModelsQuery(), MODELS_POLL_MS);
  const [selectedModel, setSelectedModel] = useState<number | null>(null);
  // Asked for once the cluster is known (the clusters load first).
  const predictions = usePolledQuery(
    { ...sparkPredictionsQuery(cluster, TOP_RISK_LIMIT), enabled: cluster !== "" },
    PREDICTIONS_POLL_MS,
  );
  // No predictions topic on the cluster yet (404 topic_not_found): nothing was scored there.
  const noTopic = predictions.error instanceof ApiError && predictions.error.status === 404 && predictions.error.code === "topic_not_found";

  const { refresh: refreshModels } = models;
  const { refresh: refreshPredictions } = predictions;
  const onRunSucceeded = useCallback(() => {
    // The run trained a model (now the newest: show its curve) and wrote predictions.
    setSelectedModel(null);
    refreshModels();
    refreshPredictions();
  }, [refreshModels, refreshPredictions]);

  // The form starts open while there is no run to show; the user's toggle wins after that.
  const [formOpen, setFormOpen] = useState<boolean | null>(null);
  const open = formOpen ?? (!latest.loading && runId === null);
  const client = useQueryClient();
  const onSubmitted = useCallback(
    (job: SparkJob) => {
      // The answer is the new run: shown at once (then live, or polled).
      client.setQueryData(queryKeys.sparkJob(job.id), job);
      setSubmittedId(job.id);
      setFormOpen(false);
    },
    [client],
  );

  return (
    <PageShell crumbs={[{ label: "Predictive maintenance" }]} title="Predictive maintenance" testId="maintenance-page">
      <p className="muted pm-intro">
        Window features from the equipment alarms, failure labels, a training set, a model and one prediction per
        equipment: the <span className="mono">{PIPELINE_JOB_TYPE}</span> Spark job runs all five steps.
      </p>

      <details
        className="pm-run-form"
        open={open}
        onToggle={(event) => setFormOpen(event.currentTarget.open)}
        data-testid="pm-run-form"
      >
        <summary className="pm-summary" data-testid="pm-run-toggle">
          <h2>Run the pipeline</h2>
        </summary>
        <SparkFormNotices action="run the pipeline" clusters={clusters} />
        {types.error && !types.data && (
          <ErrorBanner error={types.error} title="Could not load the job types" onRetry={types.refresh} />
        )}
        {types.loading && <Loading label="Loading the form…" rows={4} />}
        {types.data && !pipelineType && (
          <p className="empty" data-testid="pm-no-pipeline-type">
            This server offers no <span className="mono">{PIPELINE_JOB_TYPE}</span> job type.
          </p>
        )}
        {pipelineType && (
          <div className="job-type-form">
            <p className="muted pm-type-text">{pipelineType.description}</p>
            <MaintenanceRunForm jobType={pipelineType} {...formProps} onSubmitted={onSubmitted} />
          </div>
        )}
      </details>

      <Section id="pm-latest" title="Latest pipeline run">
        {latest.error && (
          <ErrorBanner error={latest.error} title="Could not load the latest run" stale={latest.data !== undefined} onRetry={latest.refresh} />
        )}
        {runId !== null ? (
          <MaintenanceRun key={runId} jobId={runId} onSucceeded={onRunSucceeded} />
        ) : latest.loading ? (
          <Loading label="Loading the latest run…" rows={3} />
        ) : (
          latest.data === null && (
            <p className="empty" data-testid="pm-no-run">
              The pipeline has not run yet{canSubmit ? ": run it with the form above." : "."}
            </p>
          )
        )}
      </Section>

      <Section id="pm-models-title" title="Models">
        {models.error && (
          <ErrorBanner error={models.error} title="Could not load the models" stale={models.data !== undefined} onRetry={models.refresh} />
        )}
        {models.loading && <Loading label="Loading the models…" rows={3} />}
        {models.data && <MaintenanceModels models={models.data} selected={selectedModel} onSelect={setSelectedModel} />}
      </Section>

      <Section
        id="pm-top-risk"
        title="Top-risk equipment"
        aside={
          <span className="pm-section-aside">
            {clusters.data && clusters.data.length > 1 ? (
              <select
                className="input"
                aria-label="Cluster"
                value={cluster}
                onChange={(event) => update({ cluster: event.target.value })}
                data-testid="pm-predictions-cluster"
              >
                {clusters.data.map((c) => (
                  <option key={c.name} value={c.name}>
                    {c.name}
                  </option>
                ))}
              </select>
            ) : (
              cluster && <span className="muted">on {cluster}</span>
            )}
            <span className="muted">the {TOP_RISK_LIMIT} most likely to fail, latest prediction each</span>
          </span>
        }
      >
        {predictions.error && !noTopic && (
          <ErrorBanner
            error={predictions.error}
            title="Could not load the predictions"
            stale={predictions.data !== undefined}
            onRetry={predictions.refresh}
          />
        )}
        {clusters.data?.length === 0 ? (
          <p className="empty">No cluster is registered.</p>
        ) : noTopic ? (
          <p className="empty" data-testid="pm-predictions-empty">
            No predictions yet: {predictions.error?.message}
          </p>
        ) : !cluster || predictions.loading ? (
          <Loading label="Loading the predictions…" rows={4} />
        ) : (
          predictions.data && <MaintenancePredictions predictions={predictions.data} models={models.data} />
        )}
      </Section>
    </PageShell>
  );
}

function Section({ id, title, aside, children }: { id: string; title: string; aside?: ReactNode; children: ReactNode }) {
  return (
    <section className="pm-section" aria-labelledby={id} data-testid={`${id}-section`}>
      <div className="pm-section-head">
        <h2 id={id}>{title}</h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

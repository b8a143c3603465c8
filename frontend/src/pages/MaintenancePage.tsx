import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useMemo, useState, type ReactNode } from "react";
import { Link } from "react-router-dom";
import { ApiError } from "../api/client";
import { PIPELINE_JOB_TYPE, type ActiveModel } from "../api/maintenance";
import { recentPipelineRunsQuery, sparkActiveModelQuery, sparkModelsQuery, sparkPredictionsQuery } from "../api/queries";
import { queryKeys } from "../api/queryKeys";
import type { SparkJob } from "../api/types";
import { ErrorBanner } from "../components/ErrorBanner";
import { Loading } from "../components/Loading";
import { ActiveModelSummary } from "../components/MaintenanceActiveModel";
import { MaintenanceFirstRun } from "../components/MaintenanceFirstRun";
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
import { pipelineTopics, predictionsTopicChoices, runAlarmsTopic, runPredictionsTopic } from "../lib/maintenance";
import { worklistPath } from "../navigation";

/** A run submitted elsewhere shows within this; the run itself is live (its job socket). */
export const RUN_POLL_MS = 10_000;
/** Models and predictions change with runs: fetched again when a run seen here succeeds. */
export const MODELS_POLL_MS = 60_000;
export const PREDICTIONS_POLL_MS = 60_000;
/** Rows of the top-risk table. */
export const TOP_RISK_LIMIT = 20;
/** The runs asked for: the newest is the one shown, their predictions topics can be chosen. */
export const RECENT_RUNS = 20;

/**
 * /maintenance — predictive maintenance on Spark: run the `maintenance-pipeline` job (the Spark
 * submit page's form, operators only; viewers see it disabled), the latest run live with its
 * steps (or, before the first run, what to do), the trained models with the chosen one's ROC
 * curve and the chosen cluster's active model (operators make a usable model of it active), and
 * the equipment most likely to fail on the chosen cluster (query `cluster`; by default
 * the latest run's) as read from the chosen predictions topic (query `topic`; by default the
 * topic the latest run there wrote). Models and predictions are fetched again when a run watched
 * here succeeds.
 */
export function MaintenancePage() {
  useDocumentTitle("Predictive maintenance");
  const [query, update] = useQueryUpdate();

  const runs = usePolledQuery(recentPipelineRunsQuery(RECENT_RUNS), RUN_POLL_MS);
  const latestRun = runs.data?.[0] ?? null;
  // Topics are per cluster: another cluster's topic choice does not carry over.
  const chooseCluster = useCallback((name: string) => update({ cluster: name, topic: null }), [update]);
  // The latest run's cluster unless one is asked for: its panel and the predictions agree.
  const { types, clusters, cluster, formProps, topicsKnown } = useSparkFormData(query.get("cluster") ?? latestRun?.cluster ?? null, chooseCluster);
  const { canSubmit } = formProps;
  const pipelineType = types.data?.find((t) => t.name === PIPELINE_JOB_TYPE);
  const topics = pipelineTopics(pipelineType);

  const [submittedId, setSubmittedId] = useState<number | null>(null);
  const listedId = latestRun?.id ?? null;
  const runId = submittedId === null ? listedId : listedId === null ? submittedId : Math.max(submittedId, listedId);

  const models = usePolledQuery(sparkModelsQuery(), MODELS_POLL_MS);
  const [selectedModel, setSelectedModel] = useState<number | null>(null);
  // The chosen cluster's active model (the one its score jobs use when they name none).
  const active = usePolledQuery({ ...sparkActiveModelQuery(cluster), enabled: cluster !== "" }, MODELS_POLL_MS);

  // The predictions topic: the one asked for, else the one the latest run on this cluster wrote.
  const askedTopic = query.get("topic");
  const runsHere = useMemo(() => (runs.data ?? []).filter((run) => run.cluster === cluster), [runs.data, cluster]);
  const topic = askedTopic || runPredictionsTopic(runsHere[0], topics.predictions);
  const topicChoices = useMemo(
    () => predictionsTopicChoices(runsHere, cluster, topics.predictions, topic),
    [runsHere, cluster, topics.predictions, topic],
  );
  // Asked for once the cluster, the runs and the default topic are known or could not be (no
  // read of a topic that is about to change).
  const settled = (q: { data?: unknown; error: unknown }) => q.data !== undefined || Boolean(q.error);
  const predictions = usePolledQuery(
    { ...sparkPredictionsQuery(cluster, topic, TOP_RISK_LIMIT), enabled: cluster !== "" && settled(runs) && settled(types) },
    PREDICTIONS_POLL_MS,
  );
  // No predictions topic on the cluster yet (404 topic_not_found): nothing was scored there.
  const noTopic = predictions.error instanceof ApiError && predictions.error.status === 404 && predictions.error.code === "topic_not_found";

  const { refresh: refreshModels } = models;
  const { replace: replaceActive } = active;
  const onPromoted = useCallback(
    (state: ActiveModel) => {
      // The answer is the cluster's new active model: shown at once. The models are asked again
      // (each one's `active` changed) and, under their key, the active model too.
      replaceActive(state);
      refreshModels();
    },
    [replaceActive, refreshModels],
  );
  const { refresh: refreshPredictions } = predictions;
  const onRunSucceeded = useCallback(() => {
    // The run trained a model (now the newest: show its curve) and wrote predictions.
    setSelectedModel(null);
    refreshModels();
    refreshPredictions();
  }, [refreshModels, refreshPredictions]);

  // The form starts open while there is no run to show; the user's toggle wins after that.
  const [formOpen, setFormOpen] = useState<boolean | null>(null);
  const open = formOpen ?? (!runs.loading && runId === null);
  // Never run (and nothing submitted here): the page says what to do first.
  const firstRun = runs.data?.length === 0 && runId === null;
  const client = useQueryClient();
  const { refresh: refreshRuns } = runs;
  const onSubmitted = useCallback(
    (job: SparkJob) => {
      // The answer is the new run: shown at once (then live, or polled). The run list is asked
      // again: the predictions follow the new run's cluster and topic.
      client.setQueryData(queryKeys.sparkJob(job.id), job);
      setSubmittedId(job.id);
      setFormOpen(false);
      update({ topic: null });
      refreshRuns();
    },
    [client, update, refreshRuns],
  );

  return (
    <PageShell crumbs={[{ label: "Predictive maintenance" }]} title="Predictive maintenance" testId="maintenance-page">
      <p className="muted pm-intro">
        Window features from the equipment alarms, failure labels, a training set, a model and one prediction per
        equipment: the <span className="mono">{PIPELINE_JOB_TYPE}</span> Spark job runs all five steps.
      </p>

      {firstRun && <MaintenanceFirstRun cluster={cluster} topics={topics} existing={topicsKnown} />}

      <details
        className="pm-run-form"
        open={open}
        onToggle={(event) => setFormOpen(event.currentTarget.open)}
        data-testid="pm-run-form"
      >
        <summary className="fold-summary" data-testid="pm-run-toggle">
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
        {runs.error && (
          <ErrorBanner error={runs.error} title="Could not load the latest run" stale={runs.data !== undefined} onRetry={runs.refresh} />
        )}
        {runId !== null ? (
          <MaintenanceRun key={runId} jobId={runId} onSucceeded={onRunSucceeded} models={models.data} />
        ) : runs.loading ? (
          <Loading label="Loading the latest run…" rows={3} />
        ) : (
          firstRun && (
            <p className="empty" data-testid="pm-no-run">
              The pipeline has not run yet{canSubmit ? ": run it with the form above." : " (operators run it with the form above)."}
            </p>
          )
        )}
      </Section>

      <Section id="pm-models-title" title="Models">
        {active.error && (
          <ErrorBanner
            error={active.error}
            title="Could not load the active model"
            stale={active.data !== undefined}
            onRetry={active.refresh}
          />
        )}
        {/* The same role that runs the pipeline makes a model active. */}
        {active.data && (
          <ActiveModelSummary
            state={active.data}
            canPromote={canSubmit}
            onSelect={setSelectedModel}
            models={models.data ?? []}
            onPromoted={onPromoted}
          />
        )}
        {models.error && (
          <ErrorBanner error={models.error} title="Could not load the models" stale={models.data !== undefined} onRetry={models.refresh} />
        )}
        {models.loading && <Loading label="Loading the models…" rows={3} />}
        {models.data && (
          <MaintenanceModels
            models={models.data}
            selected={selectedModel}
            onSelect={setSelectedModel}
            cluster={cluster}
            canPromote={canSubmit}
            onPromoted={onPromoted}
          />
        )}
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
                onChange={(event) => chooseCluster(event.target.value)}
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
            <label className="pm-topic-choice">
              <span className="muted">from topic</span>
              <select
                className="input mono"
                aria-label="Predictions topic"
                value={topic}
                onChange={(event) => update({ topic: event.target.value })}
                data-testid="pm-predictions-topic"
              >
                {topicChoices.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            </label>
            <span className="muted">the {TOP_RISK_LIMIT} most likely to fail, latest prediction each</span>
            {/* Why each is there, what happened since and the crews' marks. */}
            <Link to={worklistPath(cluster)} data-testid="pm-worklist-link">
              Open the worklist
            </Link>
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
          predictions.data && (
            <MaintenancePredictions
              predictions={predictions.data}
              models={models.data}
              alarms={{ cluster, topic: runAlarmsTopic(runsHere, cluster, topic, topics) }}
            />
          )
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

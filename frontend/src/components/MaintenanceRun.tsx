// The latest maintenance-pipeline run, live: the same hook as the Spark job page (its socket's
// pushes, polling without it), an overall progress bar and the step list.
import { useEffect, useRef } from "react";
import { Link } from "react-router-dom";
import type { PipelineJob, SparkModel } from "../api/maintenance";
import { useSparkJob } from "../hooks/useSparkJob";
import { formatDuration } from "../lib/format";
import { runPredictionsTopic } from "../lib/maintenance";
import { isActive, jobDurationSeconds, jobStateHelp } from "../lib/sparkJobs";
import { formatAgo } from "../lib/time";
import { sparkJobPath } from "../navigation";
import { ErrorBanner } from "./ErrorBanner";
import { LiveIndicator } from "./LiveStatus";
import { Loading } from "./Loading";
import { qualityWarning } from "./MaintenanceModels";
import { MaintenanceSteps, stepsOf } from "./MaintenanceSteps";
import { JobStateBadge } from "./sparkJobs/JobStateBadge";
import { ProgressBar } from "./sparkJobs/ProgressBar";

interface MaintenanceRunProps {
  jobId: number;
  /** Called once when this page saw the run end with success (the models and predictions it
   * wrote are then fetched again). */
  onSucceeded: () => void;
  /** The models list: the server's verdict on the model this run trained (its id is the run's). */
  models?: SparkModel[];
}

/** One pipeline run: state, progress, each step, the error, a link to the full job page. */
export function MaintenanceRun({ jobId, onSucceeded, models }: MaintenanceRunProps) {
  const { data, error, loading, refresh, live } = useSparkJob(jobId);
  const job = data as PipelineJob | undefined;

  // Only a run seen active and then succeeded refreshes the rest: one already finished when the
  // page opened wrote what the page fetched anyway.
  const seen = useRef<string | null>(null);
  const onSucceededRef = useRef(onSucceeded);
  onSucceededRef.current = onSucceeded;
  const state = job?.state;
  useEffect(() => {
    if (!state) return;
    const before = seen.current;
    seen.current = state;
    if (state === "succeeded" && before !== null && isActive(before as PipelineJob["state"])) onSucceededRef.current();
  }, [state]);

  if (!job) {
    if (loading) return <Loading label="Loading the latest run…" rows={5} />;
    return error ? <ErrorBanner error={error} title={`Could not load job #${jobId}`} onRetry={refresh} /> : null;
  }

  const steps = stepsOf(job);
  const failedStep = steps.find((s) => s.state === "failed" && s.error);
  const started = job.started_at ? Date.parse(job.started_at) : NaN;
  // Where its score step writes: the top-risk list below reads that topic by default.
  const topic = runPredictionsTopic(job, "");
  const trained = models?.find((m) => m.job_id === job.id);
  return (
    <div className="pm-run" data-testid="pm-run" data-job-id={job.id} data-state={job.state}>
      {error && <ErrorBanner error={error} title={`Could not refresh job #${jobId}`} stale onRetry={refresh} />}
      <div className="pm-run-head">
        <Link to={sparkJobPath(job.id)} className="pm-run-id" data-testid="pm-run-link">
          Job #{job.id}
        </Link>
        <JobStateBadge state={job.state} stopping={job.cancel_requested && isActive(job.state)} data-testid="pm-run-state" />
        <span className="muted">
          on {job.cluster} by {job.created_by ?? "—"}
          {!Number.isNaN(started) && <> · started <span className="nowrap">{formatAgo(started)}</span></>}
          {job.started_at && <> · {job.finished_at ? "took" : "running for"} <span className="nowrap">{formatDuration(jobDurationSeconds(job))}</span></>}
          {topic && (
            <>
              {" "}
              · predictions to <span className="mono" data-testid="pm-run-topic">{topic}</span>
            </>
          )}
        </span>
        <span className="toolbar-spacer" />
        <LiveIndicator state={live} />
      </div>
      <div className="job-progress-row">
        <ProgressBar value={job.progress} state={job.state} label="Pipeline progress" data-testid="pm-run-progress" />
        <span className="muted job-state-help">{jobStateHelp(job.state)}</span>
      </div>
      {!Array.isArray(job.steps) && (
        <p className="notice notice-warn" data-testid="pm-no-steps">
          The server does not report this job's steps: only those with a result are shown as done.
        </p>
      )}
      <MaintenanceSteps steps={steps} modelWarning={trained ? qualityWarning(trained) : null} />
      {job.error && !failedStep && (
        <div className="job-error pm-run-error" role="alert" data-testid="pm-run-error">
          <strong>{job.state === "lost" ? "The run was lost" : "The run failed"}</strong>
          <pre className="job-error-text">{job.error}</pre>
        </div>
      )}
      <p className="pm-run-more">
        <Link to={sparkJobPath(job.id)} data-testid="pm-run-full">
          Full job page: log, params and each step's result →
        </Link>
      </p>
    </div>
  );
}

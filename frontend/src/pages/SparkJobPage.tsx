import { Link, useParams } from "react-router-dom";
import { sparkJobTypesQuery } from "../api/queries";
import type { SparkJob } from "../api/types";
import { hasRole, useCurrentUser } from "../components/CurrentUser";
import { loadStateOf, PageShell } from "../components/PageShell";
import { CancelJobButton } from "../components/sparkJobs/CancelJobButton";
import { ExportDownload } from "../components/sparkJobs/ExportDownload";
import { JobLogTail } from "../components/sparkJobs/JobLogTail";
import { JobParams } from "../components/sparkJobs/JobParams";
import { JobStateBadge } from "../components/sparkJobs/JobStateBadge";
import { ProgressBar } from "../components/sparkJobs/ProgressBar";
import { ResultTables } from "../components/sparkJobs/ResultTables";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { usePolledQuery } from "../hooks/usePolledQuery";
import { JOB_TYPES_POLL_MS } from "../hooks/useSparkFormData";
import { useSparkJob } from "../hooks/useSparkJob";
import { formatDuration } from "../lib/format";
import { isActive, jobDurationSeconds, jobStateHelp, jobTopic, jobTypeTitle } from "../lib/sparkJobs";
import { clusterPath, SPARK_JOBS_PATH, topicPath } from "../navigation";
import { NotFoundPage } from "./NotFoundPage";
import { FactTimestamp } from "../components/FactTimestamp";

/** A route's job id, or null when it is not one. */
export function parseJobId(value: string | undefined): number | null {
  return value !== undefined && /^[0-9]{1,15}$/.test(value) ? Number(value) : null;
}

/** /spark/jobs/:jobId — a job, live (useSparkJob: pushed by its socket, polled without it). */
export function SparkJobPage() {
  const jobId = parseJobId(useParams<{ jobId: string }>().jobId);
  if (jobId === null) return <NotFoundPage />;
  return <SparkJobView jobId={jobId} />;
}

function SparkJobView({ jobId }: { jobId: number }) {
  useDocumentTitle(`Spark job #${jobId}`);
  const { user } = useCurrentUser();
  const sparkJob = useSparkJob(jobId);
  const { data: job, replace, live } = sparkJob;
  const types = usePolledQuery(sparkJobTypesQuery(), JOB_TYPES_POLL_MS);
  const canCancel = hasRole(user, "operator") && job !== undefined && isActive(job.state);

  return (
    <PageShell
      crumbs={[{ label: "Spark jobs", to: SPARK_JOBS_PATH }, { label: `#${jobId}` }]}
      title={`Spark job #${jobId}`}
      updatedAt={sparkJob.updatedAt}
      live={live}
      heading={
        job && (
          <>
            <span>{jobTypeTitle(types.data, job.job_type)}</span>
            <JobStateBadge state={job.state} stopping={job.cancel_requested && isActive(job.state)} data-testid="job-state" />
          </>
        )
      }
      actions={
        canCancel && job ? (
          <div className="toolbar">
            <CancelJobButton job={job} onCancelled={replace} />
          </div>
        ) : undefined
      }
      {...loadStateOf(sparkJob)}
      what={`job #${jobId}`}
      loadingLabel="Loading the job…"
      testId="spark-job-page"
    >
      {job && <JobDetails job={job} />}
    </PageShell>
  );
}

function JobDetails({ job }: { job: SparkJob }) {
  const topic = jobTopic(job);
  return (
    <>
      <div className="job-progress-row">
        <ProgressBar value={job.progress} state={job.state} label="Job progress" data-testid="job-progress" />
        <span className="muted job-state-help">{jobStateHelp(job.state)}</span>
      </div>
      <dl className="facts job-facts">
        <div>
          <dt>Job type</dt>
          <dd className="mono">{job.job_type}</dd>
        </div>
        <div>
          <dt>Cluster</dt>
          <dd>
            <Link to={clusterPath(job.cluster)}>{job.cluster}</Link>
          </dd>
        </div>
        {topic && (
          <div>
            <dt>Topic</dt>
            <dd className="mono">
              <Link to={topicPath(job.cluster, topic)}>{topic}</Link>
            </dd>
          </div>
        )}
        <div>
          <dt>Submitted by</dt>
          <dd>{job.created_by ?? "—"}</dd>
        </div>
        <FactTimestamp label="Created" at={job.created_at} testId="job-created" />
        <FactTimestamp label="Started" at={job.started_at} testId="job-started" />
        <FactTimestamp label="Finished" at={job.finished_at} testId="job-finished" />
        <div>
          <dt>{job.finished_at ? "Took" : "Running for"}</dt>
          <dd data-testid="job-duration">{job.started_at ? formatDuration(jobDurationSeconds(job)) : "—"}</dd>
        </div>
        {job.spark_app_id && (
          <div>
            <dt>Spark application</dt>
            <dd className="mono" data-testid="job-app-id">
              {job.spark_app_id}
            </dd>
          </div>
        )}
      </dl>

      {job.error && (
        <div className="job-error" role="alert" data-testid="job-error">
          <strong>{job.state === "lost" ? "The job was lost" : "The job failed"}</strong>
          <pre className="job-error-text">{job.error}</pre>
        </div>
      )}

      {job.state === "failed" && job.failure_lines.length > 0 && (
        <section data-testid="job-failure-lines">
          <h2>Why it failed</h2>
          <pre className="job-failure-lines" tabIndex={0} aria-label="The driver log's lines that explain the failure">
            {job.failure_lines.join("\n")}
          </pre>
        </section>
      )}

      <ExportDownload job={job} />
      {job.state === "succeeded" && (
        <section>
          <h2>Result</h2>
          <ResultTables job={job} />
        </section>
      )}

      <section>
        <h2>Log</h2>
        <JobLogTail jobId={job.id} text={job.log_tail} />
      </section>

      <section>
        <h2>Params</h2>
        <JobParams params={job.params} />
      </section>
    </>
  );
}

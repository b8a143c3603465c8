import { Link } from "react-router-dom";
import { sparkJobListQuery, sparkJobTypesQuery } from "../api/queries";
import type { SparkJobType } from "../api/types";
import { hasRole, useCurrentUser } from "../components/CurrentUser";
import { FilterSelect } from "../components/ListToolbar";
import { loadStateOf, PageShell } from "../components/PageShell";
import { SparkJobsTable } from "../components/sparkJobs/SparkJobsTable";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { usePolledQuery } from "../hooks/usePolledQuery";
import { JOB_TYPES_POLL_MS } from "../hooks/useSparkFormData";
import { useQueryUpdate } from "../hooks/useQueryUpdate";
import { formatCount, plural } from "../lib/format";
import { isActive, parseJobState, SPARK_JOB_STATES } from "../lib/sparkJobs";
import { sparkSubmitPath } from "../navigation";

/** While a listed job is active the list refreshes this often; otherwise every 10 s. */
export const JOBS_ACTIVE_POLL_MS = 3_000;
export const JOBS_IDLE_POLL_MS = 10_000;
/** The most the API lists at once. */
export const JOBS_LIMIT = 1000;

/**
 * /spark/jobs — every job, newest first (up to 1,000), with its state and a progress bar while it
 * runs; URL query `state` and `job_type` filter on the server. Refreshes every 3 s while a listed
 * job is active, every 10 s otherwise. Rows are virtualized above 200.
 */
export function SparkJobsPage() {
  useDocumentTitle("Spark jobs");
  const { user } = useCurrentUser();
  const [query, update] = useQueryUpdate();
  const state = parseJobState(query.get("state"));
  const jobType = query.get("job_type") || null;

  const types = usePolledQuery(sparkJobTypesQuery(), JOB_TYPES_POLL_MS);
  const list = usePolledQuery(
    sparkJobListQuery({ state: state ?? undefined, job_type: jobType ?? undefined, limit: JOBS_LIMIT }),
    (jobs) => ((jobs ?? []).some((job) => isActive(job.state)) ? JOBS_ACTIVE_POLL_MS : JOBS_IDLE_POLL_MS),
  );
  const { data } = list;

  const filtered = state !== null || jobType !== null;
  const actions = (
    <div className="toolbar">
      <FilterSelect
        label="State"
        value={state ?? ""}
        onChange={(value) => update({ state: value })}
        testId="jobs-state-filter"
        anyLabel="All states"
        options={SPARK_JOB_STATES}
      />
      <JobTypeFilter types={types.data} value={jobType} onChange={(name) => update({ job_type: name })} />
      <span className="toolbar-spacer" />
      {data && (
        <span className="muted" data-testid="jobs-count" data-count={data.length}>
          {formatCount(data.length)} {plural(data.length, "job")}
          {data.length >= JOBS_LIMIT ? " (the newest)" : ""}
        </span>
      )}
      {hasRole(user, "operator") && (
        <Link to={sparkSubmitPath()} className="button button-primary" data-testid="new-spark-job">
          New job
        </Link>
      )}
    </div>
  );

  return (
    <PageShell
      crumbs={[{ label: "Spark jobs" }]}
      title="Spark jobs"
      updatedAt={list.updatedAt}
      actions={actions}
      {...loadStateOf(list)}
      what="the jobs"
      loadingLabel="Loading jobs…"
      skeletonRows={6}
      testId="spark-jobs-page"
    >
      {data && (
        <SparkJobsTable
          jobs={data}
          types={types.data}
          empty={filtered ? "No job matches the filters." : "No Spark job has been submitted yet."}
        />
      )}
    </PageShell>
  );
}

interface JobTypeFilterProps {
  types: SparkJobType[] | undefined;
  value: string | null;
  onChange: (name: string) => void;
}

function JobTypeFilter({ types, value, onChange }: JobTypeFilterProps) {
  return (
    <FilterSelect
      label="Job type"
      value={value ?? ""}
      onChange={onChange}
      testId="jobs-type-filter"
      anyLabel="All job types"
      // A type the server does not list (yet, or any more) stays shown, by its name.
      options={[
        ...(value && !types?.some((t) => t.name === value) ? [value] : []),
        ...(types ?? []).map((t) => ({ value: t.name, label: t.title })),
      ]}
    />
  );
}

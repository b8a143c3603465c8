import { memo } from "react";
import { Link } from "react-router-dom";
import type { SparkJob, SparkJobType } from "../../api/types";
import { formatDuration } from "../../lib/format";
import { isActive, jobDurationSeconds, jobTopic, jobTypeTitle } from "../../lib/sparkJobs";
import { formatLocal } from "../../lib/time";
import { sparkJobPath } from "../../navigation";
import { virtualRowProps, VirtualTable } from "../SortableTable";
import { HeaderCells, type HeaderColumn, numeric } from "../TableParts";
import { JobStateBadge } from "./JobStateBadge";
import { ProgressBar } from "./ProgressBar";

/** Height of one row in px (fixed in styles.css: .vtable td). */
export const JOB_ROW_HEIGHT = 36;

const COLUMNS: HeaderColumn[] = [numeric("Job"), "Type", "Cluster", "Topic", "State", "Progress", "Created", numeric("Duration"), "By"];

interface SparkJobsTableProps {
  /** Newest first, as the API lists them. */
  jobs: SparkJob[];
  types: SparkJobType[] | undefined;
  empty: string;
}

/** The job list: virtualized above 200 rows (fixed 36 px rows, spacer rows keep a real table). */
export function SparkJobsTable({ jobs, types, empty }: SparkJobsTableProps) {
  return (
    <VirtualTable
      testId="jobs"
      className="jobs-table"
      rows={jobs}
      rowKey={(job) => job.id}
      rowHeight={JOB_ROW_HEIGHT}
      head={<HeaderCells columns={COLUMNS} />}
      span={COLUMNS.length}
      empty={empty}
      renderRow={(job, index) => <JobRow key={job.id} job={job} typeTitle={jobTypeTitle(types, job.job_type)} index={index} />}
    />
  );
}

/** One job; re-rendered only when its object changes (polls keep unchanged rows' cells cheap). */
const JobRow = memo(function JobRow({ job, typeTitle, index }: { job: SparkJob; typeTitle: string; index: number }) {
  const created = Date.parse(job.created_at);
  const topic = jobTopic(job);
  return (
    <tr
      data-testid={`job-row-${job.id}`}
      data-state={job.state}
      {...virtualRowProps(index)}
    >
      <td className="num">
        <Link to={sparkJobPath(job.id)} className="strong-link">
          #{job.id}
        </Link>
      </td>
      <td className="mono" title={typeTitle}>
        {job.job_type}
      </td>
      <td>{job.cluster}</td>
      <td className="name-cell mono" title={topic ?? undefined}>
        {topic ?? "—"}
      </td>
      <td>
        <JobStateBadge state={job.state} stopping={job.cancel_requested && isActive(job.state)} />
      </td>
      <td className="progress-cell">
        {isActive(job.state) ? (
          <ProgressBar value={job.progress} state={job.state} compact data-testid={`job-progress-${job.id}`} />
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td className="nowrap" title={job.created_at}>{Number.isNaN(created) ? job.created_at : formatLocal(created).slice(0, 19)}</td>
      <td className="num nowrap">{formatDuration(jobDurationSeconds(job))}</td>
      <td>{job.created_by ?? "—"}</td>
    </tr>
  );
});

import { Link } from "react-router-dom";
import { sparkScheduleQuery } from "../../api/queries";
import type { Schedule, ScheduleRun } from "../../api/types";
import { usePolledQuery } from "../../hooks/usePolledQuery";
import { localMinute, localSecond, OUTCOME_HELP, OUTCOME_TONE, paramPairs, SCHEDULES_POLL_MS } from "../../lib/schedules";
import { parseJobState } from "../../lib/sparkJobs";
import { sparkJobPath } from "../../navigation";
import { ErrorBanner } from "../ErrorBanner";
import { Loading } from "../Loading";
import { Stale } from "../PageShell";
import { StatusBadge } from "../StatusBadge";
import { JobStateBadge } from "../sparkJobs/JobStateBadge";
import { EmptyRow, Table, type HeaderColumn } from "../TableParts";

const COLUMNS: HeaderColumn[] = ["Due at", "Ran at", "Outcome", "Job", "Reason"];

/**
 * An open schedule: its params (name=value) and its last 20 runs (GET spark/schedules/{id}),
 * newest first, each with when it was due and ran, its outcome, the job it started (a link, with
 * its state now) and why it started none; fetched again every 15 s while open.
 */
export function ScheduleRuns({ schedule }: { schedule: Schedule }) {
  const detail = usePolledQuery(sparkScheduleQuery(schedule.id), SCHEDULES_POLL_MS);
  const pairs = paramPairs(schedule.params);
  return (
    <div className="schedule-detail" data-testid={`schedule-detail-${schedule.id}`}>
      <div className="schedule-params" data-testid={`schedule-params-${schedule.id}`}>
        <span className="field-label">Params</span>
        {pairs.length === 0 ? (
          <span className="muted">none (the job type&apos;s defaults)</span>
        ) : (
          <ul className="schedule-param-list">
            {pairs.map((pair) => (
              <li key={pair} className="mono">
                {pair}
              </li>
            ))}
          </ul>
        )}
      </div>
      <h3 className="schedule-runs-title">Last runs</h3>
      {detail.error && (
        <ErrorBanner
          error={detail.error}
          title={detail.data ? "Could not refresh the runs" : "Could not load the runs"}
          stale={detail.data !== undefined}
          onRetry={detail.refresh}
        />
      )}
      {detail.loading && <Loading label="Loading the runs…" rows={2} />}
      {detail.data && (
        <Stale when={!!detail.error}>
          <Table
            columns={COLUMNS}
            className="schedule-runs-table"
            data-testid={`schedule-runs-${schedule.id}`}
            data-count={detail.data.runs.length}
          >
            {detail.data.runs.length === 0 && (
              <EmptyRow span={COLUMNS.length} testId={`schedule-runs-empty-${schedule.id}`}>
                No run yet
                {detail.data.enabled && detail.data.next_run_at ? `: the first is due ${localMinute(detail.data.next_run_at)}.` : "."}
              </EmptyRow>
            )}
            {detail.data.runs.map((run) => (
              <RunRow key={`${run.due_at} ${run.ran_at}`} run={run} />
            ))}
          </Table>
        </Stale>
      )}
    </div>
  );
}

function RunRow({ run }: { run: ScheduleRun }) {
  const state = parseJobState(run.job_state);
  return (
    <tr data-testid="schedule-run" data-outcome={run.outcome}>
      <td className="nowrap">
        <time dateTime={run.due_at} title={run.due_at}>
          {localMinute(run.due_at)}
        </time>
      </td>
      <td className="nowrap">
        <time dateTime={run.ran_at} title={run.ran_at}>
          {localSecond(run.ran_at)}
        </time>
      </td>
      <td>
        <span className="state-badge" data-testid="schedule-run-outcome" data-outcome={run.outcome}>
          <StatusBadge tone={OUTCOME_TONE[run.outcome] ?? "neutral"} title={OUTCOME_HELP[run.outcome]}>
            {run.outcome}
          </StatusBadge>
        </span>
      </td>
      <td className="nowrap">
        {run.job_id !== null ? (
          <>
            <Link to={sparkJobPath(run.job_id)} className="strong-link" data-testid="schedule-run-job">
              #{run.job_id}
            </Link>{" "}
            {state ? <JobStateBadge state={state} /> : run.job_state && <span className="muted">{run.job_state}</span>}
          </>
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td className="wrap">{run.reason || <span className="muted">—</span>}</td>
    </tr>
  );
}

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { Link } from "react-router-dom";
import { deleteSchedule, updateSchedule } from "../../api/endpoints";
import { queryKeys } from "../../api/queryKeys";
import type { Schedule, ScheduleDetail, SparkJobType } from "../../api/types";
import { localMinute, relativeWords, timingWords } from "../../lib/schedules";
import { jobTypeTitle } from "../../lib/sparkJobs";
import { sparkJobPath } from "../../navigation";
import { ConfirmDialog } from "../ConfirmDialog";
import { EmptyRow, Table, type HeaderColumn } from "../TableParts";
import { ScheduleRuns } from "./ScheduleRuns";

interface SchedulesTableProps {
  schedules: Schedule[];
  /** The job types (their titles as tooltips); undefined while loading. */
  types: SparkJobType[] | undefined;
  /** Operators and admins: the enabled toggle and Delete. */
  canWrite: boolean;
  /** After a schedule was deleted. */
  onDeleted: (schedule: Schedule) => void;
}

const COLUMNS: HeaderColumn[] = [
  "Job type",
  "Cluster",
  "When",
  "Enabled",
  "Next run",
  "Last run",
  "Created by",
  { label: "Actions", hidden: true },
];

/** Every schedule list and open schedule is fetched again (a write changed them). */
function useRefreshSchedules() {
  const client = useQueryClient();
  return {
    client,
    refresh: () => client.invalidateQueries({ queryKey: queryKeys.sparkSchedules() }),
  };
}

/**
 * The job schedules: job type, cluster, timing in words, enabled (a toggle for operators), the next
 * run (local time and how far off), the job its last run started (a link), who made it. A row
 * opens to its params and last runs; operators delete one after a confirm.
 */
export function SchedulesTable({ schedules, types, canWrite, onDeleted }: SchedulesTableProps) {
  const [open, setOpen] = useState<Set<number>>(() => new Set());
  const [deleting, setDeleting] = useState<Schedule | null>(null);
  const toggle = (id: number) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const now = Date.now();
  return (
    <>
      <Table columns={COLUMNS} className="schedules-table" data-testid="schedules-table" data-count={schedules.length}>
        {schedules.length === 0 && (
          <EmptyRow span={COLUMNS.length} testId="schedules-empty">
            <strong>No schedules yet.</strong>
            <span className="small-line">
              A schedule submits a Spark job (a job type with its params, on a cluster) at each slot of a cron expression
              or every N minutes; the predictive maintenance&apos;s daily scoring and performance schedules appear here
              once a model is promoted.
            </span>
          </EmptyRow>
        )}
        {schedules.map((schedule) => (
          <ScheduleRow
            key={schedule.id}
            schedule={schedule}
            typeTitle={jobTypeTitle(types, schedule.job_type)}
            now={now}
            canWrite={canWrite}
            expanded={open.has(schedule.id)}
            onToggleOpen={() => toggle(schedule.id)}
            onDelete={() => setDeleting(schedule)}
          />
        ))}
      </Table>
      {deleting && (
        <DeleteScheduleDialog
          schedule={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            setDeleting(null);
            setOpen((prev) => {
              const next = new Set(prev);
              next.delete(deleting.id);
              return next;
            });
            onDeleted(deleting);
          }}
        />
      )}
    </>
  );
}

interface ScheduleRowProps {
  schedule: Schedule;
  typeTitle: string;
  now: number;
  canWrite: boolean;
  expanded: boolean;
  onToggleOpen: () => void;
  onDelete: () => void;
}

function ScheduleRow({ schedule, typeTitle, now, canWrite, expanded, onToggleOpen, onDelete }: ScheduleRowProps) {
  const { id } = schedule;
  const { client, refresh } = useRefreshSchedules();
  const enabling = useMutation({
    mutationFn: (enabled: boolean) => updateSchedule(id, { enabled }),
    onSuccess: async (updated: ScheduleDetail) => {
      // The answer shows at once; the lists are asked again behind it.
      client.setQueryData<Schedule[]>(queryKeys.sparkScheduleList(), (list) =>
        list?.map((s) => (s.id === id ? { ...s, ...updated } : s)),
      );
      client.setQueryData(queryKeys.sparkSchedule(id), updated);
      await refresh();
    },
  });
  const relative = schedule.next_run_at ? relativeWords(schedule.next_run_at, now) : null;
  return (
    <Fragment>
      <tr data-testid={`schedule-row-${id}`} data-enabled={schedule.enabled ? "true" : "false"} className={schedule.enabled ? undefined : "row-off"}>
        <td className="mono" title={typeTitle}>
          {schedule.job_type}
        </td>
        <td>{schedule.cluster}</td>
        <td className="nowrap" data-testid={`schedule-when-${id}`}>
          {schedule.cron ? (
            <>
              cron <code>{schedule.cron}</code> ({schedule.timezone})
            </>
          ) : (
            timingWords(schedule)
          )}
        </td>
        <td className="nowrap">
          <label className="checkbox" title={canWrite ? undefined : "Only operators can enable or disable a schedule"}>
            <input
              type="checkbox"
              checked={schedule.enabled}
              onChange={(event) => {
                if (canWrite) enabling.mutate(event.target.checked);
              }}
              disabled={!canWrite || enabling.isPending}
              data-testid={`schedule-toggle-${id}`}
            />
            {schedule.enabled ? "enabled" : "disabled"}
          </label>
          {enabling.error && (
            <p className="field-error" role="alert" data-testid={`schedule-toggle-error-${id}`}>
              {enabling.error.message}
            </p>
          )}
        </td>
        <td className="nowrap" data-testid={`schedule-next-${id}`}>
          {schedule.enabled && schedule.next_run_at ? (
            <>
              <time dateTime={schedule.next_run_at} title={schedule.next_run_at}>
                {localMinute(schedule.next_run_at)}
              </time>
              {relative && <span className="muted small-line">{relative}</span>}
            </>
          ) : (
            <span className="muted">{schedule.enabled ? "—" : "— (disabled)"}</span>
          )}
        </td>
        <td className="nowrap">
          {schedule.last_job_id !== null ? (
            <Link to={sparkJobPath(schedule.last_job_id)} className="strong-link" data-testid={`schedule-last-job-${id}`}>
              #{schedule.last_job_id}
            </Link>
          ) : (
            <span className="muted">never</span>
          )}
        </td>
        <td>{schedule.created_by ?? <span className="muted">—</span>}</td>
        <td className="row-actions">
          <button
            type="button"
            className="button button-small"
            onClick={onToggleOpen}
            aria-expanded={expanded}
            data-testid={`schedule-expand-${id}`}
          >
            {expanded ? "Hide runs" : "Runs"}
          </button>
          {canWrite && (
            <button type="button" className="button button-small button-danger-outline" onClick={onDelete} data-testid={`schedule-delete-${id}`}>
              Delete
            </button>
          )}
        </td>
      </tr>
      {expanded && (
        <tr className="schedule-detail-row">
          <td colSpan={COLUMNS.length}>
            <ScheduleRuns schedule={schedule} />
          </td>
        </tr>
      )}
    </Fragment>
  );
}

/** "Delete schedule #3" with a confirm; refused: the server's message in the dialog. */
function DeleteScheduleDialog({ schedule, onClose, onDeleted }: { schedule: Schedule; onClose: () => void; onDeleted: () => void }) {
  const { client } = useRefreshSchedules();
  const deletion = useMutation({
    mutationFn: () => deleteSchedule(schedule.id),
    onSuccess: async () => {
      client.setQueryData<Schedule[]>(queryKeys.sparkScheduleList(), (list) => list?.filter((s) => s.id !== schedule.id));
      client.removeQueries({ queryKey: queryKeys.sparkSchedule(schedule.id) });
      onDeleted();
      await client.invalidateQueries({ queryKey: queryKeys.sparkScheduleList() });
    },
  });
  return (
    <ConfirmDialog
      title={`Delete schedule #${schedule.id}`}
      confirmLabel="Delete schedule"
      busy={deletion.isPending}
      error={deletion.error}
      errorTestId="schedule-delete-error"
      onConfirm={() => deletion.mutate()}
      onCancel={onClose}
    >
      <p>
        The schedule stops submitting <code>{schedule.job_type}</code> jobs on <strong>{schedule.cluster}</strong> (
        {timingWords(schedule)}) at once. The jobs it started stay listed under Spark jobs.
      </p>
    </ConfirmDialog>
  );
}

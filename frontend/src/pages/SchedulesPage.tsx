import { Suspense, useState } from "react";
import { Link } from "react-router-dom";
import { sparkJobTypesQuery, sparkScheduleListQuery } from "../api/queries";
import { hasRole, RoleNotice, useCurrentUser } from "../components/CurrentUser";
import { DeletedFlash, RowCount } from "../components/ListToolbar";
import { Loading } from "../components/Loading";
import { loadStateOf, PageShell, Stale } from "../components/PageShell";
import { LazyScheduleForm as ScheduleForm } from "../components/schedules/LazyScheduleForm";
import { SchedulesTable } from "../components/schedules/SchedulesTable";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { usePolledQuery } from "../hooks/usePolledQuery";
import { JOB_TYPES_POLL_MS } from "../hooks/useSparkFormData";
import { SCHEDULES_POLL_MS, timingWords } from "../lib/schedules";
import { SPARK_JOBS_PATH } from "../navigation";

/**
 * /spark/schedules — the Spark job schedules (a job type with its params on a cluster, run at each
 * slot of a cron expression or every N minutes), fetched again every 15 s; a row opens to its
 * params and last runs. Operators create schedules (the form opens above the table), enable or
 * disable them and delete them; viewers read.
 */
export function SchedulesPage() {
  useDocumentTitle("Spark job schedules");
  const { user } = useCurrentUser();
  const canWrite = hasRole(user, "operator");
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const [deleted, setDeleted] = useState<string | undefined>(undefined);

  const list = usePolledQuery(sparkScheduleListQuery(), SCHEDULES_POLL_MS);
  const types = usePolledQuery(sparkJobTypesQuery(), JOB_TYPES_POLL_MS);

  const actions = (
    <>
      <RoleNotice role="operator" testId="operator-only">
        Only operators can create, enable, disable or delete schedules: read-only for your role
      </RoleNotice>
      <DeletedFlash what="Schedule" name={deleted} />
      {created && (
        <p className="notice notice-ok" role="status" data-testid="flash">
          {created}
        </p>
      )}
      <div className="toolbar">
        {list.data && <RowCount shown={list.data.length} total={list.data.length} noun="schedule" testId="schedules-count" />}
        <span className="toolbar-spacer" />
        {canWrite && (
          <button
            type="button"
            className="button button-primary"
            onClick={() => {
              setCreated(null);
              setDeleted(undefined);
              setCreating(true);
            }}
            disabled={creating}
            data-testid="schedule-new"
          >
            New schedule
          </button>
        )}
      </div>
    </>
  );

  return (
    <PageShell
      crumbs={[{ label: "Spark jobs", to: SPARK_JOBS_PATH }, { label: "Schedules" }]}
      title="Spark job schedules"
      updatedAt={list.updatedAt}
      actions={actions}
      {...loadStateOf(list)}
      what="the schedules"
      loadingLabel="Loading schedules…"
      // The form stays usable while a refresh fails: only the table is dimmed.
      dimStale={false}
      testId="schedules-page"
    >
      {canWrite && creating && (
        <Suspense fallback={<Loading label="Loading the form…" rows={4} />}>
          <ScheduleForm
            onCancel={() => setCreating(false)}
            onCreated={(schedule) => {
              setCreating(false);
              setCreated(`Schedule #${schedule.id} was created: ${schedule.job_type} on ${schedule.cluster}, ${timingWords(schedule)}.`);
              list.refresh();
            }}
          />
        </Suspense>
      )}
      {list.data && (
        <>
          <Stale when={!!list.error}>
            <SchedulesTable
              schedules={list.data}
              types={types.data}
              canWrite={canWrite}
              onDeleted={(schedule) => {
                setCreated(null);
                setDeleted(`#${schedule.id}`);
              }}
            />
          </Stale>
          <p className="field-hint">
            Each run submits an ordinary job, listed under <Link to={SPARK_JOBS_PATH}>Spark jobs</Link>; a slot whose
            previous job is still queued or running is skipped.
          </p>
        </>
      )}
    </PageShell>
  );
}

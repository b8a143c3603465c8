import { useParams } from "react-router-dom";
import type { Reassignment } from "../api/types";
import { clusterCrumbs, loadStateOf, PageShell } from "../components/PageShell";
import { CancelReassignment } from "../components/reassign/CancelReassignment";
import { PartitionProgressTable } from "../components/reassign/PartitionProgressTable";
import { PlanDownloads } from "../components/reassign/PlanDownloads";
import { PreferredLeaders } from "../components/reassign/PreferredLeaders";
import { ReassignmentProgress } from "../components/reassign/ReassignmentProgress";
import { ReassignmentStateBadge } from "../components/reassign/ReassignmentStateBadge";
import { ThrottleChange } from "../components/reassign/ThrottleChange";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useReassignment } from "../hooks/useReassignment";
import { formatCount, plural } from "../lib/format";
import { formatThrottle, topicsSummary } from "../lib/reassign";
import { NotFoundPage } from "./NotFoundPage";
import { FactTimestamp } from "../components/FactTimestamp";

/** A route's reassignment id, or null when it is not one. */
export function parseReassignmentId(value: string | undefined): number | null {
  return value !== undefined && /^[0-9]{1,15}$/.test(value) ? Number(value) : null;
}

/** /clusters/:cluster/reassignments/:id — one reassignment's progress, live (useReassignment). */
export function ReassignmentPage() {
  const { cluster = "", id } = useParams<{ cluster: string; id: string }>();
  const reassignmentId = parseReassignmentId(id);
  if (reassignmentId === null) return <NotFoundPage />;
  // Another reassignment's page starts with its own filters and forms.
  return <ReassignmentView key={`${cluster}/${reassignmentId}`} cluster={cluster} id={reassignmentId} />;
}

function ReassignmentView({ cluster, id }: { cluster: string; id: number }) {
  useDocumentTitle(`Reassignment #${id} · ${cluster}`);
  const query = useReassignment(cluster, id);
  const { data: r, replace, refresh, live } = query;
  const running = r?.state === "running";

  return (
    <PageShell
      crumbs={clusterCrumbs(cluster, "reassignments", `#${id}`)}
      title={cluster}
      updatedAt={query.updatedAt}
      live={live}
      tabsOf={cluster}
      heading={
        <>
          <span>Reassignment #{id}</span>
          {r && <ReassignmentStateBadge state={r.state} data-testid="reassign-state" />}
        </>
      }
      actions={
        running && r ? (
          <div className="toolbar">
            <ThrottleChange cluster={cluster} reassignment={r} onChanged={replace} />
            <span className="toolbar-spacer" />
            <CancelReassignment cluster={cluster} id={id} onCancelled={replace} />
          </div>
        ) : undefined
      }
      {...loadStateOf(query)}
      what={`reassignment #${id}`}
      loadingLabel="Loading the reassignment…"
      testId="reassignment-page"
    >
      {r && (
        <>
          <ReassignmentProgress reassignment={r} />
          {r.error && (
            <div className="job-error" role="alert" data-testid="reassign-error">
              <strong>{r.state === "failed" ? "The reassignment failed" : "Error"}</strong>
              <pre className="job-error-text">{r.error}</pre>
            </div>
          )}
          <ReassignmentFacts reassignment={r} />
          <PreferredLeaders cluster={cluster} reassignment={r} onElected={refresh} />
          <PartitionProgressTable partitions={r.partitions} />
          <section>
            <h2>Plan files</h2>
            <PlanDownloads plan={r.plan} rollback={r.rollback} />
          </section>
        </>
      )}
    </PageShell>
  );
}

function ReassignmentFacts({ reassignment: r }: { reassignment: Reassignment }) {
  const topics = [...new Set(r.partitions.map((p) => p.topic))];
  return (
    <dl className="facts job-facts">
      <div>
        <dt>Throttle</dt>
        <dd data-testid="reassign-throttle-value" data-bytes={r.throttle_bytes_per_s ?? undefined}>
          {r.throttle_bytes_per_s === null ? "none" : `${formatThrottle(r.throttle_bytes_per_s)} per broker`}
        </dd>
      </div>
      <div>
        <dt>Partitions</dt>
        <dd className="mono" title={topics.join(", ")}>
          {formatCount(r.partitions.length)} of {topicsSummary(topics)}
        </dd>
      </div>
      {r.throttled_brokers.length > 0 && (
        <div>
          <dt>Throttled {plural(r.throttled_brokers.length, "broker")}</dt>
          <dd className="mono">{r.throttled_brokers.join(", ")}</dd>
        </div>
      )}
      <div>
        <dt>Started by</dt>
        <dd>{r.created_by}</dd>
      </div>
      <FactTimestamp label="Started" at={r.created_at} testId="reassign-created" />
      <FactTimestamp label="Finished" at={r.finished_at} testId="reassign-finished" />
      <div>
        <dt>Reason</dt>
        <dd className={r.reason ? undefined : "muted"} data-testid="reassign-reason-value">
          {r.reason || "—"}
        </dd>
      </div>
    </dl>
  );
}

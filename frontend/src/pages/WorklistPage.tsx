import { useMemo, useState } from "react";
import { Link } from "react-router-dom";
import { ApiError } from "../api/client";
import { WORKLIST_STATUSES, type WorklistItem, type WorklistStatus, type WorklistTopics } from "../api/maintenance";
import { clustersQuery, maintenanceWorklistQuery, recentPipelineRunsQuery } from "../api/queries";
import type { ClusterSummary } from "../api/types";
import { hasRole, useCurrentUser } from "../components/CurrentUser";
import { ErrorBanner } from "../components/ErrorBanner";
import { FilterSelect, RowCount } from "../components/ListToolbar";
import { PageShell } from "../components/PageShell";
import { WorklistMarkDialog } from "../components/WorklistMarkDialog";
import { type RankedItem, WorklistTable } from "../components/WorklistTable";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { usePolledQuery } from "../hooks/usePolledQuery";
import { useQueryUpdate } from "../hooks/useQueryUpdate";
import { defaultCluster } from "../hooks/useSparkFormData";

/** A crew's marks and new scores show within this (a mark made here shows at once). */
export const WORKLIST_POLL_MS = 60_000;
const CLUSTERS_POLL_MS = 60_000;
/** How many of the most likely to fail are asked for (query `limit`; the server allows 1..1000). */
export const WORKLIST_LIMITS = [50, 200, 1000] as const;

/** The filter's choices (query `status`): "" all but the dismissed (the default), "all", or one status. */
type StatusFilter = "" | "all" | WorklistStatus;

function matches(filter: StatusFilter, status: WorklistStatus): boolean {
  return filter === "" ? status !== "dismissed" : filter === "all" || filter === status;
}

/**
 * /maintenance/worklist — what the maintenance crews work from: the equipment of the chosen
 * cluster (query `cluster`; by default the latest pipeline run's, as on /maintenance) most likely
 * to fail, with why, what happened since and the crew's status; operators mark an item
 * acknowledged, inspected, dismissed or open again, with a note.
 */
export function WorklistPage() {
  useDocumentTitle("Maintenance worklist");
  const [query, update] = useQueryUpdate();
  const { user } = useCurrentUser();
  const canMark = hasRole(user, "operator");

  const asked = query.get("cluster");
  const clusters = usePolledQuery(clustersQuery(), CLUSTERS_POLL_MS);
  // Only without a cluster in the URL: the latest run's is the default, as on /maintenance.
  const runs = usePolledQuery({ ...recentPipelineRunsQuery(1), enabled: !asked }, WORKLIST_POLL_MS);
  const runsSettled = Boolean(asked) || runs.data !== undefined || runs.error !== null;
  const cluster = defaultCluster(clusters.data, asked ?? runs.data?.[0]?.cluster ?? null);

  const limitParam = Number(query.get("limit"));
  const limit = WORKLIST_LIMITS.find((l) => l === limitParam) ?? WORKLIST_LIMITS[0];
  const filterParam = query.get("status") ?? "";
  const filter: StatusFilter = filterParam === "all" || WORKLIST_STATUSES.some((s) => s === filterParam) ? (filterParam as StatusFilter) : "";

  // Topics of the URL only (a cluster that scores into a topic of its own); else the server's.
  const topics = useMemo<WorklistTopics>(() => {
    const out: WorklistTopics = {};
    for (const key of ["topic", "alarms_topic", "work_orders_topic"] as const) {
      const value = query.get(key);
      if (value) out[key] = value;
    }
    return out;
  }, [query]);

  // Asked for once the cluster is known (no read of a cluster that is about to change).
  const worklist = usePolledQuery(
    { ...maintenanceWorklistQuery(cluster, limit, topics), enabled: cluster !== "" && runsSettled },
    WORKLIST_POLL_MS,
  );
  // No predictions topic on the cluster yet (404 topic_not_found): nothing was scored there.
  const noTopic = worklist.error instanceof ApiError && worklist.error.status === 404 && worklist.error.code === "topic_not_found";
  const noClusters = clusters.data?.length === 0;
  const clustersFailed = clusters.error !== null && cluster === "";

  const data = noTopic ? undefined : worklist.data;
  // The server's rank stays with each item whatever the filter hides.
  const ranked = useMemo<RankedItem[]>(() => (data ?? []).map((item, i) => ({ rank: i + 1, item })), [data]);
  const rows = useMemo(() => ranked.filter((r) => matches(filter, r.item.status)), [ranked, filter]);
  const counts = useMemo(() => countStatuses(data ?? []), [data]);

  const [marking, setMarking] = useState<WorklistItem | null>(null);

  const actions = (
    <div className="toolbar">
      <ClusterChoice clusters={clusters.data} cluster={cluster} onChange={(name) => update({ cluster: name })} />
      {data && (
        <FilterSelect
          label="Status"
          value={filter}
          onChange={(value) => update({ status: value })}
          testId="worklist-filter"
          anyLabel={`All but dismissed (${data.length - counts.dismissed})`}
          options={[
            { value: "all", label: `All (${data.length})` },
            ...WORKLIST_STATUSES.map((s) => ({ value: s, label: `${capitalize(s)} (${counts[s]})` })),
          ]}
        />
      )}
      <label className="wl-limit">
        <span className="muted">top</span>
        <select
          className="input"
          aria-label="How many equipment"
          value={limit}
          onChange={(event) => update({ limit: event.target.value === String(WORKLIST_LIMITS[0]) ? null : event.target.value })}
          data-testid="worklist-limit"
        >
          {WORKLIST_LIMITS.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
      </label>
      <span className="toolbar-spacer" />
      {data && <RowCount shown={rows.length} total={data.length} noun="item" testId="worklist-count" />}
    </div>
  );

  // Beside the page, not in it: the page's content is dimmed while stale, the dialog must not be.
  return (
    <>
      <PageShell
        crumbs={[{ label: "Predictive maintenance", to: "/maintenance" }, { label: "Worklist" }]}
        title="Maintenance worklist"
        updatedAt={worklist.updatedAt}
        actions={actions}
        loading={!noClusters && !clustersFailed && worklist.loading}
        error={noTopic ? null : worklist.error}
        stale={!noTopic && !!worklist.error && worklist.data !== undefined}
        onRetry={worklist.refresh}
        what="the worklist"
        loadingLabel="Loading the worklist…"
        skeletonRows={6}
        testId="worklist-page"
      >
        {clustersFailed && <ErrorBanner error={clusters.error!} title="Could not load the clusters" onRetry={clusters.refresh} />}
        {noClusters ? (
          <p className="empty">No cluster is registered.</p>
        ) : noTopic ? (
          <NoPredictions cluster={cluster} message={worklist.error?.message} />
        ) : (
          data &&
          (data.length === 0 ? (
            <p className="empty" data-testid="worklist-empty" data-reason="no-items">
              No equipment was scored on {cluster} yet: the score step of a pipeline run (or a score job) writes one
              prediction per equipment.
            </p>
          ) : (
            <WorklistTable
              rows={rows}
              onMark={canMark ? setMarking : null}
              empty={filter === "" ? "Every item is dismissed: choose “All” to see them." : "No item has this status."}
            />
          ))
        )}
      </PageShell>
      {marking && <WorklistMarkDialog cluster={cluster} item={marking} topics={topics} onClose={() => setMarking(null)} />}
    </>
  );
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function countStatuses(items: readonly WorklistItem[]): Record<WorklistStatus, number> {
  const counts: Record<WorklistStatus, number> = { open: 0, acknowledged: 0, inspected: 0, dismissed: 0 };
  for (const item of items) counts[item.status] += 1;
  return counts;
}

/** The cluster picker of /maintenance: a select when there is a choice, else the name. */
function ClusterChoice({
  clusters,
  cluster,
  onChange,
}: {
  clusters: ClusterSummary[] | undefined;
  cluster: string;
  onChange: (name: string) => void;
}) {
  if (clusters && clusters.length > 1) {
    return (
      <select className="input" aria-label="Cluster" value={cluster} onChange={(event) => onChange(event.target.value)} data-testid="worklist-cluster">
        {clusters.map((c) => (
          <option key={c.name} value={c.name}>
            {c.name}
          </option>
        ))}
      </select>
    );
  }
  return cluster ? <span className="muted">on {cluster}</span> : null;
}

/** Before the first score on the cluster: what to run, and where. */
function NoPredictions({ cluster, message }: { cluster: string; message: string | undefined }) {
  return (
    <div className="empty" data-testid="worklist-empty" data-reason="no-topic">
      <p>
        No predictions on {cluster} yet: run the pipeline with a score step (or a score job) on{" "}
        <Link to={`/maintenance?cluster=${encodeURIComponent(cluster)}`} data-testid="worklist-empty-link">
          Predictive maintenance
        </Link>
        , then come back.
      </p>
      {message && <p className="muted wl-empty-detail">{message}</p>}
    </div>
  );
}

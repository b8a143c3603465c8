import { Link } from "react-router-dom";
import { clustersQuery } from "../api/queries";
import type { ClusterSummary } from "../api/types";
import { ReachableBadge } from "../components/StatusBadge";
import { usePolledQuery } from "../hooks/usePolledQuery";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { formatCount } from "../lib/format";
import { PageShell } from "../components/PageShell";

export const CLUSTERS_POLL_MS = 15_000;

export function ClustersPage() {
  useDocumentTitle("Clusters");
  const { data, error, loading, updatedAt, refresh } = usePolledQuery(clustersQuery(), CLUSTERS_POLL_MS);

  return (
    <PageShell
      title="Clusters"
      updatedAt={updatedAt}
      loading={loading}
      error={error}
      stale={!!error && data !== undefined}
      what="the clusters"
      loadingLabel="Loading clusters…"
      onRetry={refresh}
    >
      {data &&
        (data.length === 0 ? <p className="empty">No clusters are registered.</p> : <ClustersTable clusters={data} />)}
    </PageShell>
  );
}

function ClustersTable({ clusters }: { clusters: ClusterSummary[] }) {
  return (
    <div className="table-wrap">
      <table className="table" data-testid="clusters-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Bootstrap servers</th>
            <th scope="col">Cluster ID</th>
            <th scope="col" className="num">Controller</th>
            <th scope="col" className="num">Brokers</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {clusters.map((c) => (
            <tr key={c.name} data-testid={`cluster-row-${c.name}`} data-reachable={c.reachable}>
              <td>
                <Link to={`/clusters/${encodeURIComponent(c.name)}`} className="strong-link">
                  {c.name}
                </Link>
                <SameClusterNote names={c.same_cluster_as} />
              </td>
              <td className="mono wrap">{c.bootstrap_servers}</td>
              <td className="mono">{c.cluster_id ?? "—"}</td>
              <td className="num">{formatCount(c.controller_id)}</td>
              <td className="num">{formatCount(c.broker_count)}</td>
              <td>
                <ReachableBadge reachable={c.reachable} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Other registry entries with the same Kafka cluster id: one cluster reached another way
 *  (e.g. another listener); /metrics exports it once. */
function SameClusterNote({ names }: { names?: string[] }) {
  if (!names?.length) return null;
  return (
    <>
      {" "}
      <span className="muted" data-testid="same-cluster-as" title="Same Kafka cluster id">
        same cluster as {names.join(", ")}
      </span>
    </>
  );
}

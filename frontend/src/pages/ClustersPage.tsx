import { Link } from "react-router-dom";
import { clustersQuery } from "../api/queries";
import type { ClusterSummary } from "../api/types";
import { ProtectedBadge, ReachableBadge } from "../components/StatusBadge";
import { usePolledQuery } from "../hooks/usePolledQuery";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { formatCount } from "../lib/format";
import { loadStateOf, PageShell } from "../components/PageShell";
import { type HeaderColumn, numeric, Table } from "../components/TableParts";

const CLUSTER_COLUMNS: HeaderColumn[] = ["Name", "Bootstrap servers", "Cluster ID", numeric("Controller"), numeric("Brokers"), "Status"];

export const CLUSTERS_POLL_MS = 15_000;

export function ClustersPage() {
  useDocumentTitle("Clusters");
  const clusters = usePolledQuery(clustersQuery(), CLUSTERS_POLL_MS);
  const { data } = clusters;

  return (
    <PageShell
      title="Clusters"
      updatedAt={clusters.updatedAt}
      {...loadStateOf(clusters)}
      what="the clusters"
      loadingLabel="Loading clusters…"
    >
      {data &&
        (data.length === 0 ? <p className="empty">No clusters are registered.</p> : <ClustersTable clusters={data} />)}
    </PageShell>
  );
}

function ClustersTable({ clusters }: { clusters: ClusterSummary[] }) {
  return (
    <Table columns={CLUSTER_COLUMNS} data-testid="clusters-table">
      {clusters.map((c) => (
        <tr key={c.name} data-testid={`cluster-row-${c.name}`} data-reachable={c.reachable}>
          <td>
            <Link to={`/clusters/${encodeURIComponent(c.name)}`} className="strong-link">
              {c.name}
            </Link>{" "}
            <ProtectedBadge protected={c.protected} testId={`cluster-protected-${c.name}`} />
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
    </Table>
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

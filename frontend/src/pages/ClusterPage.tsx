import { Link, useParams } from "react-router-dom";
import { clusterOverviewQuery, type ClusterOverview } from "../api/queries";
import { queryKeys } from "../api/queryKeys";
import type { Broker } from "../api/types";
import { BrokerBalance } from "../components/broker/BrokerBalance";
import { BrokerDataCell, BrokerDiskCell } from "../components/broker/BrokerDiskCells";
import { HealthCards } from "../components/HealthCards";
import { LeadershipChart } from "../components/LeadershipChart";
import { ProtectedBadge, ReachableBadge, StatusBadge } from "../components/StatusBadge";
import { pollInterval, useMetadataSocket } from "../hooks/useLiveSocket";
import { usePolledQuery, useRefetch } from "../hooks/usePolledQuery";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { withDisks, type BrokerWithDisk } from "../lib/brokerBalance";
import { formatCount, plural } from "../lib/format";
import { brokerPath } from "../navigation";
import { clusterCrumbs, loadStateOf, PageShell } from "../components/PageShell";
import { type HeaderColumn, numeric, Table } from "../components/TableParts";

const BROKER_COLUMNS: HeaderColumn[] = [
  numeric("ID"),
  "Host:port",
  "Rack",
  "Role",
  numeric("Leaders"),
  numeric("Replicas"),
  numeric("Offline replicas"),
  { label: "Disk", title: "Used (total − usable) of the total of the broker's log directories; amber above 80 %, red above 90 %" },
  numeric("Data", "The bytes of every replica the broker holds"),
];

export const CLUSTER_POLL_MS = 5_000;

/** The controller is the broker flagged is_controller; failing that, controller_id. */
function controllerOf(view: ClusterOverview): Broker | undefined {
  return (
    view.brokers.find((b) => b.is_controller) ??
    view.brokers.find((b) => b.id === view.detail.controller_id)
  );
}

export function ClusterPage() {
  const { cluster = "" } = useParams<{ cluster: string }>();
  useDocumentTitle(cluster);

  // Brokers, leaders or ISR changed: refetch at once; the slow poll is only a safety net then.
  const live = useMetadataSocket(cluster, useRefetch(queryKeys.clusterOverview(cluster)));
  const overview = usePolledQuery(clusterOverviewQuery(cluster), pollInterval(live, CLUSTER_POLL_MS));
  const { data } = overview;
  const controller = data ? controllerOf(data) : undefined;
  // The live brokers with their disks and data (GET clusters/{cluster} reports them).
  const brokers = data ? withDisks(data.brokers, data.detail.brokers) : [];

  return (
    <PageShell
      crumbs={clusterCrumbs(cluster)}
      title={
        <>
          {cluster} {data && <ReachableBadge reachable={data.detail.reachable} />}{" "}
          {data && <ProtectedBadge protected={data.detail.protected} />}
        </>
      }
      updatedAt={overview.updatedAt}
      live={live}
      tabsOf={cluster}
      {...loadStateOf(overview)}
      what={`cluster ${cluster}`}
      loadingLabel="Loading cluster…"
    >
      {data && (
        <>
          <dl className="facts">
            <div>
              <dt>Cluster ID</dt>
              <dd className="mono" data-testid="cluster-id">
                {data.detail.cluster_id ?? "—"}
              </dd>
            </div>
            <div>
              <dt>Controller</dt>
              <dd data-testid="cluster-controller">
                {data.detail.controller_id === null ? (
                  "—"
                ) : (
                  <>
                    broker {data.detail.controller_id}
                    {controller && (
                      <span className="muted mono">
                        {" "}
                        ({controller.host}:{controller.port})
                      </span>
                    )}
                  </>
                )}
              </dd>
            </div>
            <div>
              <dt>Bootstrap servers</dt>
              <dd className="mono wrap">{data.detail.bootstrap_servers}</dd>
            </div>
          </dl>

          <BrokerSummary brokers={data.brokers} />

          <h2>Partition health</h2>
          {data.topicsError && (
            <p className="inline-error" role="alert" data-testid="health-error">
              Could not load the topic health: {data.topicsError.message}
            </p>
          )}
          <HealthCards cluster={cluster} topics={data.topics} />

          <h2>Leadership balance</h2>
          <LeadershipChart brokers={data.brokers} />

          {brokers.length > 0 && (
            <>
              <h2>Balance</h2>
              <BrokerBalance brokers={brokers} />
            </>
          )}

          <h2>Brokers</h2>
          {brokers.length === 0 ? (
            <p className="empty">No broker is online.</p>
          ) : (
            <BrokersTable cluster={cluster} brokers={brokers} controllerId={controller?.id} />
          )}
        </>
      )}
    </PageShell>
  );
}

function BrokerSummary({ brokers }: { brokers: Broker[] }) {
  const sum = (pick: (b: Broker) => number) => brokers.reduce((acc, b) => acc + pick(b), 0);
  const offline = sum((b) => b.offline_replica_count);
  return (
    <div className="summary">
      <p className="summary-item" data-testid="broker-count" data-count={brokers.length}>
        <strong className="summary-number">{brokers.length}</strong>{" "}
        {plural(brokers.length, "broker")} online
      </p>
      <p className="summary-item">
        <strong className="summary-number">{formatCount(sum((b) => b.leader_count))}</strong> partition
        leaders
      </p>
      <p className="summary-item">
        <strong className="summary-number">{formatCount(sum((b) => b.replica_count))}</strong> replicas
      </p>
      <p className={offline > 0 ? "summary-item summary-bad" : "summary-item"} data-testid="offline-replicas">
        <strong className="summary-number">{formatCount(offline)}</strong> offline{" "}
        {plural(offline, "replica")}
      </p>
    </div>
  );
}

function BrokersTable({
  cluster,
  brokers,
  controllerId,
}: {
  cluster: string;
  brokers: BrokerWithDisk[];
  controllerId: number | undefined;
}) {
  return (
    <Table columns={BROKER_COLUMNS} data-testid="brokers-table">
      {brokers.map((b) => {
        const isController = b.id === controllerId;
        return (
          <tr
            key={b.id}
            data-testid={`broker-row-${b.id}`}
            className={isController ? "row-controller" : undefined}
          >
            <td className="num">
              <Link to={brokerPath(cluster, b.id)} className="strong-link" data-testid={`broker-link-${b.id}`}>
                {b.id}
              </Link>
            </td>
            <td className="mono">
              {b.host}:{b.port}
            </td>
            <td className={b.rack === null ? "muted" : undefined}>{b.rack ?? "—"}</td>
            <td>
              {isController && (
                <StatusBadge tone="info" data-testid="controller-badge" title="Active controller">
                  controller
                </StatusBadge>
              )}
            </td>
            <td className="num">{formatCount(b.leader_count)}</td>
            <td className="num">{formatCount(b.replica_count)}</td>
            <td className={b.offline_replica_count > 0 ? "num cell-bad" : "num"}>
              {formatCount(b.offline_replica_count)}
            </td>
            <BrokerDiskCell broker={b} />
            <BrokerDataCell broker={b} />
          </tr>
        );
      })}
    </Table>
  );
}

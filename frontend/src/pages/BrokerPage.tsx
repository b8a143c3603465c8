import { Fragment } from "react";
import { Link, useParams } from "react-router-dom";
import { brokerDefaultsQuery, brokerQuery } from "../api/queries";
import { BrokerApiVersions } from "../components/broker/BrokerApiVersions";
import { BrokerConfigs } from "../components/broker/BrokerConfigs";
import { BrokerDefaults } from "../components/broker/BrokerDefaults";
import { BrokerLogDirs } from "../components/broker/BrokerLogDirs";
import { BrokerReplicas } from "../components/broker/BrokerReplicas";
import { BrokerSummary, BrokerTitle } from "../components/broker/BrokerSummary";
import { hasRole, useCurrentUser } from "../components/CurrentUser";
import { clusterCrumbs, loadStateOf, PageShell } from "../components/PageShell";
import { useBrokerConfigWrite } from "../hooks/useBrokerConfigWrite";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { usePolledQuery } from "../hooks/usePolledQuery";
import { reassignNewPath } from "../navigation";

/** Log dir sizes change all the time and nothing pushes them: poll. */
export const BROKER_POLL_MS = 10_000;

/** The broker id of the URL, or null when it is not one. */
function brokerIdOf(param: string): number | null {
  return /^\d+$/.test(param) ? Number(param) : null;
}

/**
 * /clusters/:cluster/brokers/:broker — one live broker: its address, rack and role, the replicas
 * it leads and holds, its log directories (use of each volume), every replica with its size, its
 * configs, the cluster-wide dynamic configs and the API versions it supports. Admins change and
 * revert configs, on this broker or cluster-wide, and plan moving its replicas off it (the Reassign
 * tab, preset). A broker that is not live answers 404 (the banner).
 */
export function BrokerPage() {
  const { cluster = "", broker = "" } = useParams<{ cluster: string; broker: string }>();
  useDocumentTitle(`Broker ${broker} · ${cluster}`);
  const id = brokerIdOf(broker);

  const detail = usePolledQuery({ ...brokerQuery(cluster, id ?? -1), enabled: id !== null }, BROKER_POLL_MS);
  const defaults = usePolledQuery({ ...brokerDefaultsQuery(cluster), enabled: id !== null }, BROKER_POLL_MS);
  const isAdmin = hasRole(useCurrentUser().user, "admin", cluster);
  const write = useBrokerConfigWrite(cluster, id ?? -1);
  const { data } = detail;
  const load =
    id === null
      ? { loading: false, error: new Error(`"${broker}" is not a broker id.`), stale: false }
      : loadStateOf(detail);

  return (
    <PageShell
      crumbs={clusterCrumbs(cluster, undefined, `Broker ${broker}`)}
      title={cluster}
      updatedAt={detail.updatedAt}
      tabsOf={cluster}
      heading={<BrokerTitle id={broker} detail={data} />}
      actions={isAdmin && data && <BrokerDrainLink cluster={cluster} id={data.id} />}
      {...load}
      what={`broker ${broker}`}
      loadingLabel="Loading broker…"
      skeletonRows={6}
      testId="broker-page"
    >
      {data && (
        // Another broker's page starts with its own filters and sort.
        <Fragment key={`${cluster}/${broker}`}>
          <BrokerSummary detail={data} />
          <BrokerLogDirs dirs={data.log_dirs} error={data.log_dirs_error} />
          <BrokerReplicas cluster={cluster} dirs={data.log_dirs} unavailable={data.log_dirs_error !== null} />
          <BrokerConfigs configs={data.configs} brokerId={data.id} editable={isAdmin} write={write} />
          <BrokerDefaults rows={defaults.data} error={defaults.error} brokerId={data.id} editable={isAdmin} write={write} />
          <BrokerApiVersions versions={data.api_versions} />
        </Fragment>
      )}
    </PageShell>
  );
}

/** To the Reassign tab with every topic of the broker chosen and the other live brokers as targets. */
function BrokerDrainLink({ cluster, id }: { cluster: string; id: number }) {
  return (
    <div className="toolbar">
      <span className="toolbar-spacer" />
      <Link
        to={reassignNewPath(cluster, { drain: id })}
        className="button"
        title="Plan a reassignment of its topics over the other live brokers; nothing moves before you preview and execute it"
        data-testid="broker-drain"
      >
        Move replicas off this broker…
      </Link>
    </div>
  );
}

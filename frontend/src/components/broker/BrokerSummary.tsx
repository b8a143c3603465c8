import type { BrokerDetail } from "../../api/types";
import { formatCount, plural } from "../../lib/format";
import { StatusBadge } from "../StatusBadge";

/** The heading's text: "Broker 1", then (once loaded) host:port, rack and the controller badge. */
export function BrokerTitle({ id, detail }: { id: string; detail: BrokerDetail | undefined }) {
  return (
    <span className="broker-title" data-testid="broker-title">
      <span>Broker {detail?.id ?? id}</span>
      {detail && (
        <>
          <span className="mono muted" data-testid="broker-address">
            {detail.host}:{detail.port}
          </span>
          <span className={detail.rack === null ? "broker-rack muted" : "broker-rack"} data-testid="broker-rack">
            {detail.rack === null ? "no rack" : `rack ${detail.rack}`}
          </span>
          {detail.is_controller && (
            <StatusBadge tone="info" title="Active controller" data-testid="broker-controller-badge">
              controller
            </StatusBadge>
          )}
        </>
      )}
    </span>
  );
}

/** The partitions the broker leads, the replicas it holds, and how many of them are offline (red). */
export function BrokerSummary({ detail }: { detail: BrokerDetail }) {
  const offline = detail.offline_replica_count;
  return (
    <div className="summary">
      <p className="summary-item" data-testid="broker-leader-count" data-count={detail.leader_count}>
        <strong className="summary-number">{formatCount(detail.leader_count)}</strong> partition{" "}
        {plural(detail.leader_count, "leader")}
      </p>
      <p className="summary-item" data-testid="broker-replica-count" data-count={detail.replica_count}>
        <strong className="summary-number">{formatCount(detail.replica_count)}</strong> {plural(detail.replica_count, "replica")}
      </p>
      <p
        className={offline > 0 ? "summary-item summary-bad" : "summary-item"}
        data-testid="broker-offline-replica-count"
        data-count={offline}
      >
        <strong className="summary-number">{formatCount(offline)}</strong> offline {plural(offline, "replica")}
      </p>
    </div>
  );
}

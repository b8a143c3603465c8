import type { GroupDetail } from "../../api/types";
import { formatClock, formatCount, formatDuration, formatRate, plural } from "../../lib/format";
import { formatCatchUp } from "../../lib/lagStatus";
import { timeOf } from "../../lib/liveGroups";
import { GroupStateBadge } from "../GroupStateBadge";
import { LagStatusBadge, RetentionRiskBadge } from "../LagStatusBadge";

/** The group's facts: state, lag status, members, total lag, lag in time, time to catch up,
 * rates, coordinator, protocol, last sample. */
export function GroupFacts({ detail }: { detail: GroupDetail }) {
  const members = detail.members.length;
  const lagging = detail.offsets.filter((o) => (o.lag ?? 0) > 0).length;
  const sampled = timeOf(detail.sampled_at);
  return (
    <dl className="facts">
      <div>
        <dt>State</dt>
        <dd>
          <GroupStateBadge state={detail.state} data-testid="group-state" />
        </dd>
      </div>
      <div>
        <dt>Lag status</dt>
        <dd>
          <LagStatusBadge status={detail.status} data-testid="group-status" />
          <RetentionRiskBadge risk={detail.retention_risk} reason={detail.retention_reason} data-testid="group-risk" />
        </dd>
      </div>
      <div>
        <dt>Members</dt>
        <dd data-testid="group-members" data-count={members}>
          {formatCount(members)}
        </dd>
      </div>
      <div>
        <dt>Total lag</dt>
        <dd data-testid="group-total-lag" data-lag={detail.total_lag ?? ""} className={detail.total_lag ? "lag-cell" : undefined}>
          {formatCount(detail.total_lag)}
          <span className="muted">
            {" "}
            ({formatCount(lagging)} of {formatCount(detail.offsets.length)} {plural(detail.offsets.length, "partition")}{" "}
            behind)
          </span>
        </dd>
      </div>
      <div>
        <dt title="Age of the oldest record the group has not read yet">Lag in time</dt>
        <dd className="nowrap" data-testid="group-lag-seconds" data-seconds={detail.max_lag_seconds ?? ""}>
          {formatDuration(detail.max_lag_seconds)}
        </dd>
      </div>
      <div>
        <dt title="At the current write and consume rates">Time to catch up</dt>
        <dd data-testid="group-catch-up" data-seconds={detail.catch_up_seconds ?? ""}>
          {formatCatchUp(detail.catch_up_seconds, detail.total_lag, detail.rates)}
        </dd>
      </div>
      <div>
        <dt title="Records per second, means over the sampler's window">Write / consume</dt>
        <dd data-testid="group-rates">
          {formatRate(detail.rates.write_per_s)} / {formatRate(detail.rates.consume_per_s)}
        </dd>
      </div>
      <div>
        <dt>Coordinator</dt>
        <dd data-testid="group-coordinator">{detail.coordinator === null ? "—" : `broker ${detail.coordinator}`}</dd>
      </div>
      <div>
        <dt>Protocol</dt>
        <dd>
          {detail.protocol_type || "—"}
          {detail.assignor && <span className="muted"> · {detail.assignor}</span>}
        </dd>
      </div>
      <div>
        <dt title="When the lag sampler last evaluated the group">Last sample</dt>
        <dd data-testid="group-sampled-at">
          {sampled === null ? <span className="muted">not sampled yet</span> : formatClock(new Date(sampled))}
        </dd>
      </div>
    </dl>
  );
}

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import { deleteGroup, getGroup, groupOffsetsCsvUrl } from "../api/endpoints";
import type { LagSocketMessage, LagSubscription } from "../api/live";
import type { GroupDetail, GroupMember, GroupOffset, GroupTopicLag, RetentionRisk } from "../api/types";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { hasRole, useCurrentUser } from "../components/CurrentUser";
import { GroupStateBadge } from "../components/GroupStateBadge";
import { LagChart } from "../components/LagChart";
import { LagHistoryChart } from "../components/LagHistoryChart";
import { LagStatusBadge, RetentionRiskBadge } from "../components/LagStatusBadge";
import { PartitionLagChart } from "../components/PartitionLagChart";
import { ResetHistory } from "../components/ResetHistory";
import { ResetWizard } from "../components/ResetWizard";
import { VirtualBody } from "../components/SortableTable";
import { pollInterval, useLagSocket } from "../hooks/useLiveSocket";
import { usePolling } from "../hooks/usePolling";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useVirtualRows } from "../hooks/useVirtualRows";
import { formatClock, formatCount, formatDuration, formatRate, plural } from "../lib/format";
import { formatAssignments, groupTopics } from "../lib/groupStates";
import { formatCatchUp, RISK_HELP } from "../lib/lagStatus";
import { applyGroupMessages, EMPTY_LIVE_GROUP, membershipChanged } from "../lib/liveGroup";
import { latestOf, overlayDetail, timeOf } from "../lib/liveGroups";
import { sortByTopicPartition } from "../lib/resetPlans";
import { clusterPath, topicPath } from "../navigation";
import { PageShell, Stale } from "../components/PageShell";

export const GROUP_POLL_MS = 5_000;
/** Height of one offsets table row in px (fixed in styles.css: .vtable td). */
export const OFFSET_ROW_HEIGHT = 36;

/**
 * /clusters/:cluster/groups/:group — state, members and lag of one consumer group, the lag charts,
 * members, topics and offsets tables, the offsets.csv export, and for operators the reset wizard,
 * undo and delete. Live: the lag socket's samples of this group update the numbers, statuses, the
 * charts and the offsets as they arrive (REST polled every 30 s then, every 5 s without them); a
 * membership change refetches the detail at once.
 */
export function GroupPage() {
  const { cluster = "", group = "" } = useParams<{ cluster: string; group: string }>();
  useDocumentTitle(`${group} · ${cluster}`);
  const navigate = useNavigate();
  const { user } = useCurrentUser();
  const isOperator = hasRole(user, "operator");

  // Live samples of this group (reset when another group opens in the same page).
  const [liveView, setLiveView] = useState(EMPTY_LIVE_GROUP);
  // When the last live sample of the group arrived (the title's "updated" time).
  const [liveAt, setLiveAt] = useState<Date | null>(null);
  useEffect(() => {
    setLiveView(EMPTY_LIVE_GROUP);
    setLiveAt(null);
  }, [cluster, group]);
  const refreshRef = useRef<() => void>(() => {});
  const subscription = useMemo<LagSubscription | null>(() => (group ? { subscribe: { groups: [group] } } : null), [group]);
  const onMessages = useCallback(
    (messages: LagSocketMessage[]) => {
      setLiveView((prev) => applyGroupMessages(prev, messages, group));
      if (messages.some((m) => m.type === "lag" && m.group_id === group)) setLiveAt(new Date());
      // Members joined or left: the members and assignments come from the REST detail.
      if (membershipChanged(messages, group)) refreshRef.current();
    },
    [group],
  );
  const live = useLagSocket(cluster, subscription, onMessages);

  const fetcher = useCallback((signal: AbortSignal) => getGroup(cluster, group, signal), [cluster, group]);
  const { data: fetched, error, loading, updatedAt, refresh } = usePolling(fetcher, pollInterval(live, GROUP_POLL_MS));
  refreshRef.current = refresh;
  const data = useMemo(() => (fetched ? overlayDetail(fetched, liveView.latest) : undefined), [fetched, liveView.latest]);
  const shownAt = latestOf(updatedAt, liveAt);
  const chartTopics = useMemo(() => (data ? allTopics(data) : []), [data]);

  const [wizardOpen, setWizardOpen] = useState(false);
  const [historyVersion, setHistoryVersion] = useState(0);
  const [deleting, setDeleting] = useState(false);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [deleteError, setDeleteError] = useState<Error | null>(null);

  const onChanged = useCallback(() => {
    refresh();
    setHistoryVersion((v) => v + 1);
  }, [refresh]);

  const onDelete = async () => {
    setDeleteBusy(true);
    setDeleteError(null);
    try {
      await deleteGroup(cluster, group);
      navigate(clusterPath(cluster, "groups"), { state: { deletedGroup: group } });
    } catch (err) {
      setDeleteError(err instanceof Error ? err : new Error(String(err)));
      setDeleteBusy(false);
      refresh();
    }
  };

  const members = data?.members.length ?? 0;
  const stale = !!error && data !== undefined;

  return (
    <PageShell
      crumbs={[
        { label: "Clusters", to: "/" },
        { label: cluster, to: clusterPath(cluster) },
        { label: "Consumer groups", to: clusterPath(cluster, "groups") },
        { label: group },
      ]}
      title={cluster}
      updatedAt={shownAt}
      live={live}
      tabsOf={cluster}
      heading={
        <>
          <span className="mono">{group}</span>
          {data && <GroupStateBadge state={data.state} />}
          {data && <LagStatusBadge status={data.status} />}
        </>
      }
      loading={loading}
      error={error}
      stale={stale}
      what={`group ${group}`}
      loadingLabel="Loading consumer group…"
      skeletonRows={5}
      onRetry={refresh}
      // The toolbar and the wizard stay usable while the facts and tables are dimmed.
      dimStale={false}
    >
      {data && (
        <>
          <Stale when={stale}>
            <RetentionNotice detail={data} />
            <GroupFacts detail={data} />
          </Stale>

          <div className="toolbar group-actions">
            {isOperator && (
              <button
                type="button"
                className="button button-primary"
                onClick={() => setWizardOpen(true)}
                disabled={wizardOpen}
                data-testid="reset-open"
              >
                Reset offsets…
              </button>
            )}
            <a
              className="button"
              href={groupOffsetsCsvUrl(cluster, group)}
              download={`${group}-offsets.csv`}
              data-testid="export-csv"
            >
              Export offsets.csv
            </a>
            <span className="toolbar-spacer" />
            {isOperator && (
              <>
                {members > 0 && (
                  <span className="field-hint" data-testid="delete-group-hint">
                    Delete needs a group without members: stop its {members} {plural(members, "member")} first.
                  </span>
                )}
                <button
                  type="button"
                  className="button button-danger-outline"
                  onClick={() => setDeleting(true)}
                  disabled={members > 0}
                  title={members > 0 ? "Kafka deletes only groups without members" : undefined}
                  data-testid="delete-group"
                >
                  Delete group…
                </button>
              </>
            )}
          </div>

          {wizardOpen && isOperator && (
            <ResetWizard cluster={cluster} group={data} onChanged={onChanged} onClose={() => setWizardOpen(false)} />
          )}

          <Stale when={stale}>
            <h2>Lag over time</h2>
            <div className="chart-stack">
              <LagHistoryChart
                key={`${cluster}/${group}`}
                cluster={cluster}
                group={group}
                topics={chartTopics}
                preferred={mostLagging(data.topics)}
                livePoints={liveView.points}
                live={live.live}
              />
            </div>

            <h2>Lag per partition</h2>
            <div className="chart-stack">
              <LagChart offsets={data.offsets} />
              <PartitionLagChart series={liveView.partitions} live={live.live} />
            </div>

            <h2>
              Topics <span className="muted count-suffix">({data.topics.length})</span>
            </h2>
            <TopicsTable cluster={cluster} topics={data.topics} />

            <h2>
              Members <span className="muted count-suffix">({members})</span>
            </h2>
            <MembersTable members={data.members} />

            <h2>
              Offsets <span className="muted count-suffix">({data.offsets.length})</span>
            </h2>
            <OffsetsTable cluster={cluster} offsets={data.offsets} members={data.members} />
          </Stale>
        </>
      )}

      <h2>Reset history</h2>
      <ResetHistory
        cluster={cluster}
        group={group}
        canUndo={isOperator}
        version={historyVersion}
        onChanged={refresh}
      />

      {deleting && (
        <ConfirmDialog
          title={`Delete consumer group ${group}`}
          expected={group}
          confirmLabel="Delete group"
          busy={deleteBusy}
          error={deleteError}
          onConfirm={() => void onDelete()}
          onCancel={() => {
            setDeleting(false);
            setDeleteError(null);
          }}
        >
          <p>
            The group&apos;s committed offsets on cluster <strong>{cluster}</strong> are deleted. A consumer that joins
            with this group id later starts from its <code>auto.offset.reset</code> position. Export the offsets first
            if you may need them.
          </p>
        </ConfirmDialog>
      )}
    </PageShell>
  );
}

/** The group's topics for the history chart: with offsets, assignments or a live sample; sorted. */
function allTopics(detail: GroupDetail): string[] {
  const names = new Set(groupTopics(detail));
  for (const t of detail.topics) names.add(t.topic);
  return [...names].sort();
}

/** The topic with the most lag (the history chart's first topic), if any lags. */
function mostLagging(topics: GroupTopicLag[]): string | undefined {
  let best: GroupTopicLag | undefined;
  for (const t of topics) if ((t.lag ?? 0) > (best?.lag ?? 0)) best = t;
  return best?.topic;
}

/** The topics at a risk, worst first. */
function topicsAtRisk(detail: GroupDetail, risk: RetentionRisk): string[] {
  const names = new Set<string>();
  for (const t of detail.topics) if (t.retention_risk === risk) names.add(t.topic);
  for (const o of detail.offsets) if (o.retention_risk === risk) names.add(o.topic);
  return [...names].sort();
}

/** A warning above the facts when retention deleted, or is about to delete, records the group has not read. */
function RetentionNotice({ detail }: { detail: GroupDetail }) {
  const lost = topicsAtRisk(detail, "lost");
  const near = topicsAtRisk(detail, "near").filter((t) => !lost.includes(t));
  if (lost.length === 0 && near.length === 0 && detail.retention_risk === "none") return null;
  const risk: RetentionRisk = lost.length > 0 || detail.retention_risk === "lost" ? "lost" : "near";
  return (
    <div
      className={`notice ${risk === "lost" ? "notice-error" : "notice-warn"} risk-notice`}
      role="alert"
      data-testid="group-retention-risk"
      data-risk={risk}
    >
      {lost.length > 0 || risk === "lost" ? (
        <p>
          <strong>Records lost:</strong> retention deleted records of{" "}
          {lost.length > 0 ? <span className="mono">{lost.join(", ")}</span> : "a topic"} before this group consumed them.
          The group skips them when it resumes.
        </p>
      ) : null}
      {near.length > 0 || (risk === "near" && lost.length === 0) ? (
        <p>
          <strong>Records close to deletion:</strong> the group reads in the oldest part of the retained log of{" "}
          {near.length > 0 ? <span className="mono">{near.join(", ")}</span> : "a topic"}; the next segment deletion removes
          records it has not read yet.
        </p>
      ) : null}
    </div>
  );
}

function GroupFacts({ detail }: { detail: GroupDetail }) {
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
          <RetentionRiskBadge risk={detail.retention_risk} />
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
        <dd data-testid="group-lag-seconds" data-seconds={detail.max_lag_seconds ?? ""}>
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

/** Per topic: lag, lag in time, rates, time to catch up, retention risk (from the latest sample). */
function TopicsTable({ cluster, topics }: { cluster: string; topics: GroupTopicLag[] }) {
  if (topics.length === 0) {
    return (
      <p className="empty" data-testid="group-topics-empty">
        No sample yet: the lag sampler has not evaluated this group.
      </p>
    );
  }
  return (
    <div className="table-wrap">
      <table className="table" data-testid="group-topics-table">
        <thead>
          <tr>
            <th scope="col">Topic</th>
            <th scope="col" className="num">
              Lag
            </th>
            <th scope="col" className="num" title="Age of the oldest record the group has not read yet">
              Lag in time
            </th>
            <th scope="col" className="num">
              Write
            </th>
            <th scope="col" className="num">
              Consume
            </th>
            <th scope="col" className="num" title="At the current rates">
              Catch up
            </th>
            <th scope="col">Retention</th>
          </tr>
        </thead>
        <tbody>
          {topics.map((t) => (
            <tr key={t.topic} data-testid={`group-topic-row-${t.topic}`} data-risk={t.retention_risk}>
              <td className="name-cell">
                <Link to={topicPath(cluster, t.topic)}>{t.topic}</Link>
              </td>
              <td className={t.lag ? "num lag-cell" : "num"}>{formatCount(t.lag)}</td>
              <td className="num">{formatDuration(t.max_lag_seconds)}</td>
              <td className="num">{formatRate(t.rates.write_per_s)}</td>
              <td className="num">{formatRate(t.rates.consume_per_s)}</td>
              <td className="num">{formatCatchUp(t.catch_up_seconds, t.lag, t.rates)}</td>
              <td>
                {t.retention_risk === "none" ? (
                  <span className="muted">—</span>
                ) : (
                  <RetentionRiskBadge risk={t.retention_risk} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function MembersTable({ members }: { members: GroupMember[] }) {
  if (members.length === 0) {
    return (
      <p className="empty" data-testid="group-members-empty">
        No member is connected.
      </p>
    );
  }
  const sorted = [...members].sort((a, b) =>
    a.client_id < b.client_id ? -1 : a.client_id > b.client_id ? 1 : a.member_id < b.member_id ? -1 : 1,
  );
  return (
    <div className="table-wrap">
      <table className="table" data-testid="group-members-table">
        <thead>
          <tr>
            <th scope="col">Client id</th>
            <th scope="col">Host</th>
            <th scope="col" className="num">
              Partitions
            </th>
            <th scope="col">Assigned</th>
            <th scope="col">Member id</th>
          </tr>
        </thead>
        <tbody>
          {sorted.map((m) => (
            <tr key={m.member_id} data-testid={`member-row-${m.member_id}`}>
              <td className="mono">{m.client_id || "—"}</td>
              <td className="mono">{m.host || "—"}</td>
              <td className="num">{m.assignments.length}</td>
              <td className="wrap mono">{m.assignments.length ? formatAssignments(m.assignments) : "—"}</td>
              <td className="mono muted member-id" title={m.member_id}>
                {m.member_id}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function OffsetsTable({ cluster, offsets, members }: { cluster: string; offsets: GroupOffset[]; members: GroupMember[] }) {
  const rows = useMemo(() => sortByTopicPartition(offsets), [offsets]);
  const byMember = useMemo(() => new Map(members.map((m) => [m.member_id, m])), [members]);
  const scroller = useRef<HTMLDivElement>(null);
  const { indexes, padTop, padBottom, virtualized } = useVirtualRows(rows.length, scroller, OFFSET_ROW_HEIGHT, (i) => {
    const r = rows[i];
    return r ? `${r.topic}\u0000${r.partition}` : i;
  });
  const span = 9;
  return (
    <div className={virtualized ? "table-wrap vscroll" : "table-wrap"} ref={scroller} data-testid="group-offsets-scroll">
      <table className="table vtable" data-testid="group-offsets-table" aria-rowcount={rows.length + 1}>
        <thead>
          <tr>
            <th scope="col">Topic</th>
            <th scope="col" className="num">
              Partition
            </th>
            <th scope="col" className="num">
              Committed
            </th>
            <th scope="col" className="num">
              Log start
            </th>
            <th scope="col" className="num">
              Log end
            </th>
            <th scope="col" className="num">
              Lag
            </th>
            <th scope="col" className="num" title="Age of the record at the committed offset">
              Lag in time
            </th>
            <th scope="col">Status</th>
            <th scope="col">Member</th>
          </tr>
        </thead>
        <VirtualBody
          span={span}
          empty="The group has no committed offsets."
          isEmpty={rows.length === 0}
          padTop={padTop}
          padBottom={padBottom}
        >
          {indexes.map((index) => {
            const o = rows[index]!;
            const member = o.member_id ? byMember.get(o.member_id) : undefined;
            return (
              <tr
                key={`${o.topic}-${o.partition}`}
                data-testid={`offset-row-${o.topic}-${o.partition}`}
                aria-rowindex={index + 2}
                className={index % 2 ? "zebra" : undefined}
              >
                <td className="name-cell">
                  <Link to={topicPath(cluster, o.topic)}>{o.topic}</Link>
                </td>
                <td className="num">{o.partition}</td>
                <td className={o.committed_offset === null ? "num muted" : "num"}>{formatCount(o.committed_offset)}</td>
                <td className="num">{formatCount(o.log_start_offset)}</td>
                <td className="num">{formatCount(o.log_end_offset)}</td>
                <td className={o.lag === null ? "num muted" : o.lag > 0 ? "num lag-cell" : "num"}>{formatCount(o.lag)}</td>
                <td className={o.lag_seconds === null ? "num muted" : "num"}>{formatDuration(o.lag_seconds)}</td>
                <td className="status-cell" title={o.retention_risk === "none" ? undefined : RISK_HELP[o.retention_risk]}>
                  <LagStatusBadge status={o.status} data-testid={`offset-status-${o.topic}-${o.partition}`} />
                  <RetentionRiskBadge risk={o.retention_risk} compact data-testid={`offset-risk-${o.topic}-${o.partition}`} />
                </td>
                <td className="mono" title={o.member_id ?? undefined}>
                  {o.member_id === null ? (
                    <span className="muted">—</span>
                  ) : member ? (
                    `${member.client_id || member.member_id} (${member.host})`
                  ) : (
                    o.member_id
                  )}
                </td>
              </tr>
            );
          })}
        </VirtualBody>
      </table>
    </div>
  );
}

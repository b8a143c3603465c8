import { useCallback, useMemo, useRef, useState } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import { deleteGroup, getGroup, groupOffsetsCsvUrl } from "../api/endpoints";
import type { GroupDetail, GroupMember, GroupOffset } from "../api/types";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { hasRole, useCurrentUser } from "../components/CurrentUser";
import { GroupStateBadge } from "../components/GroupStateBadge";
import { LagChart } from "../components/LagChart";
import { ResetHistory } from "../components/ResetHistory";
import { ResetWizard } from "../components/ResetWizard";
import { VirtualBody } from "../components/SortableTable";
import { usePolling } from "../hooks/usePolling";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useVirtualRows } from "../hooks/useVirtualRows";
import { formatCount, plural } from "../lib/format";
import { formatAssignments } from "../lib/groupStates";
import { sortByTopicPartition } from "../lib/resetPlans";
import { clusterPath, topicPath } from "../navigation";
import { PageShell, Stale } from "../components/PageShell";

export const GROUP_POLL_MS = 5_000;
/** Height of one offsets table row in px (fixed in styles.css: .vtable td). */
export const OFFSET_ROW_HEIGHT = 36;

/**
 * /clusters/:cluster/groups/:group — state, members and lag of one consumer
 * group (polled every 5 s), the lag chart, members and offsets tables, the
 * offsets.csv export, and for operators the reset wizard, undo and delete.
 */
export function GroupPage() {
  const { cluster = "", group = "" } = useParams<{ cluster: string; group: string }>();
  useDocumentTitle(`${group} · ${cluster}`);
  const navigate = useNavigate();
  const { user } = useCurrentUser();
  const isOperator = hasRole(user, "operator");

  const fetcher = useCallback((signal: AbortSignal) => getGroup(cluster, group, signal), [cluster, group]);
  const { data, error, loading, updatedAt, refresh } = usePolling(fetcher, GROUP_POLL_MS);

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
      updatedAt={updatedAt}
      tabsOf={cluster}
      heading={
        <>
          <span className="mono">{group}</span>
          {data && <GroupStateBadge state={data.state} />}
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
            <h2>Lag per partition</h2>
            <LagChart offsets={data.offsets} />

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

function GroupFacts({ detail }: { detail: GroupDetail }) {
  const members = detail.members.length;
  const lagging = detail.offsets.filter((o) => (o.lag ?? 0) > 0).length;
  return (
    <dl className="facts">
      <div>
        <dt>State</dt>
        <dd>
          <GroupStateBadge state={detail.state} data-testid="group-state" />
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
    </dl>
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
  const span = 7;
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

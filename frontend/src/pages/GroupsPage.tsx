import { memo, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { Link, useLocation, useParams } from "react-router-dom";
import { groupListQuery } from "../api/queries";
import { queryKeys } from "../api/queryKeys";
import type { LagSocketMessage, LagSubscription } from "../api/live";
import type { GroupSummary, Rates } from "../api/types";
import { GroupStateBadge } from "../components/GroupStateBadge";
import { LagStatusBadge, RetentionRiskBadge } from "../components/LagStatusBadge";
import { SortHeaders, VirtualBody, type SortColumn } from "../components/SortableTable";
import { pollInterval, useLagSocket } from "../hooks/useLiveSocket";
import { usePolledQuery, useRefetch } from "../hooks/usePolledQuery";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useQueryUpdate } from "../hooks/useQueryUpdate";
import { useVirtualRows } from "../hooks/useVirtualRows";
import { formatCount, formatDuration, plural } from "../lib/format";
import { catchUpSortValue, formatCatchUp, LAG_SEVERITY } from "../lib/lagStatus";
import {
  createRowOverlay,
  latestOf,
  mergeLiveMessages,
  NO_LIVE_GROUPS,
  unknownGroups,
  type LiveGroups,
} from "../lib/liveGroups";
import { clusterPath, groupPath, topicPath } from "../navigation";
import { PageShell } from "../components/PageShell";

export const GROUPS_POLL_MS = 5_000;
/** Height of one table row in px (fixed in styles.css: .vtable td). */
export const GROUP_ROW_HEIGHT = 36;
/** Topic names shown in a row before "+N". */
export const TOPICS_SHOWN = 3;

type SortKey =
  | "group_id"
  | "state"
  | "status"
  | "member_count"
  | "topics"
  | "total_lag"
  | "max_lag"
  | "max_lag_seconds"
  | "catch_up_seconds";

type Column = SortColumn<SortKey>;

const COLUMNS: Column[] = [
  { key: "group_id", label: "Group", numeric: false },
  { key: "state", label: "State", numeric: false },
  {
    key: "status",
    label: "Status",
    numeric: true,
    title: "Lag status (worst partition): OK, WARN, STALL, STOP, ERR, REWIND; UNKNOWN before 3 samples",
  },
  { key: "member_count", label: "Members", numeric: true },
  { key: "topics", label: "Topics", numeric: false, title: "Topics with committed offsets or assigned partitions" },
  { key: "total_lag", label: "Total lag", numeric: true, title: "Sum over partitions of log end − committed offset" },
  { key: "max_lag", label: "Max lag", numeric: true, title: "The largest lag of one partition" },
  { key: "max_lag_seconds", label: "Lag in time", numeric: true, title: "Age of the oldest record the group has not read" },
  {
    key: "catch_up_seconds",
    label: "Catch up",
    numeric: true,
    title: "Time to reach the log end at the current rates; never: consuming no faster than the producers write",
  },
];

/** Every group of the cluster, on the lag socket. */
const ALL_GROUPS: LagSubscription = { subscribe: { all: true } };

const SORT_KEYS = new Set<string>(COLUMNS.map((c) => c.key));

function byId(a: GroupSummary, b: GroupSummary): number {
  return a.group_id < b.group_id ? -1 : a.group_id > b.group_id ? 1 : 0;
}

function sortValue(row: GroupSummary, key: SortKey): number | string | null {
  switch (key) {
    case "group_id":
      return row.group_id;
    case "state":
      return row.state;
    case "topics":
      return row.topics.length;
    case "status":
      // UNKNOWN with the unknown lags: last whatever the order.
      return row.status === "UNKNOWN" ? null : (LAG_SEVERITY[row.status] ?? null);
    case "catch_up_seconds":
      return catchUpSortValue(row.catch_up_seconds, row.total_lag, row.rates);
    default:
      return row[key];
  }
}

/** Sorted copy; unknown lag (null) always last; ties by group id. */
export function sortGroups(rows: GroupSummary[], key: SortKey, desc: boolean): GroupSummary[] {
  const dir = desc ? -1 : 1;
  return [...rows].sort((a, b) => {
    const va = sortValue(a, key);
    const vb = sortValue(b, key);
    if (va === null || vb === null) {
      if (va !== vb) return va === null ? 1 : -1;
      return byId(a, b);
    }
    if (va !== vb) return (va < vb ? -1 : 1) * dir;
    return key === "group_id" ? 0 : byId(a, b);
  });
}

/** Groups whose id contains `search` (case-insensitive) and, if given, that consume `topic`. */
export function filterGroups(rows: GroupSummary[], search: string, topic: string | null): GroupSummary[] {
  const needle = search.trim().toLowerCase();
  return rows.filter(
    (row) => (!needle || row.group_id.toLowerCase().includes(needle)) && (!topic || row.topics.includes(topic)),
  );
}

/**
 * /clusters/:cluster/groups — every consumer group with its state, lag status, members, topics,
 * lag, lag in time and time to catch up. URL query: search (group id substring), topic (groups
 * consuming it), sort, order=desc. Live: the lag socket (all groups) updates the rows as samples
 * arrive, merged into a map keyed by group id (only changed rows re-render); the list is then
 * polled every 30 s (new and deleted groups show at once: a group the list lacks or a group gone
 * refetches it), every 5 s without live updates. Long lists are virtualized.
 */
export function GroupsPage() {
  const { cluster = "" } = useParams<{ cluster: string }>();
  useDocumentTitle(`Consumer groups · ${cluster}`);
  const location = useLocation();
  const deleted = (location.state as { deletedGroup?: string } | null)?.deletedGroup;

  const [params, update] = useQueryUpdate();
  const search = params.get("search") ?? "";
  const topic = params.get("topic") || null;
  const sortParam = params.get("sort") ?? "group_id";
  const sortKey = (SORT_KEYS.has(sortParam) ? sortParam : "group_id") as SortKey;
  const desc = params.get("order") === "desc";

  // Live samples by group id, and when the last batch arrived.
  const [liveGroups, setLiveGroups] = useState<LiveGroups>(NO_LIVE_GROUPS);
  const [liveAt, setLiveAt] = useState<Date | null>(null);
  // Unknown group ids already refetched for (once each).
  const asked = useRef(new Set<string>());
  useEffect(() => {
    setLiveGroups(NO_LIVE_GROUPS);
    setLiveAt(null);
    asked.current = new Set();
  }, [cluster]);
  // The ids of the list on screen; null until it loaded (messages before it are no news).
  const known = useRef<ReadonlySet<string> | null>(null);
  const refetchList = useRefetch(queryKeys.groupList(cluster));
  const onMessages = useCallback((messages: LagSocketMessage[]) => {
    setLiveGroups((prev) => mergeLiveMessages(prev, messages));
    setLiveAt(new Date());
    // A group the list does not have yet (each asked for once), or one that is gone: refetch.
    const listed = known.current;
    if (!listed) return;
    const fresh = unknownGroups(messages, listed).filter((id) => !asked.current.has(id));
    const gone = messages.some((m) => m.type === "group_state" && m.state === "Dead" && listed.has(m.group_id));
    for (const id of fresh) asked.current.add(id);
    if (fresh.length > 0 || gone) refetchList();
  }, [refetchList]);
  const live = useLagSocket(cluster, ALL_GROUPS, onMessages);

  const { data: fetched, error, loading, updatedAt, refresh } = usePolledQuery(
    groupListQuery(cluster),
    pollInterval(live, GROUPS_POLL_MS),
  );
  useEffect(() => {
    known.current = fetched ? new Set(fetched.map((g) => g.group_id)) : null;
  }, [fetched]);

  // One overlay per cluster: it remembers its rows, so unchanged ones keep their objects.
  const overlay = useMemo(() => createRowOverlay(), [cluster]);
  const data = useMemo(() => (fetched ? overlay(fetched, liveGroups) : undefined), [fetched, liveGroups, overlay]);

  const deferredSearch = useDeferredValue(search);
  const rows = useMemo(
    () => (data ? sortGroups(filterGroups(data, deferredSearch, topic), sortKey, desc) : []),
    [data, deferredSearch, topic, sortKey, desc],
  );
  const allTopics = useMemo(() => {
    const names = new Set<string>();
    for (const g of fetched ?? []) for (const t of g.topics) names.add(t);
    if (topic) names.add(topic);
    return [...names].sort();
  }, [fetched, topic]);

  const onSort = (column: Column) => {
    if (column.key === sortKey) {
      update({ order: desc ? null : "desc" });
    } else {
      // Numbers are most useful biggest first.
      update({ sort: column.key === "group_id" ? null : column.key, order: column.numeric ? "desc" : null });
    }
  };

  // Above the table whatever its state: the flash after a delete, search and filters.
  const actions = (
    <>
      {deleted && (
        <p className="notice notice-ok" role="status" data-testid="flash">
          Consumer group <strong className="mono">{deleted}</strong> was deleted.
        </p>
      )}

      <div className="toolbar">
        <input
          type="search"
          className="input"
          placeholder="Search groups…"
          aria-label="Search groups by id"
          value={search}
          onChange={(event) => update({ search: event.target.value })}
          data-testid="group-search"
        />
        <select
          className="input"
          aria-label="Only groups consuming this topic"
          value={topic ?? ""}
          onChange={(event) => update({ topic: event.target.value })}
          data-testid="group-topic-filter"
        >
          <option value="">Any topic</option>
          {allTopics.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        <span className="toolbar-spacer" />
        {data && (
          <span className="muted" data-testid="group-count" data-count={rows.length}>
            {rows.length === data.length
              ? `${formatCount(rows.length)} ${plural(rows.length, "group")}`
              : `${formatCount(rows.length)} of ${formatCount(data.length)} ${plural(data.length, "group")}`}
          </span>
        )}
      </div>
    </>
  );

  return (
    <PageShell
      crumbs={[{ label: "Clusters", to: "/" }, { label: cluster, to: clusterPath(cluster) }, { label: "Consumer groups" }]}
      title={cluster}
      updatedAt={latestOf(updatedAt, liveAt)}
      live={live}
      tabsOf={cluster}
      actions={actions}
      loading={loading}
      error={error}
      stale={!!error && data !== undefined}
      what="the consumer groups"
      loadingLabel="Loading consumer groups…"
      skeletonRows={6}
      onRetry={refresh}
    >
      {data && (
        <GroupsTable
          cluster={cluster}
          rows={rows}
          sortKey={sortKey}
          desc={desc}
          onSort={onSort}
          empty={data.length === 0 ? "This cluster has no consumer groups." : "No group matches the search."}
        />
      )}
    </PageShell>
  );
}

interface GroupsTableProps {
  cluster: string;
  rows: GroupSummary[];
  sortKey: SortKey;
  desc: boolean;
  onSort: (column: Column) => void;
  empty: string;
}

function GroupsTable({ cluster, rows, sortKey, desc, onSort, empty }: GroupsTableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const { indexes, padTop, padBottom } = useVirtualRows(
    rows.length,
    scroller,
    GROUP_ROW_HEIGHT,
    (index) => rows[index]?.group_id ?? index,
  );
  const span = COLUMNS.length;

  return (
    <div className="table-wrap vscroll" ref={scroller} data-testid="groups-scroll">
      <table className="table vtable" data-testid="groups-table" aria-rowcount={rows.length + 1}>
        <thead>
          <tr>
            <SortHeaders columns={COLUMNS} sortKey={sortKey} desc={desc} onSort={onSort} />
          </tr>
        </thead>
        <VirtualBody span={span} empty={empty} isEmpty={rows.length === 0} padTop={padTop} padBottom={padBottom}>
          {indexes.map((index) => {
            const row = rows[index]!;
            return <GroupRow key={row.group_id} cluster={cluster} row={row} index={index} />;
          })}
        </VirtualBody>
      </table>
    </div>
  );
}

function CatchUpCell({ seconds, lag, rates }: { seconds: number | null; lag: number | null; rates: Rates }) {
  const text = formatCatchUp(seconds, lag, rates);
  return <td className={text === "never" ? "num nowrap lag-cell" : text === "—" ? "num nowrap muted" : "num nowrap"}>{text}</td>;
}

/** One row; memoized: a live sample of another group does not re-render it. */
const GroupRow = memo(function GroupRow({ cluster, row, index }: { cluster: string; row: GroupSummary; index: number }) {
  const shown = row.topics.slice(0, TOPICS_SHOWN);
  const more = row.topics.length - shown.length;
  return (
    <tr
      data-testid={`group-row-${row.group_id}`}
      aria-rowindex={index + 2}
      className={index % 2 ? "zebra" : undefined}
      data-state={row.state}
      data-status={row.status}
      data-risk={row.retention_risk}
    >
      <td className="name-cell">
        <Link to={groupPath(cluster, row.group_id)} className="strong-link">
          {row.group_id}
        </Link>
        {row.protocol_type && row.protocol_type !== "consumer" && (
          <span className="badge badge-neutral badge-inline" title="Protocol type">
            {row.protocol_type}
          </span>
        )}
      </td>
      <td>
        <GroupStateBadge state={row.state} />
      </td>
      <td className="status-cell">
        <LagStatusBadge status={row.status} />
        <RetentionRiskBadge risk={row.retention_risk} compact />
      </td>
      <td className={row.member_count > 0 ? "num" : "num muted"}>{formatCount(row.member_count)}</td>
      <td className="topics-cell" title={row.topics.join(", ")}>
        {row.topics.length === 0 ? (
          <span className="muted">—</span>
        ) : (
          <>
            {shown.map((t, i) => (
              <span key={t}>
                {i > 0 && ", "}
                <Link to={topicPath(cluster, t)}>{t}</Link>
              </span>
            ))}
            {more > 0 && (
              <span className="more-count" data-testid="topics-more">
                {" "}
                +{more}
              </span>
            )}
          </>
        )}
      </td>
      <td className={row.total_lag ? "num lag-cell" : "num muted"}>{formatCount(row.total_lag)}</td>
      <td className={row.max_lag ? "num" : "num muted"}>{formatCount(row.max_lag)}</td>
      <td className={row.max_lag_seconds ? "num nowrap" : "num nowrap muted"}>{formatDuration(row.max_lag_seconds)}</td>
      <CatchUpCell seconds={row.catch_up_seconds} lag={row.total_lag} rates={row.rates} />
    </tr>
  );
});

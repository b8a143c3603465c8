import { memo, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { Link, useLocation, useParams } from "react-router-dom";
import { useQueryClient } from "@tanstack/react-query";
import { listGroups } from "../api/endpoints";
import { groupListQuery } from "../api/queries";
import { queryKeys } from "../api/queryKeys";
import type { LagSocketMessage, LagSubscription } from "../api/live";
import type { GroupSummary, Rates } from "../api/types";
import { GroupStateBadge } from "../components/GroupStateBadge";
import { LagStatusBadge, RetentionRiskBadge } from "../components/LagStatusBadge";
import { DeletedFlash, FilterSelect, RowCount, SearchBox } from "../components/ListToolbar";
import { clusterCrumbs, loadStateOf, PageShell } from "../components/PageShell";
import { SortHeaders, virtualRowProps, VirtualTable, type SortColumn } from "../components/SortableTable";
import { pollInterval, useLagSocket } from "../hooks/useLiveSocket";
import { usePolledQuery, useRefetch } from "../hooks/usePolledQuery";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useQueryUpdate } from "../hooks/useQueryUpdate";
import { useSortQuery } from "../hooks/useSortQuery";
import { formatCount, formatDuration } from "../lib/format";
import { catchUpSortValue, formatCatchUp, LAG_SEVERITY } from "../lib/lagStatus";
import {
  createRowOverlay,
  latestOf,
  mergeLiveMessages,
  newestSample,
  NO_LIVE_GROUPS,
  unknownGroups,
  type LiveGroups,
} from "../lib/liveGroups";
import { groupPath, topicPath } from "../navigation";

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
    numeric: false, // badges: aligned with the cells, as State's
    descFirst: true, // the worst first
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
/** Up to this many groups the page takes every group's live lag; above, only the rows it shows
 * (at 20,000 groups every pass brought 20,000 messages to the browser and scrolling fell to
 * about 15 frames a second). The others update with the list, polled. */
export const LIVE_EVERY_GROUP_UP_TO = 1000;
/** How long the rows shown must stay put before the subscription follows them. */
const VISIBLE_SETTLE_MS = 250;

/** The lag subscription of a list of `listed` groups (null: not loaded yet, so no socket: a big
 * cluster's every group must not come before the list says how many there are) showing
 * `visible` (null: not known yet). */
export function lagSubscriptionFor(listed: number | null, visible: readonly string[] | null): LagSubscription | null {
  if (listed === null) return null;
  if (listed <= LIVE_EVERY_GROUP_UP_TO) return ALL_GROUPS;
  return visible && visible.length > 0 ? { subscribe: { groups: [...visible].sort() } } : null;
}

/** The ids of `rows[first..last]`, sorted and joined by newlines ("" for no rows). */
export function shownGroupsKey(rows: readonly GroupSummary[], [first, last]: readonly [number, number]): string {
  if (first < 0) return "";
  return rows
    .slice(first, last + 1)
    .map((row) => row.group_id)
    .sort()
    .join("\n");
}

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
 * consuming it), sort, order=desc. Live: the lag socket (all groups; above
 * LIVE_EVERY_GROUP_UP_TO, the groups of the rows shown) updates the rows as samples
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
  const sort = useSortQuery(COLUMNS, "group_id");
  const { sortKey, desc } = sort;

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
  // The ids of the rows on screen (a long list subscribes to those only): the settled range of
  // row indexes over the rows in their current order, so a sort or a filter that leaves the
  // scroll where it is moves the subscription too. Sorted, so reordering within the view does
  // not resubscribe.
  const [range, setRange] = useState<readonly [number, number] | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const visible = useMemo(() => (shown === null ? null : shown === "" ? [] : shown.split("\n")), [shown]);
  const [listed, setListed] = useState<number | null>(null);
  const subscription = useMemo(() => lagSubscriptionFor(listed, visible), [listed, visible]);
  const live = useLagSocket(cluster, subscription, onMessages);

  const list = usePolledQuery(groupListQuery(cluster), pollInterval(live, GROUPS_POLL_MS));
  const fetched = list.data;
  useEffect(() => setListed(fetched ? fetched.length : null), [fetched]);
  // The list comes from the lag sampler's latest pass; "Read now" asks Kafka at once.
  const client = useQueryClient();
  const [reading, setReading] = useState(false);
  const readNow = useCallback(async () => {
    setReading(true);
    try {
      client.setQueryData(queryKeys.groupList(cluster), await listGroups(cluster, undefined, true));
    } catch {
      void client.invalidateQueries({ queryKey: queryKeys.groupList(cluster) });
    } finally {
      setReading(false);
    }
  }, [client, cluster]);
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
  // The range settles before it is state: scrolling does not re-render the page every row.
  const settle = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (settle.current) clearTimeout(settle.current);
  }, []);
  const onRange = useCallback((first: number, last: number) => {
    if (settle.current) clearTimeout(settle.current);
    settle.current = setTimeout(() => {
      setRange((prev) => (prev && prev[0] === first && prev[1] === last ? prev : [first, last]));
    }, VISIBLE_SETTLE_MS);
  }, []);
  useEffect(() => {
    if (range !== null) setShown(shownGroupsKey(rows, range));
  }, [rows, range]);
  const allTopics = useMemo(() => {
    const names = new Set<string>();
    for (const g of fetched ?? []) for (const t of g.topics) names.add(t);
    if (topic) names.add(topic);
    return [...names].sort();
  }, [fetched, topic]);

  // Above the table whatever its state: the flash after a delete, search and filters.
  const actions = (
    <>
      <DeletedFlash what="Consumer group" name={deleted} />

      <div className="toolbar">
        <SearchBox value={search} onChange={(value) => update({ search: value })} noun="group" by="id" />
        <FilterSelect
          label="Only groups consuming this topic"
          value={topic ?? ""}
          onChange={(value) => update({ topic: value })}
          testId="group-topic-filter"
          anyLabel="Any topic"
          options={allTopics}
        />
        <span className="toolbar-spacer" />
        {data && <RowCount shown={rows.length} total={data.length} noun="group" testId="group-count" />}
        <button
          type="button"
          className="button button-small"
          onClick={() => void readNow()}
          disabled={reading}
          title="The list shows the lag sampler's latest pass; read Kafka now instead"
          data-testid="groups-read-now"
        >
          {reading ? "Reading…" : "Read now"}
        </button>
      </div>
    </>
  );

  return (
    <PageShell
      crumbs={clusterCrumbs(cluster, "groups")}
      title={cluster}
      updatedAt={latestOf(newestSample(fetched) ?? list.updatedAt, liveAt)}
      live={live}
      tabsOf={cluster}
      actions={actions}
      {...loadStateOf(list)}
      what="the consumer groups"
      loadingLabel="Loading consumer groups…"
      skeletonRows={6}
    >
      {data && (
        <VirtualTable
          testId="groups"
          rows={rows}
          rowKey={(row) => row.group_id}
          rowHeight={GROUP_ROW_HEIGHT}
          head={<SortHeaders columns={COLUMNS} {...sort} />}
          span={COLUMNS.length}
          empty={data.length === 0 ? "This cluster has no consumer groups." : "No group matches the search."}
          renderRow={(row, index) => <GroupRow key={row.group_id} cluster={cluster} row={row} index={index} />}
          onRange={onRange}
        />
      )}
    </PageShell>
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
      {...virtualRowProps(index)}
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
        <RetentionRiskBadge
          risk={row.retention_risk}
          reason={row.retention_reason}
          compact
          data-testid={`group-risk-${row.group_id}`}
        />
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

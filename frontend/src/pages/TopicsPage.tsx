import { useDeferredValue, useMemo } from "react";
import { Link, useLocation, useParams } from "react-router-dom";
import { topicListQuery } from "../api/queries";
import { queryKeys } from "../api/queryKeys";
import type { TopicHealthFilter, TopicSummary } from "../api/types";
import { hasRole, useCurrentUser } from "../components/CurrentUser";
import { DeletedFlash, FilterSelect, RowCount, SearchBox, ToolbarCheckbox } from "../components/ListToolbar";
import { clusterCrumbs, loadStateOf, PageShell } from "../components/PageShell";
import { SortHeaders, virtualRowProps, VirtualTable, type SortColumn } from "../components/SortableTable";
import { TopicUsageCells } from "../components/TopicUsageCells";
import { pollInterval, useMetadataSocket } from "../hooks/useLiveSocket";
import { usePolledQuery, useRefetch } from "../hooks/usePolledQuery";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useQueryUpdate } from "../hooks/useQueryUpdate";
import { useSortQuery } from "../hooks/useSortQuery";
import { formatCount } from "../lib/format";
import { HEALTH_KINDS, MISCONFIGURED, countTone, healthKind, misconfiguredText, topicSeverity } from "../lib/topicHealth";
import { clusterPath, topicPath } from "../navigation";

export const TOPICS_POLL_MS = 10_000;
/** Height of one table row in px (fixed in styles.css: .vtable td). */
export const TOPIC_ROW_HEIGHT = 36;
const OVERSCAN = 12;

type SortKey =
  | "name"
  | "partition_count"
  | "replication_factor"
  | "size_bytes"
  | "message_count"
  | "reader_groups"
  | "under_replicated_count"
  | "under_min_isr_count"
  | "at_min_isr_count"
  | "unavailable_count";

type Column = SortColumn<SortKey>;

const COLUMNS: Column[] = [
  { key: "name", label: "Name", numeric: false },
  { key: "partition_count", label: "Partitions", numeric: true },
  { key: "replication_factor", label: "RF", numeric: true, title: "Replication factor" },
  { key: "size_bytes", label: "Size", numeric: true, title: "The leader replicas' size on disk" },
  {
    key: "message_count",
    label: "Messages",
    numeric: true,
    title: "End offsets minus start offsets, summed over the partitions (≤: compacted, an upper bound)",
  },
  {
    key: "reader_groups",
    label: "Read by",
    numeric: true,
    title: "Consumer groups with committed offsets on the topic, at the lag sampler's last pass",
  },
  ...HEALTH_KINDS.map((k) => ({ key: k.countKey, label: k.short, numeric: true, title: k.help })),
];

/** The health filter's choices: each health kind (kafka-topics.sh's filters), then the misconfigured topics. */
const HEALTH_FILTERS = [
  ...HEALTH_KINDS.map((k) => ({ value: k.filter, label: k.label })),
  { value: MISCONFIGURED.code, label: MISCONFIGURED.title },
];

function byName(a: TopicSummary, b: TopicSummary): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Sorted copy; unknown values (null: size, messages, readers) always last; ties (and the name
 * column) by name. */
export function sortTopics(rows: TopicSummary[], key: SortKey, desc: boolean): TopicSummary[] {
  const dir = desc ? -1 : 1;
  return [...rows].sort((a, b) => {
    if (key === "name") return byName(a, b) * dir;
    const va = a[key];
    const vb = b[key];
    if (va === null || vb === null) {
      if (va !== vb) return va === null ? 1 : -1;
      return byName(a, b);
    }
    return (va - vb) * dir || byName(a, b);
  });
}

/** Topics whose name contains `search` (case-insensitive). */
export function searchTopics(rows: TopicSummary[], search: string): TopicSummary[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return rows;
  return rows.filter((row) => row.name.toLowerCase().includes(needle));
}

/**
 * /clusters/:cluster/topics — every topic with its size, message count, reading groups and
 * partition health counts.
 * URL query: search (client-side substring), filter (server-side health
 * filter, or min_isr_unreachable: the misconfigured topics, on the client),
 * internal=true, sort and order. Rows are virtualized: only the
 * visible ones (plus a few) are in the DOM, so 10,000 topics stay smooth.
 */
export function TopicsPage() {
  const { cluster = "" } = useParams<{ cluster: string }>();
  useDocumentTitle(`Topics · ${cluster}`);
  const { user } = useCurrentUser();
  const isAdmin = hasRole(user, "admin", cluster);
  const location = useLocation();
  const deleted = (location.state as { deleted?: string } | null)?.deleted;

  const [params, update] = useQueryUpdate();
  const search = params.get("search") ?? "";
  const filter = (healthKind(params.get("filter"))?.filter ?? null) as TopicHealthFilter | null;
  // Not a kafka-topics.sh filter: every row says whether it is misconfigured.
  const misconfiguredOnly = params.get("filter") === MISCONFIGURED.code;
  const includeInternal = params.get("internal") === "true";
  const sort = useSortQuery(COLUMNS, "name");
  const { sortKey, desc } = sort;

  // A topic created or deleted, a leader or ISR changed: refetch at once (slow poll meanwhile).
  const live = useMetadataSocket(cluster, useRefetch(queryKeys.topicList(cluster, { includeInternal, filter })));
  const list = usePolledQuery(topicListQuery(cluster, { includeInternal, filter }), pollInterval(live, TOPICS_POLL_MS));
  const { data } = list;

  const deferredSearch = useDeferredValue(search);
  const shown = useMemo(
    () => (data && misconfiguredOnly ? data.filter((row) => row.min_isr_unreachable) : data),
    [data, misconfiguredOnly],
  );
  const rows = useMemo(
    () => (shown ? sortTopics(searchTopics(shown, deferredSearch), sortKey, desc) : []),
    [shown, deferredSearch, sortKey, desc],
  );

  // Above the table whatever its state: the flash after a delete, search and filters.
  const actions = (
    <>
      <DeletedFlash what="Topic" name={deleted} />

      <div className="toolbar">
        <SearchBox value={search} onChange={(value) => update({ search: value })} noun="topic" by="name" />
        <FilterSelect
          label="Health filter"
          value={misconfiguredOnly ? MISCONFIGURED.code : (filter ?? "")}
          onChange={(value) => update({ filter: value })}
          testId="topic-filter"
          anyLabel="All topics"
          options={HEALTH_FILTERS}
        />
        <ToolbarCheckbox
          checked={includeInternal}
          onChange={(checked) => update({ internal: checked ? "true" : null })}
          testId="topic-internal"
        >
          Show internal topics
        </ToolbarCheckbox>
        <span className="toolbar-spacer" />
        {shown && <RowCount shown={rows.length} total={shown.length} noun="topic" testId="topic-count" />}
        {isAdmin && (
          <Link to={clusterPath(cluster, "create-topic")} className="button button-primary" data-testid="create-topic">
            Create topic
          </Link>
        )}
      </div>
    </>
  );

  return (
    <PageShell
      crumbs={clusterCrumbs(cluster, "topics")}
      title={cluster}
      updatedAt={list.updatedAt}
      live={live}
      tabsOf={cluster}
      actions={actions}
      {...loadStateOf(list)}
      what="the topics"
      loadingLabel="Loading topics…"
      skeletonRows={6}
    >
      {shown && (
        <VirtualTable
          testId="topics"
          rows={rows}
          rowKey={(row) => row.name}
          rowHeight={TOPIC_ROW_HEIGHT}
          // Always virtualized (threshold -1), whatever the number of topics.
          virtual={{ threshold: -1, overscan: OVERSCAN }}
          head={
            <>
              <th scope="col" className="col-marker">
                <span className="visually-hidden">Health</span>
              </th>
              <SortHeaders columns={COLUMNS} {...sort} />
            </>
          }
          span={COLUMNS.length + 1}
          renderRow={(row, index) => <TopicRow key={row.name} cluster={cluster} row={row} index={index} />}
          empty={
            shown.length === 0
              ? filter
                ? `No topic has ${healthKind(filter)!.label.toLowerCase()} partitions.`
                : misconfiguredOnly
                  ? "No topic has a replication factor below its min.insync.replicas."
                  : "This cluster has no topics."
              : "No topic matches the search."
          }
        />
      )}
    </PageShell>
  );
}

/** The marker's tooltip: what makes the row red or amber. */
function markerTitle(row: TopicSummary, severity: "error" | "warn"): string {
  const reasons: string[] = [];
  if (severity === "error") reasons.push("Partitions unavailable or under min ISR (replicas lost)");
  if (row.min_isr_unreachable) reasons.push(`${MISCONFIGURED.title}: ${misconfiguredText(row.config_warnings)}`);
  if (severity === "warn" && (row.under_replicated_count > 0 || row.at_min_isr_count > 0)) {
    reasons.push("Partitions under-replicated or at min ISR");
  }
  return reasons.join("\n");
}

function TopicRow({ cluster, row, index }: { cluster: string; row: TopicSummary; index: number }) {
  const severity = topicSeverity(row);
  return (
    <tr
      data-testid={`topic-row-${row.name}`}
      {...virtualRowProps(index)}
      data-severity={severity ?? "ok"}
      data-misconfigured={row.min_isr_unreachable ? "true" : undefined}
    >
      <td className="col-marker">
        {severity && (
          <span className={`marker marker-${severity}`} title={markerTitle(row, severity)} data-testid="topic-warning">
            ⚠<span className="visually-hidden">{severity === "error" ? "critical" : "warning"}</span>
          </span>
        )}
      </td>
      <td className="name-cell">
        <Link to={topicPath(cluster, row.name)} className="strong-link">
          {row.name}
        </Link>
        {row.internal && (
          <span className="badge badge-neutral badge-inline" title="Internal Kafka topic">
            internal
          </span>
        )}
        {row.min_isr_unreachable && (
          <span
            className={`badge badge-${MISCONFIGURED.tone} badge-inline`}
            title={misconfiguredText(row.config_warnings)}
            data-testid="topic-config-warning"
            data-tone={MISCONFIGURED.tone}
          >
            {MISCONFIGURED.label}
          </span>
        )}
      </td>
      <td className="num">{formatCount(row.partition_count)}</td>
      <td className="num">{row.replication_factor}</td>
      <TopicUsageCells row={row} />
      {HEALTH_KINDS.map((k) => {
        const tone = countTone(row, k);
        return (
          <td
            key={k.countKey}
            className={tone ? `num cell-${tone}` : "num muted"}
            data-testid={`count-${k.filter}`}
            data-tone={tone ?? undefined}
            title={
              k.filter === "under_min_isr" && row.min_isr_unreachable_count > 0
                ? `${formatCount(row.min_isr_unreachable_count)} misconfigured (RF < min ISR), ` +
                  `${formatCount(row.under_min_isr_outage_count)} with lost replicas`
                : undefined
            }
          >
            {formatCount(row[k.countKey])}
          </td>
        );
      })}
    </tr>
  );
}

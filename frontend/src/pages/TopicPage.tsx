import { useCallback } from "react";
import { Link, useParams, useSearchParams } from "react-router-dom";
import { patchTopicConfigs } from "../api/endpoints";
import { topicQuery } from "../api/queries";
import { queryKeys } from "../api/queryKeys";
import type { ConfigPatch, PartitionInfo, TopicDetail } from "../api/types";
import { AppliesToPanel } from "../components/acls/AppliesToPanel";
import { hasRole, useCurrentUser } from "../components/CurrentUser";
import { LeadershipMap } from "../components/LeadershipMap";
import { MessagesTab } from "../components/messages/MessagesTab";
import { StatusBadge } from "../components/StatusBadge";
import { TopicActions } from "../components/TopicActions";
import { TopicConfigs } from "../components/TopicConfigs";
import { TopicFacts } from "../components/TopicFacts";
import { TopicReaders } from "../components/TopicReaders";
import { pollInterval, useMetadataSocket } from "../hooks/useLiveSocket";
import { usePolledQuery, useRefetch } from "../hooks/usePolledQuery";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { formatBytes, formatCount } from "../lib/format";
import { MISCONFIGURED, misconfiguredText, partitionFlags } from "../lib/topicHealth";
import { clusterCrumbs, loadStateOf, PageShell } from "../components/PageShell";
import { type HeaderColumn, numeric, Table } from "../components/TableParts";

const PARTITION_COLUMNS: HeaderColumn[] = [
  numeric("Partition"),
  numeric("Leader"),
  "Replicas",
  "ISR",
  "Offline",
  "Preferred leader",
  "Flags",
  numeric("Log start"),
  numeric("Log end"),
  numeric("Messages"),
  numeric("Size", "The leader replica's size on disk"),
];

/** Without live metadata pushes, leadership and ISR changes (a broker going down) show within this
 * plus one answer; with them, at once (and the page polls every 30 s). */
export const TOPIC_POLL_MS = 3_000;

/**
 * /clusters/:cluster/topics/:topic — header facts (sizes, messages) and health,
 * the leadership map, the partitions, the reading consumer groups, the configs
 * and (for admins) the topic actions; the Messages tab; the ACLs tab (the bindings
 * that apply to the topic, AppliesToPanel). Any `metadata` push (a broker, leader,
 * ISR or topic changed) refetches it.
 */
export function TopicPage() {
  const { cluster = "", topic = "" } = useParams<{ cluster: string; topic: string }>();
  useDocumentTitle(`${topic} · ${cluster}`);
  const { user } = useCurrentUser();
  const isAdmin = hasRole(user, "admin");
  // ?tab=messages: the Messages tab (its controls are in the query too, so a link reproduces it);
  // ?tab=acls: the bindings that apply to the topic.
  const [search] = useSearchParams();
  const tab: TopicTab = TOPIC_TABS.find((t) => t.tab === search.get("tab"))?.tab ?? "overview";

  // A leader, ISR or broker changed: refetch at once (the slow poll is only a safety net then).
  const live = useMetadataSocket(cluster, useRefetch(queryKeys.topic(cluster, topic)));
  const detail = usePolledQuery(topicQuery(cluster, topic), pollInterval(live, TOPIC_POLL_MS));
  const { data, refresh, replace } = detail;

  // Writes answer with the fresh topic: show it at once instead of waiting for the next poll.
  const onChanged = useCallback((fresh?: TopicDetail) => (fresh ? replace(fresh) : refresh()), [replace, refresh]);
  const onPatch = useCallback(
    async (patch: ConfigPatch) => {
      onChanged(await patchTopicConfigs(cluster, topic, patch));
    },
    [cluster, topic, onChanged],
  );

  return (
    <PageShell
      crumbs={clusterCrumbs(cluster, "topics", topic)}
      title={cluster}
      updatedAt={detail.updatedAt}
      live={live}
      tabsOf={cluster}
      heading={
        <>
          <span className="mono">{topic}</span>
          {data?.internal && <StatusBadge tone="neutral">internal</StatusBadge>}
        </>
      }
      {...loadStateOf(detail)}
      what={`topic ${topic}`}
      loadingLabel="Loading topic…"
      skeletonRows={5}
    >
      <TopicTabs topic={topic} tab={tab} />
      {data && tab === "messages" && <MessagesTab cluster={cluster} topic={topic} partitionCount={data.partition_count} />}
      {/* Not waiting for the topic: bindings may name a topic that does not exist (yet). */}
      {tab === "acls" && <AppliesToPanel cluster={cluster} resourceType="TOPIC" name={topic} />}
      {data && tab === "overview" && (
        <>
          <TopicFacts detail={data} />

          <h2>Leadership map</h2>
          <LeadershipMap detail={data} />

          <h2>Partitions</h2>
          <PartitionsTable partitions={data.partitions} misconfiguredHelp={misconfiguredText(data.config_warnings)} />

          <TopicReaders cluster={cluster} readers={data.readers} />

          <h2>Configs</h2>
          <TopicConfigs entries={data.config_entries} editable={isAdmin} onPatch={onPatch} />

          {isAdmin && (
            <>
              <h2>Admin actions</h2>
              <TopicActions cluster={cluster} topic={data} onChanged={onChanged} />
            </>
          )}
        </>
      )}
    </PageShell>
  );
}

type TopicTab = "overview" | "messages" | "acls";

const TOPIC_TABS: { tab: TopicTab; label: string; search: string }[] = [
  { tab: "overview", label: "Overview", search: "" },
  { tab: "messages", label: "Messages", search: "?tab=messages" },
  { tab: "acls", label: "ACLs", search: "?tab=acls" },
];

/** Overview | Messages | ACLs of one topic; the tab is the query's `tab` (none: the overview). */
function TopicTabs({ topic, tab }: { topic: string; tab: TopicTab }) {
  return (
    <nav className="tabs topic-tabs" aria-label={`Topic ${topic}`} data-testid="topic-tabs">
      {TOPIC_TABS.map((t) => (
        <Link
          key={t.tab}
          to={{ search: t.search }}
          className={t.tab === tab ? "tab active" : "tab"}
          aria-current={t.tab === tab ? "page" : undefined}
          data-testid={`topic-tab-${t.tab}`}
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}

function ids(list: number[]): string {
  return list.length ? list.join(", ") : "—";
}

function PartitionsTable({ partitions, misconfiguredHelp }: { partitions: PartitionInfo[]; misconfiguredHelp: string }) {
  const sorted = [...partitions].sort((a, b) => a.partition - b.partition);
  return (
    <Table columns={PARTITION_COLUMNS} data-testid="partitions-table">
      {sorted.map((p) => {
        const flags = partitionFlags(p);
        const messages =
          p.log_start_offset !== null && p.log_end_offset !== null ? p.log_end_offset - p.log_start_offset : null;
        return (
          <tr key={p.partition} data-testid={`partition-row-${p.partition}`}>
            <td className="num">{p.partition}</td>
            <td className="num">
              {p.leader === null ? <StatusBadge tone="error">none</StatusBadge> : p.leader}
            </td>
            <td className="mono">{ids(p.replicas)}</td>
            <td className="mono">{ids(p.isr)}</td>
            <td className={p.offline_replicas.length ? "mono cell-bad" : "mono muted"}>{ids(p.offline_replicas)}</td>
            <td data-testid={`preferred-${p.partition}`} data-preferred={p.is_preferred_leader ? "true" : "false"}>
              {p.is_preferred_leader ? (
                <span>yes</span>
              ) : (
                <StatusBadge tone="warn" title="The leader is not the first replica">
                  no (prefers {p.preferred_leader ?? "—"})
                </StatusBadge>
              )}
            </td>
            <td className="flags">
              {flags.length === 0 ? (
                <span className="muted">—</span>
              ) : (
                flags.map(({ kind: k, misconfigured }) =>
                  misconfigured ? (
                    // Under min ISR for kafka-topics.sh, but because of the configuration: amber.
                    <StatusBadge
                      key={k.filter}
                      tone={MISCONFIGURED.tone}
                      title={misconfiguredHelp}
                      data-testid={`flag-${MISCONFIGURED.code}`}
                    >
                      {MISCONFIGURED.label}
                    </StatusBadge>
                  ) : (
                    <StatusBadge key={k.filter} tone={k.tone} title={k.help} data-testid={`flag-${k.filter}`}>
                      {k.label.toLowerCase()}
                    </StatusBadge>
                  ),
                )
              )}
            </td>
            <td className="num">{formatCount(p.log_start_offset)}</td>
            <td className="num">{formatCount(p.log_end_offset)}</td>
            <td className="num">{formatCount(messages)}</td>
            <td className="num" data-testid={`partition-size-${p.partition}`} data-bytes={p.size_bytes ?? ""}>
              {formatBytes(p.size_bytes)}
            </td>
          </tr>
        );
      })}
    </Table>
  );
}

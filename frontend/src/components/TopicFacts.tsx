import type { TopicDetail } from "../api/types";
import { formatBytes, formatCount } from "../lib/format";
import { HEALTH_KINDS, MISCONFIGURED } from "../lib/topicHealth";
import { formatMessageCount, UPPER_BOUND_TITLE } from "../lib/topicUsage";

/**
 * A topic's header: its configuration warnings, its facts (partitions, replication, live brokers,
 * sizes and message count) and one summary item per partition health kind.
 */
export function TopicFacts({ detail }: { detail: TopicDetail }) {
  const misconfigured = detail.partitions.filter((p) => p.min_isr_unreachable).length;
  // "≤ n (compacted: an upper bound)" only when there is a count to bound.
  const upperBound = detail.message_count_is_upper_bound && detail.message_count !== null;
  return (
    <>
      {detail.config_warnings.map((w) => (
        <p
          key={w.code}
          className="notice notice-warn"
          role="status"
          data-testid="topic-config-warning"
          data-code={w.code}
          data-tone={MISCONFIGURED.tone}
        >
          <strong>{w.code === MISCONFIGURED.code ? MISCONFIGURED.title : "Configuration warning"}</strong>
          {" — "}
          {w.message}
        </p>
      ))}
      <dl className="facts">
        <div>
          <dt>Partitions</dt>
          <dd data-testid="topic-partition-count">{formatCount(detail.partition_count)}</dd>
        </div>
        <div>
          <dt>Replication factor</dt>
          <dd data-testid="topic-rf">{detail.replication_factor}</dd>
        </div>
        <div>
          <dt>Min in-sync replicas</dt>
          <dd data-testid="topic-min-isr">{detail.min_insync_replicas}</dd>
        </div>
        <div>
          <dt>Live brokers</dt>
          <dd className="mono">{[...detail.live_brokers].sort((a, b) => a - b).join(", ") || "—"}</dd>
        </div>
        <div>
          <dt title="The leader replicas' size on disk">Size</dt>
          <dd data-testid="topic-size" data-bytes={detail.size_bytes ?? ""}>
            {formatBytes(detail.size_bytes)}
          </dd>
        </div>
        <div>
          <dt title="Every replica's size on the live brokers">Size on all replicas</dt>
          <dd data-testid="topic-replicas-size" data-bytes={detail.replicas_size_bytes ?? ""}>
            {formatBytes(detail.replicas_size_bytes)}
          </dd>
        </div>
        <div>
          <dt title="End offsets minus start offsets, summed over the partitions">Messages</dt>
          <dd
            data-testid="topic-message-count"
            data-count={detail.message_count ?? ""}
            data-upper-bound={upperBound ? "true" : undefined}
            title={upperBound ? UPPER_BOUND_TITLE : undefined}
          >
            {formatMessageCount(detail.message_count, detail.message_count_is_upper_bound)}
            {upperBound && <span className="muted"> ({UPPER_BOUND_TITLE})</span>}
          </dd>
        </div>
      </dl>
      <div className="summary">
        {HEALTH_KINDS.map((k) => {
          const n = detail.partitions.filter((p) => p[k.flagKey]).length;
          // Under min ISR is red only for partitions that lost replicas (or their leader), amber when
          // every one of them has fewer replicas than min ISR (a configuration problem).
          const lost =
            k.filter === "under_min_isr" ? detail.partitions.filter((p) => p.under_min_isr && !p.min_isr_unreachable).length : n;
          const tone = n === 0 ? null : k.tone === "error" && lost > 0 ? "error" : "warn";
          return (
            <p
              key={k.filter}
              className={tone === null ? "summary-item" : tone === "error" ? "summary-item summary-bad" : "summary-item summary-warn"}
              data-testid={`topic-health-${k.filter}`}
              data-count={n}
              data-tone={tone ?? undefined}
              title={k.help}
            >
              <strong className="summary-number">{formatCount(n)}</strong> {k.label.toLowerCase()}
            </p>
          );
        })}
        {misconfigured > 0 && (
          <p
            className="summary-item summary-warn"
            data-testid={`topic-health-${MISCONFIGURED.code}`}
            data-count={misconfigured}
            data-tone={MISCONFIGURED.tone}
            title={MISCONFIGURED.help}
          >
            <strong className="summary-number">{formatCount(misconfigured)}</strong> {MISCONFIGURED.label}
          </p>
        )}
      </div>
    </>
  );
}

// The broker page's arithmetic: how full a log directory is, its replicas as one list (sorted,
// filtered, summed), the broker's configs by name and where each value comes from, its API versions.
import type { ApiVersion, ConfigEntry, LogDir, ReplicaSize } from "../api/types";
import type { Tone } from "../components/StatusBadge";

/** Above this share of a log directory in use its bar is amber… */
export const USAGE_WARN = 0.8;
/** …and above this red. */
export const USAGE_CRITICAL = 0.9;

export interface LogDirUsage {
  /** total − usable (never below 0); null when the broker does not report both. */
  used: number | null;
  /** used / total, 0..1; null when unknown (or the total is 0). */
  fraction: number | null;
}

/** How much of a log directory's volume is in use. */
export function logDirUsage(dir: Pick<LogDir, "total_bytes" | "usable_bytes">): LogDirUsage {
  const { total_bytes: total, usable_bytes: usable } = dir;
  if (total === null || usable === null) return { used: null, fraction: null };
  const used = Math.max(0, total - usable);
  const fraction = total > 0 ? Math.min(1, used / total) : null;
  return { used, fraction };
}

export type UsageLevel = "ok" | "warn" | "critical";

/** ok up to 80 %, warn above, critical above 90 %. */
export function usageLevel(fraction: number): UsageLevel {
  if (fraction > USAGE_CRITICAL) return "critical";
  if (fraction > USAGE_WARN) return "warn";
  return "ok";
}

/** The summed size of replicas, in bytes. */
export function totalSize(replicas: readonly Pick<ReplicaSize, "size_bytes">[]): number {
  let sum = 0;
  for (const r of replicas) sum += r.size_bytes;
  return sum;
}

/** One replica of the broker with the log directory it is in. */
export interface ReplicaRow extends ReplicaSize {
  logDir: string;
  /** Unique on the page: a partition moving between dirs is in two (once as the future replica). */
  key: string;
}

/** Every replica of every log directory, in the order the broker listed them. */
export function replicaRows(dirs: readonly LogDir[]): ReplicaRow[] {
  const rows: ReplicaRow[] = [];
  for (const dir of dirs) {
    for (const r of dir.replicas) {
      rows.push({ ...r, logDir: dir.path, key: `${dir.path}\u0000${r.topic}\u0000${r.partition}\u0000${r.is_future ? 1 : 0}` });
    }
  }
  return rows;
}

export type ReplicaSortKey = "topic" | "size";

function byTopicPartition(a: ReplicaRow, b: ReplicaRow): number {
  if (a.topic !== b.topic) return a.topic < b.topic ? -1 : 1;
  if (a.partition !== b.partition) return a.partition - b.partition;
  return a.logDir < b.logDir ? -1 : a.logDir > b.logDir ? 1 : 0;
}

/** Sorted copy: by size (ties by topic and partition) or by topic and partition. */
export function sortReplicas(rows: readonly ReplicaRow[], key: ReplicaSortKey, desc: boolean): ReplicaRow[] {
  const dir = desc ? -1 : 1;
  return [...rows].sort((a, b) => {
    if (key === "size" && a.size_bytes !== b.size_bytes) return (a.size_bytes - b.size_bytes) * dir;
    return key === "topic" ? byTopicPartition(a, b) * dir : byTopicPartition(a, b);
  });
}

/** The replicas whose topic name contains `text` (case-insensitive); all for an empty text. */
export function filterReplicas(rows: readonly ReplicaRow[], text: string): readonly ReplicaRow[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return rows;
  return rows.filter((r) => r.topic.toLowerCase().includes(needle));
}

/** Where a broker config's value comes from, as the broker page says it (see sourceLabel). */
export const BROKER_SOURCE_LABELS: Record<string, string> = {
  DEFAULT_CONFIG: "default",
  STATIC_BROKER_CONFIG: "static (server.properties)",
  DYNAMIC_BROKER_CONFIG: "dynamic, this broker",
  DYNAMIC_DEFAULT_BROKER_CONFIG: "dynamic, cluster-wide",
};

/** A broker config source in plain words; one not in BROKER_SOURCE_LABELS as Kafka names it. */
export function brokerSourceLabel(source: string): string {
  return BROKER_SOURCE_LABELS[source] ?? source;
}

/** The badge's colour: values set at run time stand out (blue), the rest are grey. */
export function brokerSourceTone(source: string): Tone {
  return source.startsWith("DYNAMIC_") ? "info" : "neutral";
}

/**
 * The configs to show, by name: those whose name contains `text` (case-insensitive) and, with
 * `changedOnly`, only those not at their default.
 */
export function filterBrokerConfigs(configs: readonly ConfigEntry[], text: string, changedOnly: boolean): ConfigEntry[] {
  const needle = text.trim().toLowerCase();
  return configs
    .filter((c) => (!changedOnly || !c.is_default) && (!needle || c.name.toLowerCase().includes(needle)))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Sorted copy, by API key. */
export function sortApiVersions(versions: readonly ApiVersion[]): ApiVersion[] {
  return [...versions].sort((a, b) => a.key - b.key);
}

// Topic (and broker) config values in human units, and where a value comes from in plain words:
// `retention.ms` 604800000 reads "7 d", `segment.bytes` 1073741824 "1 GiB", `retention.bytes` -1
// "unlimited". The raw value is what Kafka stores and what an edit takes; these are for reading.
import type { ConfigEntry } from "../api/types";

/** What a config's number measures. */
export type ConfigUnit = "duration" | "bytes";

/** Durations that do not end in `.ms` (broker configs in hours, minutes or seconds), in ms per unit. */
const DURATION_SUFFIXES: [suffix: string, msPerUnit: number][] = [
  [".ms", 1],
  [".seconds", 1000],
  [".minutes", 60_000],
  [".hours", 3_600_000],
];

/** Kafka's topic durations, named for the reader of this file (every one ends in `.ms`). */
export const KNOWN_DURATION_KEYS = [
  "retention.ms",
  "segment.ms",
  "segment.jitter.ms",
  "delete.retention.ms",
  "file.delete.delay.ms",
  "flush.ms",
  "max.compaction.lag.ms",
  "min.compaction.lag.ms",
  "local.retention.ms",
  "message.timestamp.difference.max.ms",
  "message.timestamp.before.max.ms",
  "message.timestamp.after.max.ms",
] as const;

/** Kafka's topic sizes in bytes (every one ends in `.bytes`). */
export const KNOWN_BYTES_KEYS = [
  "max.message.bytes",
  "segment.bytes",
  "segment.index.bytes",
  "retention.bytes",
  "local.retention.bytes",
  "index.interval.bytes",
] as const;

/** Where -1 means "no limit" (and -2, for tiered storage's local retention, "as the total"). */
const UNLIMITED_AT_MINUS_ONE = new Set([
  "retention.ms",
  "retention.bytes",
  "local.retention.ms",
  "local.retention.bytes",
  "log.retention.ms",
  "log.retention.bytes",
  "log.local.retention.ms",
  "log.local.retention.bytes",
]);

const SAME_AS_AT_MINUS_TWO: Record<string, string> = {
  "local.retention.ms": "same as retention.ms",
  "local.retention.bytes": "same as retention.bytes",
  "log.local.retention.ms": "same as log.retention.ms",
  "log.local.retention.bytes": "same as log.retention.bytes",
};

/** Java's Long.MAX_VALUE: Kafka's "never" for durations and sizes (not exact as a JS number). */
const LONG_MAX = "9223372036854775807";

/** The unit of a config, from its name; null when it is not a duration or a size. */
export function configUnit(name: string): ConfigUnit | null {
  if (name.endsWith(".bytes")) return "bytes";
  if (DURATION_SUFFIXES.some(([suffix]) => name.endsWith(suffix))) return "duration";
  return null;
}

function msPerUnit(name: string): number {
  return DURATION_SUFFIXES.find(([suffix]) => name.endsWith(suffix))?.[1] ?? 1;
}

const DURATION_PARTS: [ms: number, unit: string][] = [
  [86_400_000, "d"],
  [3_600_000, "h"],
  [60_000, "min"],
  [1000, "s"],
  [1, "ms"],
];

/**
 * A duration in milliseconds, exactly, in its largest units: 604800000 is "7 d", 5400000
 * "1 h 30 min", 100 "100 ms", 90061001 "1 d 1 h 1 min 1 s 1 ms"; 0 is "0 ms".
 */
export function formatConfigDuration(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  const sign = ms < 0 ? "-" : "";
  let rest = Math.abs(Math.round(ms));
  const parts: string[] = [];
  for (const [size, unit] of DURATION_PARTS) {
    const n = Math.floor(rest / size);
    if (n) parts.push(`${n.toLocaleString("en-US")} ${unit}`);
    rest -= n * size;
  }
  return parts.length ? sign + parts.join(" ") : "0 ms";
}

const BYTE_UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];

/**
 * A size in bytes in binary units: 1073741824 is "1 GiB", 536870912 "512 MiB", 1536 "1.5 KiB";
 * a size that is no round number of its unit is marked approximate: 1048588 is "≈ 1 MiB".
 */
export function formatConfigBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return String(bytes);
  const sign = bytes < 0 ? "-" : "";
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = Math.round(value * 100) / 100;
  const text = `${rounded.toLocaleString("en-US", { maximumFractionDigits: 2 })} ${BYTE_UNITS[unit]}`;
  return rounded === value ? sign + text : `≈ ${sign}${text}`;
}

export interface HumanValue {
  /** What to show: "7 d", "1 GiB", "unlimited". */
  text: string;
  unit: ConfigUnit;
}

/**
 * A config's value in human units, or null when it has none (not a duration or size, not a
 * whole number, sensitive, or unset). The raw value stays what is stored and edited.
 */
export function humanConfigValue(name: string, value: string | null | undefined): HumanValue | null {
  const unit = configUnit(name);
  if (unit === null || value === null || value === undefined) return null;
  const raw = value.trim();
  if (!/^-?\d+$/.test(raw)) return null;
  if (raw === LONG_MAX) return { text: "unlimited", unit };
  const n = Number(raw);
  if (n === -1 && UNLIMITED_AT_MINUS_ONE.has(name)) return { text: "unlimited", unit };
  if (n === -2 && SAME_AS_AT_MINUS_TWO[name]) return { text: SAME_AS_AT_MINUS_TWO[name]!, unit };
  if (n < 0) return null; // some other sentinel: the raw number says it best
  return { text: unit === "bytes" ? formatConfigBytes(n) : formatConfigDuration(n * msPerUnit(name)), unit };
}

/** Kafka's config sources (DescribeConfigs' ConfigSource) in plain words, as seen from a topic. */
export const SOURCE_WORDS: Record<string, string> = {
  DYNAMIC_TOPIC_CONFIG: "set on topic",
  DYNAMIC_BROKER_CONFIG: "broker default (this broker, set at run time)",
  DYNAMIC_DEFAULT_BROKER_CONFIG: "broker default (all brokers, set at run time)",
  STATIC_BROKER_CONFIG: "broker default (server.properties)",
  DEFAULT_CONFIG: "Kafka default",
  DYNAMIC_BROKER_LOGGER_CONFIG: "broker logger setting",
  DYNAMIC_CLIENT_METRICS_CONFIG: "client metrics setting",
  DYNAMIC_GROUP_CONFIG: "group setting",
  UNKNOWN: "source unknown",
};

/** Where a value comes from, in plain words ("set on topic", "Kafka default"); an unknown source as sent. */
export function sourceWords(source: string): string {
  return SOURCE_WORDS[source] ?? source.toLowerCase().replace(/_/g, " ");
}

/**
 * Whether the value is set on the topic itself (an override), as opposed to inherited from the
 * brokers or Kafka's built-in default. A source the console does not know counts as an override
 * unless Kafka flags the value as its default, so nothing set somewhere is folded away.
 */
export function isOverride(entry: Pick<ConfigEntry, "source" | "is_default">): boolean {
  if (entry.source === "DYNAMIC_TOPIC_CONFIG") return true;
  if (entry.source in SOURCE_WORDS) return false;
  return !entry.is_default;
}

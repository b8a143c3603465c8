// Partition health as the topic API reports it (same meaning as
// kafka-topics.sh --describe --under-replicated-partitions etc.).
import type { TopicHealthFilter, TopicSummary } from "../api/types";
import type { Tone } from "../components/StatusBadge";

export interface HealthKind {
  filter: TopicHealthFilter;
  /** The count field of a topic list row. */
  countKey: "under_replicated_count" | "under_min_isr_count" | "at_min_isr_count" | "unavailable_count";
  /** The flag of a topic detail partition. */
  flagKey: "under_replicated" | "under_min_isr" | "at_min_isr" | "unavailable";
  label: string;
  /** Short column heading. */
  short: string;
  tone: Tone;
  help: string;
}

/** In order of severity, worst last. */
export const HEALTH_KINDS: HealthKind[] = [
  {
    filter: "under_replicated",
    countKey: "under_replicated_count",
    flagKey: "under_replicated",
    label: "Under-replicated",
    short: "Under-repl.",
    tone: "warn",
    help: "Fewer in-sync replicas than replicas.",
  },
  {
    filter: "at_min_isr",
    countKey: "at_min_isr_count",
    flagKey: "at_min_isr",
    label: "At min ISR",
    short: "At min ISR",
    tone: "warn",
    help: "In-sync replicas equal min.insync.replicas: one more failure stops acks=all writes.",
  },
  {
    filter: "under_min_isr",
    countKey: "under_min_isr_count",
    flagKey: "under_min_isr",
    label: "Under min ISR",
    short: "Under min ISR",
    tone: "error",
    help: "Fewer in-sync replicas than min.insync.replicas: acks=all writes fail.",
  },
  {
    filter: "unavailable",
    countKey: "unavailable_count",
    flagKey: "unavailable",
    label: "Unavailable",
    short: "Unavailable",
    tone: "error",
    help: "No leader (offline): neither reads nor writes.",
  },
];

export function healthKind(filter: string | null | undefined): HealthKind | undefined {
  return HEALTH_KINDS.find((k) => k.filter === filter);
}

/**
 * The configuration warning `min_isr_unreachable`: some partition has fewer replicas than
 * min.insync.replicas. Such a partition is under min ISR for kafka-topics.sh too, but no broker
 * coming back fixes it: it is shown amber, as a configuration problem, not red as an outage.
 */
export const MISCONFIGURED = {
  code: "min_isr_unreachable",
  label: "misconfigured: RF < min ISR",
  title: "Misconfigured: RF < min ISR",
  tone: "warn" as Tone,
  help:
    "Replication factor below min.insync.replicas: producers with acks=all always fail with " +
    "NOT_ENOUGH_REPLICAS. A configuration problem, not lost replicas.",
} as const;

type ConfigWarning = TopicSummary["config_warnings"][number];

/** The server's explanation of a misconfigured topic (its warnings' messages), else the generic help. */
export function misconfiguredText(warnings: ConfigWarning[]): string {
  const messages = warnings.filter((w) => w.code === MISCONFIGURED.code).map((w) => w.message);
  return messages.length ? messages.join("\n") : MISCONFIGURED.help;
}

/**
 * "error" when a topic has partitions unavailable, or under min ISR because they lost replicas
 * (or their leader); "warn" for a misconfigured topic (RF < min ISR) and the milder counts; else null.
 */
export function topicSeverity(row: TopicSummary): "error" | "warn" | null {
  if (row.unavailable_count > 0 || row.under_min_isr_outage_count > 0) return "error";
  if (row.min_isr_unreachable || row.under_replicated_count > 0 || row.at_min_isr_count > 0) return "warn";
  return null;
}

/**
 * The tone of one health count of a topic list row, null when it is 0. Under min ISR is red
 * only when some of those partitions lost replicas; amber when all of them are misconfigured.
 */
export function countTone(row: TopicSummary, kind: HealthKind): Tone | null {
  if (row[kind.countKey] === 0) return null;
  if (kind.filter === "under_min_isr" && row.under_min_isr_outage_count === 0) return MISCONFIGURED.tone;
  return kind.tone;
}

/** A partition of a topic detail: its health badges, under min ISR replaced by "misconfigured" when
 * the partition has fewer replicas than min ISR. */
export function partitionFlags(p: {
  under_replicated: boolean;
  under_min_isr: boolean;
  at_min_isr: boolean;
  unavailable: boolean;
  min_isr_unreachable: boolean;
}): { kind: HealthKind; misconfigured: boolean }[] {
  return HEALTH_KINDS.filter((k) => p[k.flagKey]).map((kind) => ({
    kind,
    misconfigured: kind.filter === "under_min_isr" && p.min_isr_unreachable,
  }));
}

/** Partitions (and topics) misconfigured, and partitions (and topics) under min ISR after losing replicas. */
export function configTotals(rows: TopicSummary[]): {
  misconfigured: { partitions: number; topics: number };
  outage: { partitions: number; topics: number };
} {
  const misconfigured = { partitions: 0, topics: 0 };
  const outage = { partitions: 0, topics: 0 };
  for (const row of rows) {
    misconfigured.partitions += row.min_isr_unreachable_count;
    if (row.min_isr_unreachable) misconfigured.topics += 1;
    outage.partitions += row.under_min_isr_outage_count;
    if (row.under_min_isr_outage_count > 0) outage.topics += 1;
  }
  return { misconfigured, outage };
}

/** Sum of each health count over the topics. */
export function healthTotals(rows: TopicSummary[]): Record<TopicHealthFilter, { partitions: number; topics: number }> {
  const totals = {} as Record<TopicHealthFilter, { partitions: number; topics: number }>;
  for (const kind of HEALTH_KINDS) {
    let partitions = 0;
    let topics = 0;
    for (const row of rows) {
      const n = row[kind.countKey];
      partitions += n;
      if (n > 0) topics += 1;
    }
    totals[kind.filter] = { partitions, topics };
  }
  return totals;
}

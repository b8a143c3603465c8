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

/** "error" when a topic has partitions unavailable or under min ISR, "warn" for the milder counts, else null. */
export function topicSeverity(row: TopicSummary): "error" | "warn" | null {
  if (row.unavailable_count > 0 || row.under_min_isr_count > 0) return "error";
  if (row.under_replicated_count > 0 || row.at_min_isr_count > 0) return "warn";
  return null;
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

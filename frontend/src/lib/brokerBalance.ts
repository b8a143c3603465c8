// The cluster overview's disks and balance: how full each broker's log dirs are, and how far the
// busiest live broker is above the mean in partition leaders and in bytes of replicas.
import type { Broker, BrokerDisk } from "../api/types";
import { logDirUsage, type LogDirUsage } from "./brokers";

/** A broker of the overview with its disk and data (null when unknown). */
export type BrokerWithDisk = Broker & Pick<BrokerDisk, "disk_total_bytes" | "disk_usable_bytes" | "replicas_size_bytes">;

/**
 * The live brokers (`brokers`, GET brokers) with the disk and data that GET clusters/{cluster}
 * reports for them (`disks`); a broker it does not list has them unknown.
 */
export function withDisks(brokers: readonly Broker[], disks: readonly BrokerDisk[]): BrokerWithDisk[] {
  const byId = new Map(disks.map((d) => [d.id, d]));
  return brokers.map((b) => {
    const d = byId.get(b.id);
    return {
      ...b,
      disk_total_bytes: d?.disk_total_bytes ?? null,
      disk_usable_bytes: d?.disk_usable_bytes ?? null,
      replicas_size_bytes: d?.replicas_size_bytes ?? null,
    };
  });
}

/** A broker's disk in use: total − usable of its log dirs summed, as for one log dir. */
export function brokerDiskUsage(b: Pick<BrokerDisk, "disk_total_bytes" | "disk_usable_bytes">): LogDirUsage {
  return logDirUsage({ total_bytes: b.disk_total_bytes, usable_bytes: b.disk_usable_bytes });
}

/** Below this skew (10 %) the brokers count as balanced. */
export const SKEW_BALANCED = 0.1;

export interface Skew {
  /** max / mean − 1 (0 when the mean is 0): how far the busiest broker is above the mean. */
  fraction: number;
  /** The busiest broker (the lowest id on a tie). */
  broker: number;
}

/**
 * The skew of one figure over the live brokers: max / mean − 1. Null when it is unknown: no
 * broker, or any broker's value is null.
 */
export function skewOf(values: readonly { id: number; value: number | null }[]): Skew | null {
  if (values.length === 0) return null;
  let sum = 0;
  let busiest: { id: number; value: number } | null = null;
  for (const { id, value } of values) {
    if (value === null) return null;
    sum += value;
    if (busiest === null || value > busiest.value || (value === busiest.value && id < busiest.id)) busiest = { id, value };
  }
  const mean = sum / values.length;
  return { fraction: mean > 0 ? busiest!.value / mean - 1 : 0, broker: busiest!.id };
}

/** Leader skew: partition leaders per live broker. */
export function leaderSkew(brokers: readonly Pick<Broker, "id" | "leader_count">[]): Skew | null {
  return skewOf(brokers.map((b) => ({ id: b.id, value: b.leader_count })));
}

/** Data skew: bytes of replicas per live broker; unknown when any broker's is. */
export function dataSkew(brokers: readonly Pick<BrokerWithDisk, "id" | "replicas_size_bytes">[]): Skew | null {
  return skewOf(brokers.map((b) => ({ id: b.id, value: b.replicas_size_bytes })));
}

export function isBalanced(skew: Skew): boolean {
  return skew.fraction < SKEW_BALANCED;
}

/** "+12 % on broker 2", "balanced" (under 10 %) or "unknown". */
export function skewWords(skew: Skew | null): string {
  if (skew === null) return "unknown";
  if (isBalanced(skew)) return "balanced";
  return `+${Math.round(skew.fraction * 100)} % on broker ${skew.broker}`;
}

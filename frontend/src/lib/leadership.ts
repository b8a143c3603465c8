// What the leadership map shows: one cell per (partition, broker).
import type { PartitionInfo, TopicDetail } from "../api/types";

export type CellState = "leader" | "isr" | "out_of_sync" | "offline" | "none";

export interface BrokerColumn {
  id: number;
  /** Not among the live brokers (a replica there is offline). */
  down: boolean;
}

/** The live brokers plus every broker any replica points at, sorted by id. */
export function brokerColumns(detail: Pick<TopicDetail, "live_brokers" | "partitions">): BrokerColumn[] {
  const live = new Set(detail.live_brokers);
  const ids = new Set(detail.live_brokers);
  for (const p of detail.partitions) {
    for (const id of p.replicas) ids.add(id);
    for (const id of p.offline_replicas) ids.add(id);
  }
  return [...ids].sort((a, b) => a - b).map((id) => ({ id, down: !live.has(id) }));
}

/**
 * The state of broker `broker`'s replica of partition `p`: none when it holds no
 * replica; offline when Kafka lists it offline or the broker is down; leader;
 * isr (an in-sync follower); otherwise out_of_sync.
 */
export function cellState(p: PartitionInfo, broker: number, brokerDown = false): CellState {
  if (!p.replicas.includes(broker)) return "none";
  if (p.offline_replicas.includes(broker) || brokerDown) return "offline";
  if (p.leader === broker) return "leader";
  if (p.isr.includes(broker)) return "isr";
  return "out_of_sync";
}

/** The preferred leader is the first replica in assignment order. */
export function isPreferredCell(p: PartitionInfo, broker: number): boolean {
  return p.replicas.length > 0 && p.replicas[0] === broker;
}

export const CELL_LABELS: Record<CellState, string> = {
  leader: "leader",
  isr: "in-sync follower",
  out_of_sync: "out-of-sync replica",
  offline: "offline replica",
  none: "no replica",
};

import type {
  Broker,
  ClusterDetail,
  ClusterSummary,
  CurrentUser,
  PartitionInfo,
  TopicDetail,
  TopicSummary,
} from "../api/types";

export const ME: CurrentUser = { username: "alice", role: "operator" };

export const CLUSTERS: ClusterSummary[] = [
  {
    name: "local",
    bootstrap_servers: "127.0.0.1:19092,127.0.0.1:19093,127.0.0.1:19094",
    cluster_id: "MkU3OEVBNTcwNTJENDM2Qg",
    controller_id: 2,
    broker_count: 3,
    reachable: true,
  },
  {
    name: "staging",
    bootstrap_servers: "127.0.0.1:29092",
    cluster_id: null,
    controller_id: null,
    broker_count: null,
    reachable: false,
  },
];

export const BROKERS: Broker[] = [
  { id: 3, host: "127.0.0.1", port: 19094, rack: null, is_controller: false, leader_count: 4, replica_count: 12, offline_replica_count: 0 },
  { id: 1, host: "127.0.0.1", port: 19092, rack: "rack-a", is_controller: false, leader_count: 5, replica_count: 12, offline_replica_count: 0 },
  { id: 2, host: "127.0.0.1", port: 19093, rack: "rack-b", is_controller: true, leader_count: 3, replica_count: 12, offline_replica_count: 1 },
];

export const LOCAL: ClusterDetail = { ...CLUSTERS[0]!, brokers: BROKERS };

export const ADMIN: CurrentUser = { username: "root", role: "admin" };

function topicRow(name: string, partitions: number, rf: number, counts: Partial<TopicSummary> = {}): TopicSummary {
  return {
    name,
    internal: false,
    partition_count: partitions,
    replication_factor: rf,
    under_replicated_count: 0,
    under_min_isr_count: 0,
    at_min_isr_count: 0,
    unavailable_count: 0,
    ...counts,
  };
}

/** GET /clusters/local/topics?include_internal=true */
export const TOPICS: TopicSummary[] = [
  topicRow("orders", 6, 3, { under_replicated_count: 2, at_min_isr_count: 2 }),
  topicRow("payments", 3, 3, { under_replicated_count: 1, under_min_isr_count: 1, unavailable_count: 1 }),
  topicRow("audit", 1, 1),
  { ...topicRow("__consumer_offsets", 50, 3, { under_replicated_count: 4 }), internal: true },
];

/** `count` healthy topics named topic-00000..., every 7th under-replicated. */
export function manyTopics(count: number): TopicSummary[] {
  return Array.from({ length: count }, (_, i) =>
    topicRow(`topic-${String(i).padStart(5, "0")}`, (i % 12) + 1, 3, i % 7 === 0 ? { under_replicated_count: 1 } : {}),
  );
}

function partition(p: Partial<PartitionInfo> & Pick<PartitionInfo, "partition" | "replicas">): PartitionInfo {
  const replicas = p.replicas;
  const leader = p.leader === undefined ? (replicas[0] ?? null) : p.leader;
  const isr = p.isr ?? replicas;
  return {
    leader,
    isr,
    offline_replicas: [],
    preferred_leader: replicas[0] ?? null,
    is_preferred_leader: leader !== null && leader === replicas[0],
    under_replicated: isr.length < replicas.length,
    under_min_isr: false,
    at_min_isr: false,
    unavailable: leader === null,
    log_start_offset: 0,
    log_end_offset: 100,
    ...p,
  };
}

/**
 * "orders" on brokers 1-3 with broker 4 down:
 * p0 all in sync, leader 1 (preferred);
 * p1 leader 3 (not preferred), broker 2 out of sync;
 * p2 replicas 3,4: broker 4 offline, broker 3 leads.
 */
export const ORDERS: TopicDetail = {
  name: "orders",
  internal: false,
  partition_count: 3,
  replication_factor: 3,
  min_insync_replicas: 2,
  configs: { "retention.ms": "86400000", "cleanup.policy": "delete" },
  config_entries: [
    { name: "retention.ms", value: "86400000", source: "DYNAMIC_TOPIC_CONFIG", is_default: false, read_only: false, sensitive: false },
    { name: "cleanup.policy", value: "delete", source: "DEFAULT_CONFIG", is_default: true, read_only: false, sensitive: false },
    { name: "min.insync.replicas", value: "2", source: "STATIC_BROKER_CONFIG", is_default: false, read_only: false, sensitive: false },
  ],
  live_brokers: [3, 1, 2],
  partitions: [
    partition({ partition: 0, replicas: [1, 2, 3], log_start_offset: 10, log_end_offset: 110 }),
    partition({ partition: 1, replicas: [2, 3, 1], leader: 3, isr: [3, 1], at_min_isr: true }),
    partition({
      partition: 2,
      replicas: [4, 3],
      leader: 3,
      isr: [3],
      offline_replicas: [4],
      under_min_isr: true,
      log_end_offset: null,
    }),
  ],
};

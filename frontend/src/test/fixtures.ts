import type {
  Approval,
  Broker,
  BrokerDisk,
  ClusterDetail,
  ClusterSummary,
  CurrentUser,
  GroupDetail,
  GroupSummary,
  OffsetReset,
  PartitionInfo,
  TopicDetail,
  TopicSummary,
} from "../api/types";

export const ME: CurrentUser = { username: "alice", role: "operator", cluster_roles: { local: "operator", staging: "operator" } };

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

const GIB = 1024 ** 3;

/** The brokers' disks (1 TB each): broker 1 60 % used, 2 85 % (amber), 3 95 % (red); their replicas
 * 100, 100 and 160 GiB (mean 120: broker 3 33 % above it). */
const DISKS: Record<number, Pick<BrokerDisk, "disk_total_bytes" | "disk_usable_bytes" | "replicas_size_bytes">> = {
  1: { disk_total_bytes: 1_000_000_000_000, disk_usable_bytes: 400_000_000_000, replicas_size_bytes: 100 * GIB },
  2: { disk_total_bytes: 1_000_000_000_000, disk_usable_bytes: 150_000_000_000, replicas_size_bytes: 100 * GIB },
  3: { disk_total_bytes: 1_000_000_000_000, disk_usable_bytes: 50_000_000_000, replicas_size_bytes: 160 * GIB },
};

/** GET /clusters/local: its brokers with their disks and data (DISKS). */
export const LOCAL: ClusterDetail = {
  ...CLUSTERS[0]!,
  brokers: BROKERS.map((b) => ({ ...b, ...DISKS[b.id]! })),
};

/** GET /clusters/local when no broker's log dirs could be read: disks and data unknown. */
export const LOCAL_DISKS_UNKNOWN: ClusterDetail = {
  ...LOCAL,
  brokers: BROKERS.map((b) => ({ ...b, disk_total_bytes: null, disk_usable_bytes: null, replicas_size_bytes: null })),
};

export const ADMIN: CurrentUser = { username: "root", role: "admin", cluster_roles: { local: "admin", staging: "admin" } };

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
    min_isr_unreachable: false,
    min_isr_unreachable_count: 0,
    // Unless said otherwise, every partition under min ISR lost replicas.
    under_min_isr_outage_count: counts.under_min_isr_count ?? 0,
    config_warnings: [],
    // Unless said otherwise: sizes, message count and readers unknown.
    size_bytes: null,
    replicas_size_bytes: null,
    message_count: null,
    message_count_is_upper_bound: false,
    reader_groups: null,
    ...counts,
  };
}

/**
 * GET /clusters/local/topics?include_internal=true. Sizes: orders 1.50 MiB (4.50 MiB on its 3
 * replicas) > audit 2 KiB > payments unknown (a leader is down); audit is compacted (its count an
 * upper bound); nobody reads audit; payments' readers are unknown (no lag sampler pass).
 */
export const TOPICS: TopicSummary[] = [
  topicRow("orders", 6, 3, {
    under_replicated_count: 2,
    at_min_isr_count: 2,
    size_bytes: 1_572_864,
    replicas_size_bytes: 4_718_592,
    message_count: 1_234_567,
    reader_groups: 3,
  }),
  topicRow("payments", 3, 3, {
    under_replicated_count: 1,
    under_min_isr_count: 1,
    unavailable_count: 1,
    replicas_size_bytes: 8_192,
    message_count: 7,
  }),
  topicRow("audit", 1, 1, {
    size_bytes: 2_048,
    replicas_size_bytes: 2_048,
    message_count: 42,
    message_count_is_upper_bound: true,
    reader_groups: 0,
  }),
  {
    ...topicRow("__consumer_offsets", 50, 3, {
      under_replicated_count: 4,
      size_bytes: 10_240,
      replicas_size_bytes: 30_720,
      message_count: 300,
      message_count_is_upper_bound: true,
      reader_groups: 1,
    }),
    internal: true,
  },
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
    min_isr_unreachable: false,
    log_start_offset: 0,
    log_end_offset: 100,
    size_bytes: null,
    ...p,
  };
}

/**
 * "orders" on brokers 1-3 with broker 4 down:
 * p0 all in sync, leader 1 (preferred);
 * p1 leader 3 (not preferred), broker 2 out of sync;
 * p2 replicas 3,4: broker 4 offline, broker 3 leads.
 * 1.50 MiB on the leaders (p2's size unknown, not counted), 3.5 MiB on all replicas; read by three
 * groups: billing (OK), search-indexer (ERR, lagging far behind) and orders-app (lag unknown).
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
  min_isr_unreachable: false,
  config_warnings: [],
  size_bytes: 1_572_864,
  replicas_size_bytes: 3_670_016,
  message_count: 200,
  message_count_is_upper_bound: false,
  readers: [
    { group_id: "search-indexer", lag: 40_000, status: "ERR" },
    { group_id: "billing", lag: 5, status: "OK" },
    { group_id: "orders-app", lag: null, status: null },
  ],
  partitions: [
    partition({ partition: 0, replicas: [1, 2, 3], log_start_offset: 10, log_end_offset: 110, size_bytes: 1_048_576 }),
    partition({ partition: 1, replicas: [2, 3, 1], leader: 3, isr: [3, 1], at_min_isr: true, size_bytes: 524_288 }),
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

/** The server's message for a topic of replication factor 1 with min.insync.replicas 2. */
export const RF1_MIN2_MESSAGE =
  "replication factor 1 is below min.insync.replicas 2: producers with acks=all always fail with " +
  "NOT_ENOUGH_REPLICAS; raise the replication factor or lower min.insync.replicas";

/** The server's message for "invoices": partition 0 reassigned onto one broker, min ISR 2. */
export const INVOICES_MESSAGE =
  "partition 0 has 1 replica, below min.insync.replicas 2 (1 of 3 partitions): producers with acks=all " +
  "to it always fail with NOT_ENOUGH_REPLICAS; raise its replication factor or lower min.insync.replicas";

/**
 * Misconfigured topics (fewer replicas than min.insync.replicas):
 * "ledger" RF 1 with min ISR 2, all 4 partitions in sync (under min ISR only by configuration);
 * "invoices" RF 3, min ISR 2, partition 0 on one broker only and partition 2 down to one in-sync
 * replica (both under min ISR: one misconfigured, one that lost replicas).
 */
export const MISCONFIGURED_TOPICS: TopicSummary[] = [
  topicRow("ledger", 4, 1, {
    under_min_isr_count: 4,
    min_isr_unreachable: true,
    min_isr_unreachable_count: 4,
    under_min_isr_outage_count: 0,
    config_warnings: [{ code: "min_isr_unreachable", message: RF1_MIN2_MESSAGE }],
  }),
  topicRow("invoices", 3, 1, {
    under_replicated_count: 1,
    under_min_isr_count: 2,
    min_isr_unreachable: true,
    min_isr_unreachable_count: 1,
    under_min_isr_outage_count: 1,
    config_warnings: [{ code: "min_isr_unreachable", message: INVOICES_MESSAGE }],
  }),
];

/** GET .../topics/ledger: RF 1, min ISR 2, both partitions in sync on live brokers. */
export const LEDGER: TopicDetail = {
  ...ORDERS,
  name: "ledger",
  partition_count: 2,
  replication_factor: 1,
  min_insync_replicas: 2,
  live_brokers: [1, 2, 3],
  min_isr_unreachable: true,
  config_warnings: [{ code: "min_isr_unreachable", message: RF1_MIN2_MESSAGE }],
  partitions: [
    partition({ partition: 0, replicas: [1], under_min_isr: true, min_isr_unreachable: true }),
    partition({ partition: 1, replicas: [2], under_min_isr: true, min_isr_unreachable: true }),
  ],
};

/** GET .../topics/invoices: p0 on broker 1 only (misconfigured), p1 healthy, p2 lost two replicas. */
export const INVOICES: TopicDetail = {
  ...ORDERS,
  name: "invoices",
  partition_count: 3,
  replication_factor: 1,
  min_insync_replicas: 2,
  live_brokers: [1, 2, 3],
  min_isr_unreachable: true,
  config_warnings: [{ code: "min_isr_unreachable", message: INVOICES_MESSAGE }],
  partitions: [
    partition({ partition: 0, replicas: [1], under_min_isr: true, min_isr_unreachable: true }),
    partition({ partition: 1, replicas: [2, 3, 1] }),
    partition({ partition: 2, replicas: [3, 1, 2], isr: [3], under_min_isr: true }),
  ],
};

export const VIEWER: CurrentUser = { username: "vic", role: "viewer", cluster_roles: { local: "viewer", staging: "viewer" } };

function groupRow(group_id: string, state: string, members: number, topics: string[], lag: number | null, max: number | null): GroupSummary {
  return {
    group_id,
    state,
    protocol_type: "consumer",
    member_count: members,
    topics,
    total_lag: lag,
    max_lag: max,
    max_lag_seconds: null,
    status: "UNKNOWN",
    rates: { write_per_s: null, consume_per_s: null },
    catch_up_seconds: null,
    retention_risk: "none",
    retention_reason: null,
    sampled_at: null,
  };
}

/** GET /clusters/local/groups */
export const GROUPS: GroupSummary[] = [
  groupRow("orders-app", "Empty", 0, ["orders", "payments"], 120, 100),
  groupRow("billing", "Stable", 2, ["audit", "invoices", "orders", "payments", "refunds"], 5, 3),
  groupRow("search-indexer", "PreparingRebalance", 1, ["orders"], 40_000, 40_000),
  groupRow("old-batch", "Dead", 0, [], null, null),
];

/** `count` groups named group-00000..., lag i. */
export function manyGroups(count: number): GroupSummary[] {
  return Array.from({ length: count }, (_, i) =>
    groupRow(`group-${String(i).padStart(5, "0")}`, i % 3 ? "Stable" : "Empty", i % 3 ? 1 : 0, ["orders"], i, i),
  );
}

/** The lag fields of a group the sampler has not evaluated yet. */
const NOT_SAMPLED = {
  status: "UNKNOWN",
  max_lag_seconds: null,
  rates: { write_per_s: null, consume_per_s: null },
  catch_up_seconds: null,
  retention_risk: "none",
  retention_reason: null,
  sampled_at: null,
  topics: [],
} satisfies Partial<GroupDetail>;

/**
 * "orders-app", Empty (no members): committed on orders 0-2 and payments 0;
 * orders-2 has no committed offset.
 */
export const ORDERS_APP: GroupDetail = {
  group_id: "orders-app",
  state: "Empty",
  protocol_type: "consumer",
  assignor: "",
  coordinator: 2,
  members: [],
  offsets: [
    { topic: "orders", partition: 0, committed_offset: 90, log_start_offset: 10, log_end_offset: 110, lag: 20, lag_seconds: null, member_id: null, status: "UNKNOWN", retention_risk: "none", retention_reason: null },
    { topic: "orders", partition: 1, committed_offset: 100, log_start_offset: 0, log_end_offset: 200, lag: 100, lag_seconds: null, member_id: null, status: "UNKNOWN", retention_risk: "none", retention_reason: null },
    { topic: "orders", partition: 2, committed_offset: null, log_start_offset: 0, log_end_offset: 50, lag: null, lag_seconds: null, member_id: null, status: "UNKNOWN", retention_risk: "none", retention_reason: null },
    { topic: "payments", partition: 0, committed_offset: 7, log_start_offset: 0, log_end_offset: 7, lag: 0, lag_seconds: null, member_id: null, status: "UNKNOWN", retention_risk: "none", retention_reason: null },
  ],
  total_lag: 120,
  ...NOT_SAMPLED,
  read_at: "2026-07-01T09:59:00.000+00:00",
};

/** "billing", Stable with two members. */
export const BILLING: GroupDetail = {
  group_id: "billing",
  state: "Stable",
  protocol_type: "consumer",
  assignor: "range",
  coordinator: 1,
  members: [
    { member_id: "billing-1-aaa", client_id: "billing-1", host: "/10.0.0.5", assignments: [{ topic: "orders", partition: 1 }, { topic: "orders", partition: 0 }] },
    { member_id: "billing-2-bbb", client_id: "billing-2", host: "/10.0.0.6", assignments: [{ topic: "payments", partition: 0 }] },
  ],
  offsets: [
    { topic: "orders", partition: 0, committed_offset: 108, log_start_offset: 10, log_end_offset: 110, lag: 2, lag_seconds: null, member_id: "billing-1-aaa", status: "UNKNOWN", retention_risk: "none", retention_reason: null },
    { topic: "orders", partition: 1, committed_offset: 197, log_start_offset: 0, log_end_offset: 200, lag: 3, lag_seconds: null, member_id: "billing-1-aaa", status: "UNKNOWN", retention_risk: "none", retention_reason: null },
    { topic: "payments", partition: 0, committed_offset: 7, log_start_offset: 0, log_end_offset: 7, lag: 0, lag_seconds: null, member_id: "billing-2-bbb", status: "UNKNOWN", retention_risk: "none", retention_reason: null },
  ],
  total_lag: 5,
  ...NOT_SAMPLED,
  read_at: "2026-07-01T09:59:00.000+00:00",
};

/** A reset of orders-app as the API answers it. */
export function resetOf(overrides: Partial<OffsetReset> = {}): OffsetReset {
  return {
    id: 7,
    cluster: "local",
    group_id: "orders-app",
    dry_run: true,
    executed: false,
    state: "planned",
    strategy: { type: "to_datetime", datetime: "2026-07-01T09:30:00.000-04:00" },
    scope: { topics: [{ topic: "orders", partitions: null }, { topic: "payments", partitions: null }] },
    reason: "INC-1: replay",
    created_by: "alice",
    created_at: "2026-07-01T14:00:00.000Z",
    executed_at: null,
    undo_of: null,
    plan: [
      { topic: "orders", partition: 0, current_offset: 90, new_offset: 10, log_start_offset: 10, log_end_offset: 110, lag_before: 20, lag_after: 100, clamped: true, new_offset_timestamp: "2026-07-01T13:30:00.250Z" },
      { topic: "orders", partition: 1, current_offset: 100, new_offset: 150, log_start_offset: 0, log_end_offset: 200, lag_before: 100, lag_after: 50, clamped: false, new_offset_timestamp: "2026-07-01T13:31:02.000Z" },
      { topic: "orders", partition: 2, current_offset: null, new_offset: 50, log_start_offset: 0, log_end_offset: 50, lag_before: null, lag_after: 0, clamped: false, new_offset_timestamp: null },
      { topic: "payments", partition: 0, current_offset: 7, new_offset: 7, log_start_offset: 0, log_end_offset: 7, lag_before: 0, lag_after: 0, clamped: false, new_offset_timestamp: null },
    ],
    result: null,
    ...overrides,
  };
}

/** An executed reset of orders-app (succeeded, unless `overrides` say otherwise). */
export function executedResetOf(overrides: Partial<OffsetReset> = {}): OffsetReset {
  return resetOf({ dry_run: false, executed: true, state: "succeeded", ...overrides });
}

/** The executed undo of reset #`undone`. */
export function undoOf(undone: number, overrides: Partial<OffsetReset> = {}): OffsetReset {
  return executedResetOf({ strategy: { type: "undo", undo_of: undone }, undo_of: undone, ...overrides });
}

/** Undo #9 of reset #8: orders-0 back at 90. */
export const UNDO_9_OF_8 = undoOf(8, {
  id: 9,
  result: [{ topic: "orders", partition: 0, new_offset: 90, committed: true, error: null }],
});

// ---- approval requests (protected clusters) ----

/** A second operator of local and staging (decides alice's requests). */
export const OLGA: CurrentUser = { username: "olga", role: "operator", cluster_roles: { local: "operator", staging: "operator" } };

/** A pending request of alice's (ME): execute reset preview #7 of orders-app on local, asked
 * 2026-07-01 14:00 UTC, expiring an hour later. */
export function approvalOf(overrides: Partial<Approval> = {}): Approval {
  return {
    id: 12,
    cluster: "local",
    action: "offsets.reset.execute",
    target: "orders-app",
    summary: "Execute preview 7: reset group orders-app on 4 partitions as planned (to_datetime).",
    plan: { reset_id: 7, reason: "INC-1: replay" },
    state: "pending",
    requested_by: "alice",
    reason: "INC-1: replay",
    created_at: "2026-07-01T14:00:00.000+00:00",
    expires_at: "2026-07-01T15:00:00.000+00:00",
    decided_by: null,
    decided_at: null,
    decision_reason: "",
    result: null,
    error: null,
    ...overrides,
  };
}

/** A pending topic delete on staging, asked by bob (admins decide it). */
export const TOPIC_DELETE_REQUEST: Approval = approvalOf({
  id: 11,
  cluster: "staging",
  action: "topic.delete",
  target: "ledger",
  summary: "Delete topic ledger and every record in it.",
  plan: { topic: "ledger" },
  requested_by: "bob",
  reason: "",
  created_at: "2026-07-01T13:50:00.000+00:00",
  expires_at: "2026-07-01T14:50:00.000+00:00",
});

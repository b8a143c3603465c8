// Hand-written types for the REST contract in shared/API.md (v1).
// To be replaced by types generated from the OpenAPI schema at /api/v1/schema/.

export type Role = "viewer" | "operator" | "admin";

/** GET /api/v1/me */
export interface CurrentUser {
  username: string;
  role: Role;
}

/** One entry of GET /api/v1/clusters. Kafka-derived fields are null when unreachable. */
export interface ClusterSummary {
  name: string;
  bootstrap_servers: string;
  cluster_id: string | null;
  controller_id: number | null;
  broker_count: number | null;
  reachable: boolean;
}

/** GET /api/v1/clusters/{cluster}/brokers */
export interface Broker {
  id: number;
  host: string;
  port: number;
  rack: string | null;
  is_controller: boolean;
  leader_count: number;
  replica_count: number;
  offline_replica_count: number;
}

/** GET /api/v1/clusters/{cluster} */
export interface ClusterDetail extends ClusterSummary {
  brokers: Broker[];
}

/** The body of every API error: {"error": {"code", "message", "details"}}. */
export interface ApiErrorBody {
  error: {
    code: string;
    message: string;
    details?: Record<string, unknown>;
  };
}

/** The `filter=` values of GET /api/v1/clusters/{cluster}/topics. */
export type TopicHealthFilter = "under_replicated" | "under_min_isr" | "at_min_isr" | "unavailable";

/** One entry of GET /api/v1/clusters/{cluster}/topics (counts are partitions). */
export interface TopicSummary {
  name: string;
  internal: boolean;
  partition_count: number;
  replication_factor: number;
  under_replicated_count: number;
  under_min_isr_count: number;
  at_min_isr_count: number;
  unavailable_count: number;
}

/** One partition of a topic detail. Broker ids throughout; `leader` null when offline. */
export interface PartitionInfo {
  partition: number;
  leader: number | null;
  /** In assignment order: replicas[0] is the preferred leader. */
  replicas: number[];
  isr: number[];
  offline_replicas: number[];
  preferred_leader: number | null;
  is_preferred_leader: boolean;
  under_replicated: boolean;
  under_min_isr: boolean;
  at_min_isr: boolean;
  unavailable: boolean;
  /** null when unknown (e.g. the leader is offline). */
  log_start_offset: number | null;
  log_end_offset: number | null;
}

/** One topic config as Kafka describes it. `value` is null for sensitive entries. */
export interface ConfigEntry {
  name: string;
  value: string | null;
  /** DYNAMIC_TOPIC_CONFIG, STATIC_BROKER_CONFIG, DEFAULT_CONFIG, ... */
  source: string;
  is_default: boolean;
  read_only: boolean;
  sensitive: boolean;
}

/** GET /api/v1/clusters/{cluster}/topics/{topic} (also the answer of topic writes). */
export interface TopicDetail {
  name: string;
  internal: boolean;
  partition_count: number;
  replication_factor: number;
  min_insync_replicas: number;
  configs: Record<string, string | null>;
  config_entries: ConfigEntry[];
  /** Ids of the brokers currently alive. */
  live_brokers: number[];
  partitions: PartitionInfo[];
}

/** POST /api/v1/clusters/{cluster}/topics */
export interface CreateTopicRequest {
  name: string;
  partitions: number;
  replication_factor: number;
  configs: Record<string, string>;
}

/** PATCH /api/v1/clusters/{cluster}/topics/{topic}/configs */
export interface ConfigPatch {
  set?: Record<string, string>;
  delete?: string[];
}

export type ElectionType = "preferred" | "unclean";

export interface TopicPartitionRef {
  topic: string;
  partition: number;
}

/** One entry of the answer of POST /api/v1/clusters/{cluster}/elect-leaders. */
export interface ElectionResult {
  topic: string;
  partition: number;
  outcome: "elected" | "not_needed" | "failed";
  error: string | null;
}

// ---- consumer groups ----

/**
 * A consumer group state as Kafka reports it. Classic groups: PreparingRebalance,
 * CompletingRebalance, Stable, Empty, Dead; KIP-848 groups: Assigning, Reconciling,
 * Stable, Empty, Dead. Others may appear ("Unknown").
 */
export type GroupState = string;

/** The lag evaluation (Burrow's rules); UNKNOWN until the lag sampler keeps a history. */
export type LagStatus = "OK" | "WARN" | "ERR" | "STOP" | "STALL" | "REWIND" | "UNKNOWN" | string;

/** One entry of GET /api/v1/clusters/{cluster}/groups */
export interface GroupSummary {
  group_id: string;
  state: GroupState;
  protocol_type: string;
  member_count: number;
  topics: string[];
  /** null when no partition has both a committed offset and a known log end. */
  total_lag: number | null;
  max_lag: number | null;
  max_lag_seconds: number | null;
  status: LagStatus;
}

export interface GroupMember {
  member_id: string;
  client_id: string;
  host: string;
  assignments: TopicPartitionRef[];
}

/** One partition of a group: committed offset, log range and lag. */
export interface GroupOffset {
  topic: string;
  partition: number;
  /** null when the group has no committed offset there. */
  committed_offset: number | null;
  log_start_offset: number | null;
  log_end_offset: number | null;
  /** log end - committed; null when nothing is committed. */
  lag: number | null;
  lag_seconds: number | null;
  /** The member the partition is assigned to, or null. */
  member_id: string | null;
  status: LagStatus;
}

/** GET /api/v1/clusters/{cluster}/groups/{group} */
export interface GroupDetail {
  group_id: string;
  state: GroupState;
  protocol_type: string;
  assignor: string;
  /** Broker id of the group coordinator, or null when unknown. */
  coordinator: number | null;
  members: GroupMember[];
  offsets: GroupOffset[];
  total_lag: number | null;
  status: LagStatus;
}

// ---- offset resets ----

export interface TopicScope {
  topic: string;
  /** null: every partition of the topic. */
  partitions: number[] | null;
}

/** Which partitions a reset touches (ignored by from_file). */
export type ResetScope = { all_topics: true } | { topics: TopicScope[] };

export type ResetStrategyType =
  | "earliest"
  | "latest"
  | "current"
  | "to_offset"
  | "shift_by"
  | "to_datetime"
  | "by_duration"
  | "from_file";

/** The `strategy` object of a reset request: `type` plus the one field it needs. */
export interface ResetStrategy {
  type: ResetStrategyType;
  offset?: number;
  shift?: number;
  /** ISO-8601 with milliseconds and a zone, e.g. 2026-11-21T10:03:12.250+01:00. */
  datetime?: string;
  /** ISO-8601 duration, PnDTnHnMn.nS (P1D, PT15M, P2DT3H30M). */
  duration?: string;
  /** topic,partition,offset lines (the offsets.csv export format). */
  csv?: string;
}

/** POST /api/v1/clusters/{cluster}/groups/{group}/offset-resets */
export interface ResetRequest {
  scope?: ResetScope;
  strategy: ResetStrategy;
  /** Default true: nothing changes unless false. */
  dry_run: boolean;
  reason: string;
}

/** One partition of a reset's plan. */
export interface PlanRow {
  topic: string;
  partition: number;
  current_offset: number | null;
  new_offset: number;
  log_start_offset: number;
  log_end_offset: number;
  lag_before: number | null;
  lag_after: number;
  /** The asked offset fell outside [log start, log end] and was moved to the nearest end. */
  clamped: boolean;
  /** Timestamp of the record at new_offset; null at the log end. */
  new_offset_timestamp: string | null;
}

/** One partition of an executed reset's outcome. */
export interface ResultRow {
  topic: string;
  partition: number;
  new_offset: number | null;
  committed: boolean;
  error: string | null;
}

export type ResetState = "planned" | "succeeded" | "partially_failed" | "failed" | string;

/** A reset (dry run or executed), as POST, GET and undo answer it. */
export interface OffsetReset {
  id: number;
  cluster: string;
  group_id: string;
  dry_run: boolean;
  executed: boolean;
  state: ResetState;
  /** The request's strategy; an undo has {"type": "undo", "undo_of": id}. */
  strategy: { type: ResetStrategyType | "undo" | string; [key: string]: unknown };
  scope: Partial<{ all_topics: boolean; topics: TopicScope[] }> & Record<string, unknown>;
  reason: string;
  created_by: string | null;
  created_at: string;
  executed_at: string | null;
  undo_of: number | null;
  plan: PlanRow[];
  result: ResultRow[] | null;
}

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

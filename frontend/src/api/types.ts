// Types of the REST API. Response shapes come from the OpenAPI schema that the server
// generates from its serializers (`bin/api-types gen` writes schema.gen.ts; the test command
// fails when it is stale). Hand-written here: request bodies and unions the SPA narrows
// further than the schema says (strategy types, scopes), and the error body.
import type { components } from "./schema.gen";

type Schemas = components["schemas"];

export type Role = "viewer" | "operator" | "admin";

/** GET /api/v1/me */
export type CurrentUser = Omit<Schemas["Me"], "role"> & { role: Role };

/** One entry of GET /api/v1/clusters. Kafka-derived fields are null when unreachable. */
export type ClusterSummary = Schemas["Cluster"];

/** GET /api/v1/clusters/{cluster}/brokers */
export type Broker = Schemas["Broker"];

/** GET /api/v1/clusters/{cluster} */
export type ClusterDetail = Schemas["ClusterDetail"];

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
export type TopicSummary = Schemas["TopicRow"];

/** One partition of a topic detail. Broker ids throughout; `leader` null when offline. */
export type PartitionInfo = Schemas["Partition"];

/** One topic config as Kafka describes it. `value` is null for sensitive entries. */
export type ConfigEntry = Schemas["ConfigEntry"];

/** GET /api/v1/clusters/{cluster}/topics/{topic} (also the answer of topic writes). */
export type TopicDetail = Schemas["TopicDetail"];

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

export type TopicPartitionRef = Schemas["TopicPartitionRef"];

/** One entry of the answer of POST /api/v1/clusters/{cluster}/elect-leaders. */
export type ElectionResult = Schemas["ElectionResult"];

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
export type GroupSummary = Schemas["GroupRow"];

export type GroupMember = Schemas["Member"];

/** One partition of a group: committed offset, log range and lag. */
export type GroupOffset = Schemas["GroupOffset"];

/** GET /api/v1/clusters/{cluster}/groups/{group} */
export type GroupDetail = Schemas["GroupDetail"];

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
export type PlanRow = Schemas["PlanRow"];

/** One partition of an executed reset's outcome. */
export type ResultRow = Schemas["ResultRow"];

export type ResetState = "planned" | "succeeded" | "partially_failed" | "failed" | string;

/** A reset (dry run or executed), as POST, GET, execute and undo answer it. The schema has
 * `strategy` and `scope` as free objects; the SPA reads them as the request shapes. */
export type OffsetReset = Omit<Schemas["OffsetReset"], "strategy" | "scope"> & {
  /** The request's strategy; an undo has {"type": "undo", "undo_of": id}. */
  strategy: { type: ResetStrategyType | "undo" | string; [key: string]: unknown };
  scope: Partial<{ all_topics: boolean; topics: TopicScope[] }> & Record<string, unknown>;
};

/** The details of a 409 `plan_stale`: what no longer holds of a previewed plan. */
export interface PlanChange {
  topic: string;
  partition: number;
  planned_current_offset: number | null;
  current_offset: number | null;
  new_offset: number;
  log_start_offset: number | null;
  log_end_offset: number | null;
}

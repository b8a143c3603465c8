// Types of the REST API: a thin mapping onto the types generated from its OpenAPI schema
// (`/api/v1/schema/`; `bin/api-types gen` writes openapi.json and schema.gen.ts, `bin/api-types
// check` fails when they are stale). What the schema describes is an alias of
// components["schemas"][...], narrowed only where the SPA relies on more than the schema says
// (the role's values, a stored reset's strategy and scope, the request the wizard builds).
// Hand-written, because the schema does not describe them: the `details` of a 409 plan_stale
// (PlanChange below).
import type { components, paths } from "./schema.gen";

type Schemas = components["schemas"];

/** The roles, lowest first (the schema has `role` as a plain string). */
export type Role = "viewer" | "operator" | "admin";

/** GET /api/v1/me */
/** `role`: the highest held anywhere; `cluster_roles`: the role on each cluster where one is held. */
export type CurrentUser = Omit<Schemas["Me"], "role" | "cluster_roles"> & {
  role: Role;
  cluster_roles: Record<string, Role>;
};

/** One entry of GET /api/v1/clusters. Kafka-derived fields are null when unreachable. */
export type ClusterSummary = Schemas["Cluster"];

/** GET /api/v1/clusters/{cluster}/brokers */
export type Broker = Schemas["Broker"];
export type Reassignment = Schemas["Reassignment"];

/** GET /api/v1/clusters/{cluster} */
export type ClusterDetail = Schemas["ClusterDetail"];

/** A broker of GET /api/v1/clusters/{cluster}: with its log dirs' disk (summed) and the bytes of its
 * replicas, each null when unknown. */
export type BrokerDisk = Schemas["BrokerDisk"];

/** GET /api/v1/clusters/{cluster}/brokers/{broker}: one live broker (404 when it is not live). */
export type BrokerDetail = Schemas["BrokerDetail"];

/** One log directory of a broker; `total_bytes`/`usable_bytes` null when the broker does not say. */
export type LogDir = Schemas["LogDir"];

/** One replica in a log directory (`is_future`: being moved into it from another dir of the broker). */
export type ReplicaSize = Schemas["ReplicaSize"];

/** One API a broker supports, with its version range. */
export type ApiVersion = Schemas["ApiVersion"];

/** The body of every API error: {"error": {"code", "message", "details"}}. */
export type ApiErrorBody = Schemas["Error"];

// ---- topics ----

/** The `filter=` values of GET /api/v1/clusters/{cluster}/topics. */
export type TopicHealthFilter = NonNullable<
  NonNullable<paths["/api/v1/clusters/{cluster}/topics"]["get"]["parameters"]["query"]>["filter"]
>;

/** One entry of GET /api/v1/clusters/{cluster}/topics (counts are partitions). */
export type TopicSummary = Schemas["TopicRow"];

/** One partition of a topic detail. Broker ids throughout; `leader` null when offline. */
export type PartitionInfo = Schemas["Partition"];

/** One topic config as Kafka describes it. `value` is null for sensitive entries. */
export type ConfigEntry = Schemas["ConfigEntry"];

/** GET /api/v1/clusters/{cluster}/topics/{topic} (also the answer of topic writes). */
export type TopicDetail = Schemas["TopicDetail"];

/** A consumer group reading a topic (TopicDetail's `readers`): its lag on the topic and its lag
 * status (`status` null or unknown values: UNKNOWN), at the lag sampler's last pass. */
export type TopicReader = Schemas["Reader"];

/** POST /api/v1/clusters/{cluster}/topics */
export type CreateTopicRequest = Schemas["TopicCreate"];

/** PATCH /api/v1/clusters/{cluster}/topics/{topic}/configs */
export type ConfigPatch = Schemas["PatchedConfigPatch"];

export type ElectionType = Schemas["ElectLeaders"]["election"];

export type TopicPartitionRef = Schemas["TopicPartitionRef"];

/** One entry of the answer of POST /api/v1/clusters/{cluster}/elect-leaders. */
export type ElectionResult = Schemas["ElectionResult"];

// ---- consumer groups ----

/**
 * A consumer group state as Kafka reports it. Classic groups: PreparingRebalance,
 * CompletingRebalance, Stable, Empty, Dead; KIP-848 groups: Assigning, Reconciling,
 * Stable, Empty, Dead. Others may appear ("Unknown").
 */
export type GroupState = Schemas["GroupDetail"]["state"];

/** One entry of GET /api/v1/clusters/{cluster}/groups */
export type GroupSummary = Schemas["GroupRow"];

export type GroupMember = Schemas["Member"];

/** One partition of a group: committed offset, log range and lag. */
export type GroupOffset = Schemas["GroupOffset"];

/** GET /api/v1/clusters/{cluster}/groups/{group} */
export type GroupDetail = Schemas["GroupDetail"];

// ---- offset resets ----

/** One topic of a reset's scope; the wizard always sends `partitions` (null: every partition). */
export type TopicScope = Schemas["TopicScope"] & { partitions: number[] | null };

/** Which partitions a reset touches (ignored by from_file): all topics, or the listed ones. */
export type ResetScope = { all_topics: true } | { topics: TopicScope[] };

export type ResetStrategyType = Schemas["Strategy"]["type"];

/** The `strategy` object of a reset request: `type` plus the one field it needs. */
export type ResetStrategy = Schemas["Strategy"];

/** POST /api/v1/clusters/{cluster}/groups/{group}/offset-resets, as the wizard sends it
 * (always `dry_run` and `reason`; the scope as one of its two forms). */
export type ResetRequest = Omit<Schemas["ResetRequest"], "scope" | "dry_run" | "reason"> & {
  scope?: ResetScope;
  /** The server's default is true: nothing changes unless false. */
  dry_run: boolean;
  reason: string;
};

/** POST /api/v1/offset-resets/{id}/execute and /undo */
export type ReasonRequest = Schemas["ReasonRequest"];

/** One partition of a reset's plan. */
export type PlanRow = Schemas["PlanRow"];

/** One partition of an executed reset's outcome. */
export type ResultRow = Schemas["ResultRow"];

/** "planned", "succeeded", "partially_failed" or "failed". */
export type ResetState = Schemas["OffsetReset"]["state"];

/** A stored reset's strategy: a request strategy, or an undo's {"type": "undo", "undo_of": id}. */
export type StoredStrategy = Omit<Partial<ResetStrategy>, "type"> & {
  type: ResetStrategyType | "undo" | (string & {});
  undo_of?: number;
};

/** A reset (dry run or executed), as POST, GET, execute and undo answer it. The schema has
 * `strategy` and `scope` as free objects; they are what the request sent. */
export type OffsetReset = Omit<Schemas["OffsetReset"], "strategy" | "scope"> & {
  strategy: StoredStrategy;
  scope: Partial<Schemas["Scope"]>;
};

/**
 * One entry of `details.changes` of a 409 `plan_stale` (execute): a partition whose previewed plan
 * no longer holds. Not in the schema (error details are free objects there); the server promises
 * topic, partition and the committed offsets then and now, the rest may be missing.
 */
export interface PlanChange {
  topic: string;
  partition: number;
  /** The committed offset the preview planned from (null: none). */
  planned_current_offset: number | null;
  /** The committed offset now (null: none). */
  current_offset: number | null;
  new_offset?: number | null;
  log_start_offset?: number | null;
  log_end_offset?: number | null;
}

// ---- live lag (docs/live-lag.md) ----

/** A partition's or group's lag status (Burrow-style rules, docs/live-lag.md). */
export type LagStatus = Schemas["StatusEnum"];

/** "near": retention can delete records the group has not read before it catches up; "lost":
 * retention deleted unread records. `retention_reason` beside it says why, in words. */
export type RetentionRisk = Schemas["RetentionRiskEnum"];

/** Records per second written to and consumed from a topic (means over the sampler's window). */
export type Rates = Schemas["Rates"];

/** One topic of a group detail: lag, lag in seconds, rates, catch-up time, retention risk. */
export type GroupTopicLag = Schemas["GroupTopicLag"];

/** `window=` of GET …/lag-history: the last hour (each sample) or day (one point a minute). */
export type LagWindow = Schemas["WindowEnum"];

/** One topic at one sample of GET /api/v1/clusters/{cluster}/groups/{group}/lag-history. */
export type LagPoint = Schemas["LagPoint"];

/** GET /api/v1/clusters/{cluster}/groups/{group}/lag-history */
export type LagHistory = Schemas["LagHistory"];

// ---- Spark jobs (docs/spark-jobs.md) ----

/** queued → submitted → running → succeeded | failed | cancelled | lost. */
export type SparkJobState = Schemas["SparkJobStateEnum"];

/** A JSON Schema as the server sends it (the job types' params and result schemas). */
export type JsonSchema = Record<string, unknown>;

/** One entry of GET /api/v1/spark/job-types. The schema has both schemas as free JSON. */
export type SparkJobType = Omit<Schemas["JobType"], "params_schema" | "result_schema"> & {
  params_schema: JsonSchema;
  result_schema: JsonSchema;
};

/** POST /api/v1/spark/jobs */
export type SparkJobSubmit = Schemas["Submit"] & { params: Record<string, unknown> };

/** A job (GET /api/v1/spark/jobs/{id}, the list, submit and cancel answers, the job socket).
 * `params` are the params with the schema's defaults filled in; `result` (null until it
 * succeeded) follows the job type's result schema (lib/sparkResults reads it defensively). */
export type SparkJob = Omit<Schemas["SparkJob"], "params" | "result"> & {
  params: Record<string, unknown>;
  result: unknown;
};

/** `level=` of GET /api/v1/spark/jobs/{id}/log: "all" lines, or "warn": without Spark's TRACE,
 * DEBUG and INFO lines (lib/logLines.ts; sparkjobs/log_lines.py). */
export type LogFilter = NonNullable<
  NonNullable<paths["/api/v1/spark/jobs/{job_id}/log"]["get"]["parameters"]["query"]>["level"]
>;

/** The query of GET /api/v1/spark/jobs: `state`, `job_type`, `limit`. */
export type SparkJobListQuery = NonNullable<paths["/api/v1/spark/jobs"]["get"]["parameters"]["query"]>;

// ---- Spark job schedules (docs/spark-jobs.md) ----

/** What became of one slot of a schedule: started (a job), skipped (its previous job still queued
 * or running), refused (the submit's checks said no; `reason`) or failed. */
export type ScheduleRunOutcome = Schemas["ScheduleRunOutcomeEnum"];

/** One slot of a schedule (GET spark/schedules/{id} `runs`, newest first). */
export type ScheduleRun = Schemas["ScheduleRun"];

/** One entry of GET spark/schedules. Exactly one of `cron` (in `timezone`) and `every_minutes`
 * is set; `next_run_at` is null while it is disabled. */
export type Schedule = Omit<Schemas["Schedule"], "params"> & { params: Record<string, unknown> };

/** GET spark/schedules/{id} (and the answer of POST and PATCH): the schedule and its last 20 runs. */
export type ScheduleDetail = Omit<Schemas["ScheduleDetail"], "params"> & { params: Record<string, unknown> };

/** POST spark/schedules */
export type ScheduleInput = Schemas["ScheduleInput"] & { params: Record<string, unknown> };

/** PATCH spark/schedules/{id}: only the fields that change. */
export type SchedulePatch = Schemas["PatchedScheduleInput"];

// ---- partition reassignment (docs/reassignment.md; admins) ----

/** kafka-reassign-partitions.sh's JSON: `{"version": 1, "partitions": [{topic, partition, replicas, log_dirs}]}`. */
export type PlanDocument = Schemas["PlanDocument"];

/** One partition of a plan document: its wanted replicas (the first is the preferred leader). */
export type PlanPartition = Schemas["PlanPartition"];

/**
 * POST /api/v1/clusters/{cluster}/reassignments/plan: exactly one of the three requests (the
 * schema has every field optional): topics spread over brokers (--generate), a topic's new
 * replication factor, or a plan in the tool's JSON (pasted, uploaded or edited).
 */
export type PlanRequest =
  | { topics: string[]; brokers: number[]; throttle_bytes_per_s: number | null }
  | { topic: string; replication_factor: number; throttle_bytes_per_s: number | null }
  | { plan: PlanDocument; throttle_bytes_per_s: number | null };

/** One partition of a plan's preview: old and new replicas, the brokers gaining and losing one,
 * and the bytes the gaining ones copy (null: unknown). */
export type PlanMove = Schemas["Move"];

/** The answer of POST …/reassignments/plan: `proposed`, `current` (the rollback), the moves and totals. */
export type Plan = Schemas["Plan"];

/** POST /api/v1/clusters/{cluster}/reassignments (the schema has `plan` as free JSON). */
export type ExecuteReassignmentRequest = Omit<Schemas["ExecuteRequest"], "plan" | "reason"> & {
  plan: PlanDocument;
  reason: string;
};

/** running → completed | cancelled | failed. */
export type ReassignmentState = Schemas["ReassignmentStateEnum"];

/** A partition of a reassignment: moving, done, reverted (cancelled) or changed (by someone else). */
export type ReassignmentPartition = Schemas["ReassignmentPartition"];

/** One reassignment of GET /api/v1/clusters/{cluster}/reassignments. */
export type ReassignmentRow = Schemas["ReassignmentRow"];

/** A partition Kafka is moving now, whoever started it. */
export type KafkaReassigning = Schemas["KafkaReassigning"];

/** GET /api/v1/clusters/{cluster}/reassignments */
export type ReassignmentList = Schemas["ReassignmentList"];

// ---- ACLs (docs/governance.md; list: viewer, changes: admin) ----

/** One binding, as kafka-acls.sh prints it (TOPIC, LITERAL, READ, ALLOW); the answers always
 * carry every field. */
export type Acl = Required<Schemas["Acl"]>;

/** GET /api/v1/clusters/{cluster}/acls: the filter (absent: any). */
export type AclListQuery = NonNullable<paths["/api/v1/clusters/{cluster}/acls"]["get"]["parameters"]["query"]>;

/** The resource types of the list's filter (TOPIC, GROUP, …). */
export type AclResourceType = NonNullable<AclListQuery["resource_type"]>;

/** The list's pattern filter: literal, prefixed, match or any. */
export type AclPatternFilter = NonNullable<AclListQuery["pattern_type"]>;

/** The operations (ALL, READ, …). */
export type AclOperation = NonNullable<AclListQuery["operation"]>;

/** kafka-acls.sh --producer: topics, --transactional-id, --idempotent. */
export type AclProducer = Schemas["Producer"];

/** kafka-acls.sh --consumer: topics and groups. */
export type AclConsumer = Schemas["Consumer"];

/** POST /api/v1/clusters/{cluster}/acls as the page sends it (always `dry_run`). */
export type AclCreateRequest = Omit<Schemas["AclCreate"], "dry_run"> & { dry_run: boolean };

/** Its answer: the bindings created (or to be, in a preview) and those asked for that exist already. */
export type AclCreated = Omit<Schemas["AclCreated"], "bindings" | "existing"> & { bindings: Acl[]; existing: Acl[] };

/** What a delete selects (a resource type and name, the rest absent: any). */
export type AclFilter = Schemas["AclFilter"];

/** POST /api/v1/clusters/{cluster}/acls/delete as the page sends it (always `dry_run`). */
export type AclDeleteRequest = { filter: AclFilter; dry_run: boolean };

/** Its answer: exactly the bindings deleted (or to be, in a preview). */
export type AclDeleted = Omit<Schemas["AclDeleted"], "bindings"> & { bindings: Acl[] };

// ---- SCRAM users and client quotas (docs/governance.md; admin only) ----

/** One SCRAM credential: all Kafka tells of it (never a password, salt or key). */
export type ScramCredential = Schemas["ScramCredential"];

/** A SCRAM user of GET /api/v1/clusters/{cluster}/scram-users (and the answer of a PUT or DELETE). */
export type ScramUser = Schemas["ScramUser"];

/** SCRAM-SHA-256 or SCRAM-SHA-512. */
export type ScramMechanism = Schemas["MechanismEnum"];

/** PUT /api/v1/clusters/{cluster}/scram-users/{user}: create the credential or rotate its password. */
export type ScramUpsert = Schemas["ScramUpsert"];

/** An entity of kafka-configs.sh --entity-type users|clients|ips: each part a name, or
 * {"default": true} (--entity-default). */
export type QuotaEntity = Schemas["QuotaEntity"];

/** One part of an entity: a name or the default. */
export type QuotaEntityPart = NonNullable<QuotaEntity["user"]>;

/** GET /api/v1/clusters/{cluster}/quotas: one entity and its values. */
export type Quota = Schemas["Quota"];

/** GET /api/v1/clusters/{cluster}/quotas?entity_type=…: users, clients, both (the pairs) or ips; absent: all. */
export type QuotaEntityType = NonNullable<NonNullable<paths["/api/v1/clusters/{cluster}/quotas"]["get"]["parameters"]["query"]>["entity_type"]>[number];

/** PATCH /api/v1/clusters/{cluster}/quotas as the page sends it (always an entity). */
export type QuotaChange = Omit<Schemas["PatchedQuotaChange"], "entity"> & { entity: QuotaEntity };

/** Its answer: the entity's values as Kafka then lists them, and before. */
export type QuotaChanged = Schemas["QuotaChanged"];

// ---- console users, API tokens and the audit log (docs/governance.md) ----

/** One console user of GET /api/v1/users (admins): the role on every cluster (null: none; a
 * superuser is "admin" whatever its groups) and the roles on single clusters, which replace it
 * there. The schema has both as plain strings. */
export type ConsoleUser = Omit<Schemas["User"], "role" | "cluster_roles"> & {
  role: Role | null;
  cluster_roles: Record<string, Role>;
};

/** POST /api/v1/users: without a password the user signs in with API tokens only. */
export type ConsoleUserCreate = Schemas["UserCreate"];

/** PATCH /api/v1/users/{id}: only what changes; `role` null removes the all-clusters role, a
 * null in `cluster_roles` removes that cluster's own role. */
export type ConsoleUserChange = Schemas["PatchedUserChange"];

/** One API token of GET /api/v1/users/{id}/tokens (never its key). */
export type ApiToken = Schemas["Token"];

/** POST /api/v1/users/{id}/tokens */
export type ApiTokenCreate = Schemas["TokenCreate"];

/** Its answer: the token and its `key`, the only answer that ever holds it. */
export type ApiTokenCreated = Schemas["TokenCreated"];

/** One entry of GET /api/v1/audit (operators): `request` and `details` are free JSON. */
export type AuditEntry = Schemas["AuditEntry"];

/** ok, refused, failed, preview or requested. */
export type AuditOutcome = Schemas["AuditEntryOutcomeEnum"];

/** The query of GET /api/v1/audit: the filters, `limit` and `before_id` (the next page). */
export type AuditListQuery = NonNullable<paths["/api/v1/audit"]["get"]["parameters"]["query"]>;

/** The filters of GET /api/v1/audit/export (the list's, without paging). */
export type AuditFilterQuery = NonNullable<paths["/api/v1/audit/export"]["get"]["parameters"]["query"]>;

// ---- two-person approval on protected clusters (docs/governance.md) ----

/** A change held on a protected cluster: GET approvals, GET approvals/{id}, the 202 of the change,
 * the answer of approve / reject, and what /ws/clusters/{cluster}/approvals pushes. */
export type Approval = Schemas["Approval"];

/** pending → running → executed | failed; pending → rejected | expired. */
export type ApprovalState = Schemas["ApprovalStateEnum"];

/** The body of POST approvals/{id}/approve and /reject. */
export type Decision = Schemas["Decision"];

// One function per REST endpoint the SPA uses (the contract: docs/api.md and the OpenAPI schema,
// `/api/v1/schema/`). Each names its path as the generated `paths` type has it (paths.ts): the
// path parameters, query, request body and answer are the schema's, so a path, parameter or body
// the schema does not have fails `tsc`. Where the SPA's type is narrower than the schema's (the
// role's values, a reset's strategy, a job's params; see types.ts) the answer is cast to it with
// `as`, which tsc still refuses for a type that does not overlap the schema's.
import { pathUrl, typedApi as api } from "./paths";
import type {
  Acl,
  AclCreated,
  AclCreateRequest,
  AclDeleted,
  AclDeleteRequest,
  AclListQuery,
  ApiToken,
  ApiTokenCreate,
  ApiTokenCreated,
  Approval,
  ApprovalState,
  AuditEntry,
  AuditFilterQuery,
  AuditListQuery,
  Broker,
  BrokerDetail,
  ClusterDetail,
  ClusterSummary,
  ConfigEntry,
  ConfigPatch,
  ConsoleUser,
  ConsoleUserChange,
  ConsoleUserCreate,
  CreateTopicRequest,
  CurrentUser,
  ElectionResult,
  ElectionType,
  ExecuteReassignmentRequest,
  GroupDetail,
  GroupSummary,
  LagHistory,
  LagWindow,
  LogFilter,
  OffsetReset,
  Plan,
  PlanRequest,
  Quota,
  QuotaChange,
  QuotaChanged,
  QuotaEntityType,
  ReasonRequest,
  Reassignment,
  ReassignmentList,
  ResetRequest,
  Schedule,
  ScheduleDetail,
  ScheduleInput,
  SchedulePatch,
  ScramMechanism,
  ScramUpsert,
  ScramUser,
  SparkJob,
  SparkJobListQuery,
  SparkJobSubmit,
  SparkJobType,
  TopicDetail,
  TopicHealthFilter,
  TopicPartitionRef,
  TopicSummary,
} from "./types";

export function getMe(signal?: AbortSignal): Promise<CurrentUser> {
  return api.get("me", { signal }) as Promise<CurrentUser>;
}

export function listClusters(signal?: AbortSignal): Promise<ClusterSummary[]> {
  return api.get("clusters", { signal });
}

export function getCluster(cluster: string, signal?: AbortSignal): Promise<ClusterDetail> {
  return api.get("clusters/{cluster}", { path: { cluster }, signal });
}

export function listBrokers(cluster: string, signal?: AbortSignal): Promise<Broker[]> {
  return api.get("clusters/{cluster}/brokers", { path: { cluster }, signal });
}

/** One live broker: log dirs with replica sizes, configs with sources, API versions; 404 when it is not live. */
export function getBroker(cluster: string, broker: number, signal?: AbortSignal): Promise<BrokerDetail> {
  return api.get("clusters/{cluster}/brokers/{broker}", { path: { cluster, broker }, signal });
}

/**
 * Set and delete one broker's dynamic configs (`kafka-configs.sh --alter --entity-type brokers
 * --entity-name {broker}`): 200 with the broker's configs after it. 400 (details.field `set` or
 * `delete`) for a read-only key, a key not set on this broker, a value Kafka refuses; 403 below admin.
 */
export function patchBrokerConfigs(cluster: string, broker: number, patch: ConfigPatch): Promise<ConfigEntry[]> {
  return api.patch("clusters/{cluster}/brokers/{broker}/configs", { path: { cluster, broker }, body: patch });
}

/** The cluster-wide dynamic broker configs (`--entity-default`): only the keys set at that level. */
export function getBrokerDefaults(cluster: string, signal?: AbortSignal): Promise<ConfigEntry[]> {
  return api.get("clusters/{cluster}/broker-defaults", { path: { cluster }, signal });
}

/** Set and delete cluster-wide dynamic broker configs: 200 with them after it; 400 and 403 as for one broker. */
export function patchBrokerDefaults(cluster: string, patch: ConfigPatch): Promise<ConfigEntry[]> {
  return api.patch("clusters/{cluster}/broker-defaults", { path: { cluster }, body: patch });
}

// ---- topics ----

export interface TopicListQuery {
  includeInternal?: boolean;
  filter?: TopicHealthFilter | null;
  search?: string | null;
}

export function listTopics(
  cluster: string,
  query: TopicListQuery = {},
  signal?: AbortSignal,
): Promise<TopicSummary[]> {
  return api.get("clusters/{cluster}/topics", {
    path: { cluster },
    signal,
    query: {
      include_internal: !!query.includeInternal,
      filter: query.filter || undefined,
      search: query.search || undefined,
    },
  });
}

export function getTopic(cluster: string, topic: string, signal?: AbortSignal): Promise<TopicDetail> {
  return api.get("clusters/{cluster}/topics/{topic}", { path: { cluster, topic }, signal });
}

/** 201 with the new topic; 400 with details.field naming the bad field; 409 when it exists. */
export function createTopic(cluster: string, body: CreateTopicRequest): Promise<TopicDetail> {
  return api.post("clusters/{cluster}/topics", { path: { cluster }, body });
}

export function deleteTopic(cluster: string, topic: string): Promise<void> {
  return api.delete("clusters/{cluster}/topics/{topic}", { path: { cluster, topic } });
}

export function patchTopicConfigs(cluster: string, topic: string, patch: ConfigPatch): Promise<TopicDetail> {
  return api.patch("clusters/{cluster}/topics/{topic}/configs", { path: { cluster, topic }, body: patch });
}

/** Raise the partition count to `count` (Kafka cannot lower it). */
export function addPartitions(cluster: string, topic: string, count: number): Promise<TopicDetail> {
  return api.post("clusters/{cluster}/topics/{topic}/partitions", { path: { cluster, topic }, body: { count } });
}

/** `partitions` null elects on every partition of the cluster. */
export function electLeaders(
  cluster: string,
  election: ElectionType,
  partitions: TopicPartitionRef[] | null,
): Promise<ElectionResult[]> {
  return api.post("clusters/{cluster}/elect-leaders", { path: { cluster }, body: { election, partitions } });
}

// ---- partition reassignment (docs/reassignment.md; admins) ----

/**
 * Plan a reassignment and preview it (moves, bytes, time); nothing changes in Kafka. 400 names the
 * bad field in details.field (`topics`, `brokers`, `topic`, `replication_factor`, `plan`,
 * `throttle_bytes_per_s`); 404 topic_not_found (the field only as the message's prefix); 409
 * reassignment_in_progress for a partition Kafka moves already.
 */
export function planReassignment(cluster: string, body: PlanRequest): Promise<Plan> {
  return api.post("clusters/{cluster}/reassignments/plan", { path: { cluster }, body });
}

/** The console's reassignments of the cluster (newest first, up to 200) and every partition Kafka moves now. */
export function listReassignments(cluster: string, signal?: AbortSignal): Promise<ReassignmentList> {
  return api.get("clusters/{cluster}/reassignments", { path: { cluster }, signal });
}

/** 201 with the reassignment, running; 400 as the plan's; 409 reassignment_in_progress while anything moves. */
export function executeReassignment(cluster: string, body: ExecuteReassignmentRequest): Promise<Reassignment> {
  return api.post("clusters/{cluster}/reassignments", { path: { cluster }, body });
}

/** One reassignment's progress (settled first: completed once nothing of it moves). */
export function getReassignment(cluster: string, id: number, signal?: AbortSignal): Promise<Reassignment> {
  return api.get("clusters/{cluster}/reassignments/{reassignment_id}", { path: { cluster, reassignment_id: id }, signal });
}

/** A new throttle (1 KiB/s … 10 GiB/s, 400 otherwise) on every broker of a running move; 409 not_running. */
export function patchReassignmentThrottle(cluster: string, id: number, throttle: number): Promise<Reassignment> {
  return api.patch("clusters/{cluster}/reassignments/{reassignment_id}", {
    path: { cluster, reassignment_id: id },
    body: { throttle_bytes_per_s: throttle },
  });
}

/** Cancel: the partitions still moving keep their old replicas, the throttles are removed; 409 not_running. */
export function cancelReassignment(cluster: string, id: number): Promise<Reassignment> {
  return api.post("clusters/{cluster}/reassignments/{reassignment_id}/cancel", { path: { cluster, reassignment_id: id } });
}

// ---- ACLs (docs/governance.md; list: viewer, changes: admin) ----

/**
 * The bindings the filter selects, as `kafka-acls.sh --list` (absent fields: any; pattern_type
 * literal with a resource_name, any without).
 */
export function listAcls(cluster: string, query: AclListQuery = {}, signal?: AbortSignal): Promise<Acl[]> {
  return api.get("clusters/{cluster}/acls", { path: { cluster }, query, signal }) as Promise<Acl[]>;
}

/**
 * Bindings, or the producer and/or consumer sets (`--producer`, `--consumer`): with dry_run true
 * what would be created and what exists already; false creates them. 400 names the bad field in
 * details.field (`bindings[0].operation`, `producer.topics`, `consumer.groups`, …).
 */
export function createAcls(cluster: string, body: AclCreateRequest): Promise<AclCreated> {
  return api.post("clusters/{cluster}/acls", { path: { cluster }, body }) as Promise<AclCreated>;
}

/** The bindings a filter selects (it names a resource type and name): previewed with dry_run true,
 * deleted with false; the answer lists exactly those. */
export function deleteAcls(cluster: string, body: AclDeleteRequest): Promise<AclDeleted> {
  return api.post("clusters/{cluster}/acls/delete", { path: { cluster }, body }) as Promise<AclDeleted>;
}

// ---- SCRAM users and client quotas (docs/governance.md; admin only) ----

/** Every SCRAM user and its credentials (mechanism, iterations), as kafka-configs.sh --describe. */
export function listScramUsers(cluster: string, signal?: AbortSignal): Promise<ScramUser[]> {
  return api.get("clusters/{cluster}/scram-users", { path: { cluster }, signal });
}

/** Create the user's credential of a mechanism, or rotate its password: the user as Kafka then
 * lists it (the password is never answered). 400 names the field (`password`, `iterations`, …). */
export function upsertScramUser(cluster: string, user: string, body: ScramUpsert): Promise<ScramUser> {
  return api.put("clusters/{cluster}/scram-users/{user}", { path: { cluster, user }, body });
}

/** Delete the user's credential of one mechanism; 404 when it has none. The server answers the user
 * as Kafka then lists it, which the schema does not describe (it says 204): the page lists again. */
export function deleteScramCredential(cluster: string, user: string, mechanism: ScramMechanism): Promise<unknown> {
  return api.delete("clusters/{cluster}/scram-users/{user}", { path: { cluster, user }, query: { mechanism } });
}

/** The entities with quotas and their values: of exactly these entity types (["users", "clients"]:
 * the pairs), or every entity without. */
export function listQuotas(cluster: string, entityTypes: readonly QuotaEntityType[] = [], signal?: AbortSignal): Promise<Quota[]> {
  const query = entityTypes.length > 0 ? { entity_type: [...entityTypes] } : {};
  return api.get("clusters/{cluster}/quotas", { path: { cluster }, query, signal });
}

/** Set and remove one entity's values: its values before and after. 400 names the field
 * (`set.producer_byte_rate`, `delete[0]`, `entity.user`, …). */
export function alterQuotas(cluster: string, body: QuotaChange): Promise<QuotaChanged> {
  return api.patch("clusters/{cluster}/quotas", { path: { cluster }, body });
}

// ---- consumer groups and offset resets ----

/** The list from the lag sampler's latest pass while it is recent; `fresh`: read Kafka now. */
export function listGroups(cluster: string, signal?: AbortSignal, fresh = false): Promise<GroupSummary[]> {
  const query = fresh ? { fresh: true } : {};
  return api.get("clusters/{cluster}/groups", { path: { cluster }, query, signal });
}

export function getGroup(cluster: string, group: string, signal?: AbortSignal): Promise<GroupDetail> {
  return api.get("clusters/{cluster}/groups/{group}", { path: { cluster, group }, signal });
}

/**
 * The group's lag over the last hour (every sample) or day (one point a minute), oldest first, one
 * point per topic and sample; only `topic`'s when given. 503 lag_store_unavailable without Redis.
 */
export function getLagHistory(
  cluster: string,
  group: string,
  query: { window: LagWindow; topic?: string | null },
  signal?: AbortSignal,
): Promise<LagHistory> {
  return api.get("clusters/{cluster}/groups/{group}/lag-history", {
    path: { cluster, group },
    signal,
    query: { window: query.window, topic: query.topic || undefined },
  });
}

/** 204; 409 group_active while the group has members. */
export function deleteGroup(cluster: string, group: string): Promise<void> {
  return api.delete("clusters/{cluster}/groups/{group}", { path: { cluster, group } });
}

/**
 * Plan (dry_run true) or execute a reset. 400 names the bad field in details.field;
 * 409 group_active (members) or reset_in_progress when executing.
 */
export function createOffsetReset(cluster: string, group: string, body: ResetRequest): Promise<OffsetReset> {
  return api.post("clusters/{cluster}/groups/{group}/offset-resets", {
    path: { cluster, group },
    body,
  }) as Promise<OffsetReset>;
}

/** The group's resets, newest first. */
export function listOffsetResets(cluster: string, group: string, signal?: AbortSignal): Promise<OffsetReset[]> {
  return api.get("clusters/{cluster}/groups/{group}/offset-resets", {
    path: { cluster, group },
    signal,
  }) as Promise<OffsetReset[]>;
}

export function getOffsetReset(id: number, signal?: AbortSignal): Promise<OffsetReset> {
  return api.get("offset-resets/{reset_id}", { path: { reset_id: id }, signal }) as Promise<OffsetReset>;
}

/**
 * Execute exactly the plan of dry-run preview `id`: 200 with the reset, now executed, with a
 * result per partition. Refused with 409 (nothing changed): group_active (details.state and
 * member_count), plan_stale (details.changes: PlanChange[], what moved since the preview),
 * already_executed.
 */
export function executeOffsetReset(id: number, reason: string): Promise<OffsetReset> {
  const body: ReasonRequest = { reason };
  return api.post("offset-resets/{reset_id}/execute", { path: { reset_id: id }, body }) as Promise<OffsetReset>;
}

/** A new executed reset restoring the offsets from before `id`; 409 if the group is active or `id` was a dry run. */
export function undoOffsetReset(id: number, reason: string): Promise<OffsetReset> {
  const body: ReasonRequest = { reason };
  return api.post("offset-resets/{reset_id}/undo", { path: { reset_id: id }, body }) as Promise<OffsetReset>;
}

/** Download URL of the group's committed offsets as topic,partition,offset lines. */
export function groupOffsetsCsvUrl(cluster: string, group: string): string {
  return pathUrl("clusters/{cluster}/groups/{group}/offsets.csv", { path: { cluster, group } });
}

// ---- Spark jobs ----

export function listSparkJobTypes(signal?: AbortSignal): Promise<SparkJobType[]> {
  return api.get("spark/job-types", { signal }) as Promise<SparkJobType[]>;
}

/** 201 with the job, queued. 400 names the bad field in details.field (`job_type`, `cluster`,
 * `params.<name>`); 403 below operator. */
export function submitSparkJob(body: SparkJobSubmit): Promise<SparkJob> {
  return api.post("spark/jobs", { body }) as Promise<SparkJob>;
}

/** Jobs, newest first (`limit` 1..1000, default 100). */
export function listSparkJobs(query: SparkJobListQuery = {}, signal?: AbortSignal): Promise<SparkJob[]> {
  return api.get("spark/jobs", {
    signal,
    query: { state: query.state || undefined, job_type: query.job_type || undefined, limit: query.limit },
  }) as Promise<SparkJob[]>;
}

export function getSparkJob(id: number, signal?: AbortSignal): Promise<SparkJob> {
  return api.get("spark/jobs/{job_id}", { path: { job_id: id }, signal }) as Promise<SparkJob>;
}

/** 200 with the job cancelled (it was queued), 202 with `cancel_requested` (its worker stops it
 * within seconds); 409 job_finished when it had already ended. */
export function cancelSparkJob(id: number): Promise<SparkJob> {
  return api.post("spark/jobs/{job_id}/cancel", { path: { job_id: id } }) as Promise<SparkJob>;
}

/** The whole driver log (text/plain), to open in a new tab; at `level` "warn", without Spark's
 * TRACE, DEBUG and INFO lines (lib/logLines.ts). */
export function sparkJobLogUrl(id: number, level: LogFilter = "all"): string {
  return pathUrl("spark/jobs/{job_id}/log", { path: { job_id: id }, query: level === "all" ? undefined : { level } });
}

/** A succeeded topic-export's records as one gzipped JSON-lines file (an attachment); 404
 * no_download when it has none (`details.reason`). */
export function sparkJobDownloadUrl(id: number): string {
  return pathUrl("spark/jobs/{job_id}/download", { path: { job_id: id } });
}

// ---- Spark job schedules ----

/** Every job schedule. */
export function listSchedules(signal?: AbortSignal): Promise<Schedule[]> {
  return api.get("spark/schedules", { signal }) as Promise<Schedule[]>;
}

/** One schedule with its last 20 runs, newest first; 404 when it is gone. */
export function getSchedule(id: number, signal?: AbortSignal): Promise<ScheduleDetail> {
  return api.get("spark/schedules/{schedule_id}", { path: { schedule_id: id }, signal }) as Promise<ScheduleDetail>;
}

/** 201 with the schedule (no runs yet). 400 names the bad field in details.field (`job_type`,
 * `cluster`, `params.<name>`, `cron`, `every_minutes`, `timezone`); 403 below operator. */
export function createSchedule(body: ScheduleInput): Promise<ScheduleDetail> {
  return api.post("spark/schedules", { body }) as Promise<ScheduleDetail>;
}

/** Changes only the fields given (disabling clears `next_run_at`); 400 as for create; operator. */
export function updateSchedule(id: number, body: SchedulePatch): Promise<ScheduleDetail> {
  return api.patch("spark/schedules/{schedule_id}", { path: { schedule_id: id }, body }) as Promise<ScheduleDetail>;
}

/** 204; the jobs it started stay; operator. */
export function deleteSchedule(id: number): Promise<void> {
  return api.delete("spark/schedules/{schedule_id}", { path: { schedule_id: id } });
}

// ---- console users and API tokens (admins; docs/governance.md) ----

/** Every console user, by name. */
export function listUsers(signal?: AbortSignal): Promise<ConsoleUser[]> {
  return api.get("users", { signal }) as Promise<ConsoleUser[]>;
}

/** One console user; 404 user_not_found. */
export function getUser(id: number, signal?: AbortSignal): Promise<ConsoleUser> {
  return api.get("users/{user_id}", { path: { user_id: id }, signal }) as Promise<ConsoleUser>;
}

/** 201 with the user. 400 names the field (`username`, `password`: Django's password validators,
 * `role`, `cluster_roles.<cluster>`); 409 user_exists. */
export function createUser(body: ConsoleUserCreate): Promise<ConsoleUser> {
  return api.post("users", { body }) as Promise<ConsoleUser>;
}

/** Enable or disable, change the roles: the user after it. 400 `is_active` (disabling yourself),
 * `cluster_roles.<cluster>`; 409 last_admin when no active admin of every cluster would be left. */
export function updateUser(id: number, body: ConsoleUserChange): Promise<ConsoleUser> {
  return api.patch("users/{user_id}", { path: { user_id: id }, body }) as Promise<ConsoleUser>;
}

/** A user's API tokens (never their keys). */
export function listUserTokens(id: number, signal?: AbortSignal): Promise<ApiToken[]> {
  return api.get("users/{user_id}/tokens", { path: { user_id: id }, signal });
}

/** 201 with the token and its key, which no other answer ever holds: show it, never cache it.
 * 400 `name` (empty, or one the user has already), `expires_in_days` (1..3650). */
export function createUserToken(id: number, body: ApiTokenCreate): Promise<ApiTokenCreated> {
  return api.post("users/{user_id}/tokens", { path: { user_id: id }, body });
}

/** 204: the token stops working at once; 404 token_not_found. */
export function revokeUserToken(id: number, tokenId: number): Promise<void> {
  return api.delete("users/{user_id}/tokens/{token_id}", { path: { user_id: id, token_id: tokenId } });
}

// ---- the audit log (operators) ----

/** Entries newest first (`limit` 1..1000, default 100); the next page with `before_id` = the last id
 * seen. 400 names a bad filter (`since`, `until`, `outcome`). */
export function listAudit(query: AuditListQuery = {}, signal?: AbortSignal): Promise<AuditEntry[]> {
  return api.get("audit", { query, signal });
}

/** The download URL of the entries `query` selects, as CSV (newest first, at most 100,000 rows). */
export function auditExportUrl(query: AuditFilterQuery = {}): string {
  return pathUrl("audit/export", { query });
}

// ---- two-person approval on protected clusters (docs/governance.md) ----

/** The requests on the clusters the user may read, newest first (at most 500); `state` narrows them. */
export function listApprovals(state: ApprovalState | null = null, signal?: AbortSignal): Promise<Approval[]> {
  return api.get("approvals", { query: state ? { state } : {}, signal });
}

/** One request; 404 approval_not_found. */
export function getApproval(id: number, signal?: AbortSignal): Promise<Approval> {
  return api.get("approvals/{approval_id}", { path: { approval_id: id }, signal });
}

/** Run the request's stored plan now, as this user: the request `executed` with the change's
 * `result`. 403 for its requester or without the change's role on its cluster; 409
 * approval_not_pending, approval_expired, or the change's own refusal (plan_stale, acl_moved,
 * config_moved, partitions_moved: the request is then `failed`). */
export function approveApproval(id: number, reason: string): Promise<Approval> {
  return api.post("approvals/{approval_id}/approve", { path: { approval_id: id }, body: { reason } });
}

/** The request `rejected`: it never runs. 403 as for approve. */
export function rejectApproval(id: number, reason: string): Promise<Approval> {
  return api.post("approvals/{approval_id}/reject", { path: { approval_id: id }, body: { reason } });
}

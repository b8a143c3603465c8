// One function per REST endpoint the SPA uses (the contract: docs/api.md and the OpenAPI schema,
// `/api/v1/schema/`). Request bodies are checked against the schema's (`satisfies`).
import { api, apiUrl } from "./client";
import type { components } from "./schema.gen";
import type {
  Broker,
  ClusterDetail,
  ClusterSummary,
  ConfigPatch,
  CreateTopicRequest,
  CurrentUser,
  ElectionResult,
  ElectionType,
  GroupDetail,
  GroupSummary,
  LagHistory,
  LagWindow,
  OffsetReset,
  ReasonRequest,
  ResetRequest,
  SparkJob,
  SparkJobListQuery,
  SparkJobSubmit,
  SparkJobType,
  TopicDetail,
  TopicHealthFilter,
  TopicPartitionRef,
  TopicSummary,
} from "./types";

type Schemas = components["schemas"];

const seg = encodeURIComponent;

export function getMe(signal?: AbortSignal): Promise<CurrentUser> {
  return api.get<CurrentUser>("me", { signal });
}

export function listClusters(signal?: AbortSignal): Promise<ClusterSummary[]> {
  return api.get<ClusterSummary[]>("clusters", { signal });
}

export function getCluster(cluster: string, signal?: AbortSignal): Promise<ClusterDetail> {
  return api.get<ClusterDetail>(`clusters/${seg(cluster)}`, { signal });
}

export function listBrokers(cluster: string, signal?: AbortSignal): Promise<Broker[]> {
  return api.get<Broker[]>(`clusters/${seg(cluster)}/brokers`, { signal });
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
  return api.get<TopicSummary[]>(`clusters/${seg(cluster)}/topics`, {
    signal,
    query: {
      include_internal: query.includeInternal ? "true" : "false",
      filter: query.filter || undefined,
      search: query.search || undefined,
    },
  });
}

export function getTopic(cluster: string, topic: string, signal?: AbortSignal): Promise<TopicDetail> {
  return api.get<TopicDetail>(`clusters/${seg(cluster)}/topics/${seg(topic)}`, { signal });
}

/** 201 with the new topic; 400 with details.field naming the bad field; 409 when it exists. */
export function createTopic(cluster: string, body: CreateTopicRequest): Promise<TopicDetail> {
  return api.post<TopicDetail>(`clusters/${seg(cluster)}/topics`, body satisfies Schemas["TopicCreate"]);
}

export function deleteTopic(cluster: string, topic: string): Promise<void> {
  return api.delete(`clusters/${seg(cluster)}/topics/${seg(topic)}`);
}

export function patchTopicConfigs(cluster: string, topic: string, patch: ConfigPatch): Promise<TopicDetail> {
  return api.patch<TopicDetail>(
    `clusters/${seg(cluster)}/topics/${seg(topic)}/configs`,
    patch satisfies Schemas["PatchedConfigPatch"],
  );
}

/** Raise the partition count to `count` (Kafka cannot lower it). */
export function addPartitions(cluster: string, topic: string, count: number): Promise<TopicDetail> {
  return api.post<TopicDetail>(`clusters/${seg(cluster)}/topics/${seg(topic)}/partitions`, {
    count,
  } satisfies Schemas["PartitionCount"]);
}

/** `partitions` null elects on every partition of the cluster. */
export function electLeaders(
  cluster: string,
  election: ElectionType,
  partitions: TopicPartitionRef[] | null,
): Promise<ElectionResult[]> {
  return api.post<ElectionResult[]>(`clusters/${seg(cluster)}/elect-leaders`, {
    election,
    partitions,
  } satisfies Schemas["ElectLeaders"]);
}

// ---- consumer groups and offset resets ----

export function listGroups(cluster: string, signal?: AbortSignal): Promise<GroupSummary[]> {
  return api.get<GroupSummary[]>(`clusters/${seg(cluster)}/groups`, { signal });
}

export function getGroup(cluster: string, group: string, signal?: AbortSignal): Promise<GroupDetail> {
  return api.get<GroupDetail>(`clusters/${seg(cluster)}/groups/${seg(group)}`, { signal });
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
  return api.get<LagHistory>(`clusters/${seg(cluster)}/groups/${seg(group)}/lag-history`, {
    signal,
    query: { window: query.window, topic: query.topic || undefined },
  });
}

/** 204; 409 group_active while the group has members. */
export function deleteGroup(cluster: string, group: string): Promise<void> {
  return api.delete(`clusters/${seg(cluster)}/groups/${seg(group)}`);
}

/**
 * Plan (dry_run true) or execute a reset. 400 names the bad field in details.field;
 * 409 group_active (members) or reset_in_progress when executing.
 */
export function createOffsetReset(cluster: string, group: string, body: ResetRequest): Promise<OffsetReset> {
  return api.post<OffsetReset>(
    `clusters/${seg(cluster)}/groups/${seg(group)}/offset-resets`,
    body satisfies Schemas["ResetRequest"],
  );
}

/** The group's resets, newest first. */
export function listOffsetResets(cluster: string, group: string, signal?: AbortSignal): Promise<OffsetReset[]> {
  return api.get<OffsetReset[]>(`clusters/${seg(cluster)}/groups/${seg(group)}/offset-resets`, { signal });
}

export function getOffsetReset(id: number, signal?: AbortSignal): Promise<OffsetReset> {
  return api.get<OffsetReset>(`offset-resets/${id}`, { signal });
}

/**
 * Execute exactly the plan of dry-run preview `id`: 200 with the reset, now executed, with a
 * result per partition. Refused with 409 (nothing changed): group_active (details.state and
 * member_count), plan_stale (details.changes: PlanChange[], what moved since the preview),
 * already_executed.
 */
export function executeOffsetReset(id: number, reason: string): Promise<OffsetReset> {
  return api.post<OffsetReset>(`offset-resets/${id}/execute`, { reason } satisfies ReasonRequest);
}

/** A new executed reset restoring the offsets from before `id`; 409 if the group is active or `id` was a dry run. */
export function undoOffsetReset(id: number, reason: string): Promise<OffsetReset> {
  return api.post<OffsetReset>(`offset-resets/${id}/undo`, { reason } satisfies ReasonRequest);
}

/** Download URL of the group's committed offsets as topic,partition,offset lines. */
export function groupOffsetsCsvUrl(cluster: string, group: string): string {
  return apiUrl(`clusters/${seg(cluster)}/groups/${seg(group)}/offsets.csv`);
}

// ---- Spark jobs ----

export function listSparkJobTypes(signal?: AbortSignal): Promise<SparkJobType[]> {
  return api.get<SparkJobType[]>("spark/job-types", { signal });
}

/** 201 with the job, queued. 400 names the bad field in details.field (`job_type`, `cluster`,
 * `params.<name>`); 403 below operator. */
export function submitSparkJob(body: SparkJobSubmit): Promise<SparkJob> {
  return api.post<SparkJob>("spark/jobs", body satisfies Schemas["Submit"]);
}

/** Jobs, newest first (`limit` 1..1000, default 100). */
export function listSparkJobs(query: SparkJobListQuery = {}, signal?: AbortSignal): Promise<SparkJob[]> {
  return api.get<SparkJob[]>("spark/jobs", {
    signal,
    query: { state: query.state || undefined, job_type: query.job_type || undefined, limit: query.limit },
  });
}

export function getSparkJob(id: number, signal?: AbortSignal): Promise<SparkJob> {
  return api.get<SparkJob>(`spark/jobs/${id}`, { signal });
}

/** 200 with the job cancelled (it was queued), 202 with `cancel_requested` (its worker stops it
 * within seconds); 409 job_finished when it had already ended. */
export function cancelSparkJob(id: number): Promise<SparkJob> {
  return api.post<SparkJob>(`spark/jobs/${id}/cancel`);
}

/** The whole driver log (text/plain), to open in a new tab. */
export function sparkJobLogUrl(id: number): string {
  return apiUrl(`spark/jobs/${id}/log`);
}

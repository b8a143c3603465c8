// One function per REST endpoint the SPA uses (paths from shared/API.md).
import { api } from "./client";
import type {
  Broker,
  ClusterDetail,
  ClusterSummary,
  ConfigPatch,
  CreateTopicRequest,
  CurrentUser,
  ElectionResult,
  ElectionType,
  TopicDetail,
  TopicHealthFilter,
  TopicPartitionRef,
  TopicSummary,
} from "./types";

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
  return api.post<TopicDetail>(`clusters/${seg(cluster)}/topics`, body);
}

export function deleteTopic(cluster: string, topic: string): Promise<void> {
  return api.delete(`clusters/${seg(cluster)}/topics/${seg(topic)}`);
}

export function patchTopicConfigs(cluster: string, topic: string, patch: ConfigPatch): Promise<TopicDetail> {
  return api.patch<TopicDetail>(`clusters/${seg(cluster)}/topics/${seg(topic)}/configs`, patch);
}

/** Raise the partition count to `count` (Kafka cannot lower it). */
export function addPartitions(cluster: string, topic: string, count: number): Promise<TopicDetail> {
  return api.post<TopicDetail>(`clusters/${seg(cluster)}/topics/${seg(topic)}/partitions`, { count });
}

/** `partitions` null elects on every partition of the cluster. */
export function electLeaders(
  cluster: string,
  election: ElectionType,
  partitions: TopicPartitionRef[] | null,
): Promise<ElectionResult[]> {
  return api.post<ElectionResult[]>(`clusters/${seg(cluster)}/elect-leaders`, { election, partitions });
}

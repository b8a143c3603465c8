// One function per REST endpoint the SPA uses (paths from shared/API.md).
import { api } from "./client";
import type { Broker, ClusterDetail, ClusterSummary, CurrentUser } from "./types";

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

import { useMemo } from "react";
import { clustersQuery, sparkJobTypesQuery, topicListQuery } from "../api/queries";
import type { ClusterSummary } from "../api/types";
import { usePolledQuery } from "./usePolledQuery";

/** The catalog changes only with a deploy; clusters and topics now and then. */
export const JOB_TYPES_POLL_MS = 300_000;
const CLUSTERS_POLL_MS = 60_000;
const TOPICS_POLL_MS = 30_000;

/** The cluster a new job goes to: the one asked for (URL), else the first reachable one. */
export function defaultCluster(clusters: ClusterSummary[] | undefined, asked: string | null): string {
  if (asked) return asked;
  return clusters?.find((c) => c.reachable)?.name ?? clusters?.[0]?.name ?? "";
}

/**
 * What a Spark job form needs: the job types, the clusters, the cluster the job goes to
 * (`askedCluster` or the default) and that cluster's topic names, sorted.
 */
export function useSparkFormData(askedCluster: string | null) {
  const types = usePolledQuery(sparkJobTypesQuery(), JOB_TYPES_POLL_MS);
  const clusters = usePolledQuery(clustersQuery(), CLUSTERS_POLL_MS);
  const cluster = defaultCluster(clusters.data, askedCluster);
  // No cluster yet (the clusters are loading, or none is registered): no topics to offer.
  const topics = usePolledQuery({ ...topicListQuery(cluster), enabled: cluster !== "" }, TOPICS_POLL_MS);
  const topicNames = useMemo(() => (topics.data ?? []).map((t) => t.name).sort(), [topics.data]);
  return { types, clusters, cluster, topicNames };
}

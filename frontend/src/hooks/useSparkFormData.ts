import { useMemo } from "react";
import { clustersQuery, sparkJobTypesQuery, topicListQuery } from "../api/queries";
import type { ClusterSummary } from "../api/types";
import { hasRole, useCurrentUser } from "../components/CurrentUser";
import type { SparkJobFormProps } from "../components/sparkJobs/SparkJobForm";
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

/** The props of a Spark job form that do not depend on its job type. */
export type SparkFormDataProps = Pick<SparkJobFormProps, "clusters" | "cluster" | "onClusterChange" | "topics" | "canSubmit">;

/**
 * What a Spark job form needs: the job types, the clusters, the cluster the job goes to
 * (`askedCluster` or the default) and, as the form's props, that cluster's topic names, sorted,
 * and whether the user may submit (operators and admins).
 */
export function useSparkFormData(askedCluster: string | null, onClusterChange: (cluster: string) => void) {
  const { user } = useCurrentUser();
  const types = usePolledQuery(sparkJobTypesQuery(), JOB_TYPES_POLL_MS);
  const clusters = usePolledQuery(clustersQuery(), CLUSTERS_POLL_MS);
  const cluster = defaultCluster(clusters.data, askedCluster);
  // No cluster yet (the clusters are loading, or none is registered): no topics to offer.
  const topics = usePolledQuery({ ...topicListQuery(cluster), enabled: cluster !== "" }, TOPICS_POLL_MS);
  const topicNames = useMemo(() => (topics.data ?? []).map((t) => t.name).sort(), [topics.data]);
  const formProps: SparkFormDataProps = {
    clusters: clusters.data,
    cluster,
    onClusterChange,
    topics: topicNames,
    canSubmit: hasRole(user, "operator"),
  };
  // The cluster's topic names once they are known (undefined while they load).
  const topicsKnown = topics.data === undefined ? undefined : topicNames;
  return { types, clusters, cluster, formProps, topicsKnown };
}

// The reads of the SPA as TanStack Query options: each binds a key (queryKeys.ts) to the endpoint
// call that answers it. The query's AbortSignal goes to fetch, so a page that unmounts or switches
// to another key (another topic, filter, window) aborts the call in flight. How often each is
// polled is the page's business (usePolledQuery's interval).
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { listAlertEvents, listAlertRules, type AlertEventQuery } from "./alerts";
import { isAbortError } from "./client";
import {
  getBroker,
  getBrokerDefaults,
  getCluster,
  getGroup,
  getLagHistory,
  getApproval,
  getMe,
  getOffsetReset,
  getReassignment,
  getSchedule,
  getSparkJob,
  getTopic,
  getUser,
  listAcls,
  listApprovals,
  listAudit,
  listBrokers,
  listClusters,
  listGroups,
  listOffsetResets,
  listQuotas,
  listReassignments,
  listSchedules,
  listScramUsers,
  listSparkJobs,
  listSparkJobTypes,
  listTopics,
  listUsers,
  listUserTokens,
} from "./endpoints";
import {
  getActiveModel,
  getModelDrift,
  getModelPerformance,
  listModels,
  listPredictions,
  listWorklist,
  PIPELINE_JOB_TYPE,
  recentPipelineRuns,
  type WorklistTopics,
} from "./maintenance";
import { queryKeys } from "./queryKeys";
import type {
  AclListQuery,
  ApprovalState,
  AuditFilterQuery,
  Broker,
  ClusterDetail,
  LagWindow,
  QuotaEntityType,
  SparkJobListQuery,
  TopicHealthFilter,
  TopicSummary,
} from "./types";

export const meQuery = () =>
  queryOptions({
    queryKey: queryKeys.me(),
    queryFn: ({ signal }) => getMe(signal),
    // Fetched once per page load (a role change shows after a reload, as before).
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

export const clustersQuery = () =>
  queryOptions({ queryKey: queryKeys.clusters(), queryFn: ({ signal }) => listClusters(signal) });

export const clusterDetailQuery = (cluster: string) =>
  queryOptions({ queryKey: queryKeys.clusterDetail(cluster), queryFn: ({ signal }) => getCluster(cluster, signal) });

/** The overview tab's data: one answer from three calls. */
export interface ClusterOverview {
  detail: ClusterDetail;
  /** Sorted by id. */
  brokers: Broker[];
  /** Every topic (internal too) for the health cards; null when that call failed. */
  topics: TopicSummary[] | null;
  topicsError: Error | null;
}

export const clusterOverviewQuery = (cluster: string) =>
  queryOptions({
    queryKey: queryKeys.clusterOverview(cluster),
    queryFn: async ({ signal }): Promise<ClusterOverview> => {
      // The topic health is secondary: its failure must not hide the brokers.
      const topicsCall = listTopics(cluster, { includeInternal: true }, signal).then(
        (topics) => ({ topics, topicsError: null }),
        (error: unknown) => {
          if (isAbortError(error)) throw error;
          return { topics: null, topicsError: error instanceof Error ? error : new Error(String(error)) };
        },
      );
      const [detail, brokers, health] = await Promise.all([
        getCluster(cluster, signal),
        listBrokers(cluster, signal),
        topicsCall,
      ]);
      return { detail, brokers: [...brokers].sort((a, b) => a.id - b.id), ...health };
    },
  });

/** One broker's detail (log dirs, replicas, configs, API versions). */
export const brokerQuery = (cluster: string, broker: number) =>
  queryOptions({ queryKey: queryKeys.broker(cluster, broker), queryFn: ({ signal }) => getBroker(cluster, broker, signal) });

/** The cluster-wide dynamic broker configs. */
export const brokerDefaultsQuery = (cluster: string) =>
  queryOptions({ queryKey: queryKeys.brokerDefaults(cluster), queryFn: ({ signal }) => getBrokerDefaults(cluster, signal) });

export const topicListQuery = (
  cluster: string,
  query: { includeInternal?: boolean; filter?: TopicHealthFilter | null } = {},
) =>
  queryOptions({
    queryKey: queryKeys.topicList(cluster, query),
    queryFn: ({ signal }) =>
      listTopics(cluster, { includeInternal: !!query.includeInternal, filter: query.filter ?? null }, signal),
  });

export const topicQuery = (cluster: string, topic: string) =>
  queryOptions({ queryKey: queryKeys.topic(cluster, topic), queryFn: ({ signal }) => getTopic(cluster, topic, signal) });

/** The console's reassignments of a cluster and the partitions Kafka moves now. */
export const reassignmentListQuery = (cluster: string) =>
  queryOptions({ queryKey: queryKeys.reassignmentList(cluster), queryFn: ({ signal }) => listReassignments(cluster, signal) });

/** One reassignment's progress. */
export const reassignmentQuery = (cluster: string, id: number) =>
  queryOptions({ queryKey: queryKeys.reassignment(cluster, id), queryFn: ({ signal }) => getReassignment(cluster, id, signal) });

/** The ACL bindings a filter selects (the server filters, as kafka-acls.sh --list). */
// While a changed filter is asked, the rows of the last one stay (dimmed as stale), not a skeleton.
export const aclListQuery = (cluster: string, query: AclListQuery = {}) =>
  queryOptions({
    queryKey: queryKeys.aclList(cluster, query),
    queryFn: ({ signal }) => listAcls(cluster, query, signal),
    placeholderData: keepPreviousData,
  });

/** The cluster's SCRAM users and their credentials (admins). */
export const scramUserListQuery = (cluster: string) =>
  queryOptions({ queryKey: queryKeys.scramUsers(cluster), queryFn: ({ signal }) => listScramUsers(cluster, signal) });

/** The client quotas of some entity types (the server filters, as kafka-configs.sh --describe
 * --entity-type); none: every entity. The rows of the last filter stay while another is asked. */
export const quotaListQuery = (cluster: string, entityTypes: readonly QuotaEntityType[] = []) =>
  queryOptions({
    queryKey: queryKeys.quotaList(cluster, entityTypes),
    queryFn: ({ signal }) => listQuotas(cluster, entityTypes, signal),
    placeholderData: keepPreviousData,
  });

export const groupListQuery = (cluster: string) =>
  queryOptions({ queryKey: queryKeys.groupList(cluster), queryFn: ({ signal }) => listGroups(cluster, signal) });

export const groupDetailQuery = (cluster: string, group: string) =>
  queryOptions({
    queryKey: queryKeys.groupDetail(cluster, group),
    queryFn: ({ signal }) => getGroup(cluster, group, signal),
  });

export const lagHistoryQuery = (cluster: string, group: string, window: LagWindow, topic: string | null) =>
  queryOptions({
    queryKey: queryKeys.lagHistory(cluster, group, window, topic),
    queryFn: ({ signal }) => getLagHistory(cluster, group, { window, topic }, signal),
  });

export const offsetResetsQuery = (cluster: string, group: string) =>
  queryOptions({
    queryKey: queryKeys.offsetResets(cluster, group),
    queryFn: ({ signal }) => listOffsetResets(cluster, group, signal),
  });

export const sparkJobTypesQuery = () =>
  queryOptions({ queryKey: queryKeys.sparkJobTypes(), queryFn: ({ signal }) => listSparkJobTypes(signal) });

export const sparkJobListQuery = (query: SparkJobListQuery) =>
  queryOptions({ queryKey: queryKeys.sparkJobList(query), queryFn: ({ signal }) => listSparkJobs(query, signal) });

export const sparkJobQuery = (id: number) =>
  queryOptions({ queryKey: queryKeys.sparkJob(id), queryFn: ({ signal }) => getSparkJob(id, signal) });

export const sparkScheduleListQuery = () =>
  queryOptions({ queryKey: queryKeys.sparkScheduleList(), queryFn: ({ signal }) => listSchedules(signal) });

export const sparkScheduleQuery = (id: number) =>
  queryOptions({ queryKey: queryKeys.sparkSchedule(id), queryFn: ({ signal }) => getSchedule(id, signal) });

/** The newest `maintenance-pipeline` job, or null when none was ever submitted. */
export const recentPipelineRunsQuery = (limit: number) =>
  queryOptions({
    queryKey: queryKeys.recentSparkJobs(PIPELINE_JOB_TYPE, limit),
    queryFn: ({ signal }) => recentPipelineRuns(limit, signal),
  });

export const sparkModelsQuery = () =>
  queryOptions({ queryKey: queryKeys.sparkModels(), queryFn: ({ signal }) => listModels(signal) });

export const sparkActiveModelQuery = (cluster: string) =>
  queryOptions({ queryKey: queryKeys.sparkActiveModel(cluster), queryFn: ({ signal }) => getActiveModel(cluster, signal) });

export const sparkModelPerformanceQuery = (modelId: number) =>
  queryOptions({
    queryKey: queryKeys.sparkModelPerformance(modelId),
    queryFn: ({ signal }) => getModelPerformance(modelId, signal),
  });

export const sparkModelDriftQuery = (modelId: number) =>
  queryOptions({
    queryKey: queryKeys.sparkModelDrift(modelId),
    queryFn: ({ signal }) => getModelDrift(modelId, signal),
  });

export const sparkPredictionsQuery = (cluster: string, topic: string, limit: number) =>
  queryOptions({
    queryKey: queryKeys.sparkPredictions(cluster, topic, limit),
    queryFn: ({ signal }) => listPredictions(cluster, topic, limit, signal),
  });

export const maintenanceWorklistQuery = (cluster: string, limit: number, topics: WorklistTopics = {}) =>
  queryOptions({
    queryKey: queryKeys.maintenanceWorklist(cluster, limit, topics),
    queryFn: ({ signal }) => listWorklist(cluster, limit, topics, signal),
  });

export const alertRulesQuery = () =>
  queryOptions({ queryKey: queryKeys.alertRules(), queryFn: ({ signal }) => listAlertRules(signal) });

export const alertEventsQuery = (query: AlertEventQuery = {}) =>
  queryOptions({ queryKey: queryKeys.alertEvents(query), queryFn: ({ signal }) => listAlertEvents(query, signal) });

/** Every console user (admins). */
export const userListQuery = () =>
  queryOptions({ queryKey: queryKeys.userList(), queryFn: ({ signal }) => listUsers(signal) });

/** One console user (admins). */
export const userQuery = (id: number) =>
  queryOptions({ queryKey: queryKeys.userDetail(id), queryFn: ({ signal }) => getUser(id, signal) });

/** A user's API tokens, without their keys (admins). */
export const userTokensQuery = (id: number) =>
  queryOptions({ queryKey: queryKeys.userTokens(id), queryFn: ({ signal }) => listUserTokens(id, signal) });

/** The newest `limit` audit entries the filter selects (operators). Older pages ("Load older",
 * `before_id`) are asked by the page itself (hooks/useAuditLog). */
export const auditNewestQuery = (filter: AuditFilterQuery, limit: number) =>
  queryOptions({
    queryKey: queryKeys.auditNewest(filter, limit),
    queryFn: ({ signal }) => listAudit({ ...filter, limit }, signal),
  });

/** The approval requests of one state (null: all), on the clusters the user may read. */
export const approvalListQuery = (state: ApprovalState | null) =>
  queryOptions({ queryKey: queryKeys.approvalList(state), queryFn: ({ signal }) => listApprovals(state, signal) });

/** One approval request. */
export const approvalQuery = (id: number) =>
  queryOptions({ queryKey: queryKeys.approval(id), queryFn: ({ signal }) => getApproval(id, signal) });

/** One offset reset (an approval's preview: its plan). */
export const offsetResetQuery = (id: number) =>
  queryOptions({ queryKey: queryKeys.offsetReset(id), queryFn: ({ signal }) => getOffsetReset(id, signal) });

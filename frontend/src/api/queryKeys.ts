// Every TanStack Query key of the SPA, in one place. Keys are hierarchical: a shorter key is the
// prefix of everything under it, so `refetchNow(client, queryKeys.topics(cluster))` refreshes every
// topic list and topic of a cluster that a page shows, and `queryKeys.group(cluster, group)` holds
// a group's detail, lag history and reset history.
import type { AlertEventQuery } from "./alerts";
import type { AclListQuery, ApprovalState, AuditFilterQuery, LagWindow, QuotaEntityType, SparkJobListQuery, TopicHealthFilter } from "./types";

export const queryKeys = {
  /** GET me */
  me: () => ["me"] as const,

  /** GET clusters */
  clusters: () => ["clusters"] as const,
  /** Everything about one cluster (prefix). */
  cluster: (cluster: string) => ["cluster", cluster] as const,
  /** GET clusters/{cluster} */
  clusterDetail: (cluster: string) => [...queryKeys.cluster(cluster), "detail"] as const,
  /** The overview tab: the cluster, its brokers and the topic health (three calls, one answer). */
  clusterOverview: (cluster: string) => [...queryKeys.cluster(cluster), "overview"] as const,
  /** Every broker of a cluster (prefix). */
  brokers: (cluster: string) => [...queryKeys.cluster(cluster), "brokers"] as const,
  /** GET clusters/{cluster}/brokers/{broker} */
  broker: (cluster: string, broker: number) => [...queryKeys.brokers(cluster), "broker", broker] as const,
  /** GET clusters/{cluster}/broker-defaults (under the brokers: a config change refreshes both) */
  brokerDefaults: (cluster: string) => [...queryKeys.brokers(cluster), "defaults"] as const,

  /** Every topic list and topic of a cluster (prefix). */
  topics: (cluster: string) => [...queryKeys.cluster(cluster), "topics"] as const,
  /** Every topic list of a cluster (prefix). */
  topicLists: (cluster: string) => [...queryKeys.topics(cluster), "list"] as const,
  /** GET clusters/{cluster}/topics?include_internal=…&filter=… (the search is applied on the client). */
  topicList: (cluster: string, query: { includeInternal?: boolean; filter?: TopicHealthFilter | null } = {}) =>
    [...queryKeys.topicLists(cluster), { includeInternal: !!query.includeInternal, filter: query.filter ?? null }] as const,
  /** GET clusters/{cluster}/topics/{topic} */
  topic: (cluster: string, topic: string) => [...queryKeys.topics(cluster), "topic", topic] as const,

  /** Every reassignment list and reassignment of a cluster (prefix). */
  reassignments: (cluster: string) => [...queryKeys.cluster(cluster), "reassignments"] as const,
  /** GET clusters/{cluster}/reassignments */
  reassignmentList: (cluster: string) => [...queryKeys.reassignments(cluster), "list"] as const,
  /** GET clusters/{cluster}/reassignments/{id} (also what its socket pushes) */
  reassignment: (cluster: string, id: number) => [...queryKeys.reassignments(cluster), "reassignment", id] as const,

  /** Every ACL list of a cluster (prefix: a create or delete refreshes them all). */
  acls: (cluster: string) => [...queryKeys.cluster(cluster), "acls"] as const,
  /** GET clusters/{cluster}/acls?resource_type=…&resource_name=…&pattern_type=…&principal=…&… */
  aclList: (cluster: string, query: AclListQuery = {}) =>
    [
      ...queryKeys.acls(cluster),
      "list",
      {
        resource_type: query.resource_type ?? null,
        resource_name: query.resource_name ?? null,
        pattern_type: query.pattern_type ?? null,
        principal: query.principal ?? null,
        host: query.host ?? null,
        operation: query.operation ?? null,
        permission: query.permission ?? null,
      },
    ] as const,

  /** GET clusters/{cluster}/scram-users */
  scramUsers: (cluster: string) => [...queryKeys.cluster(cluster), "scram-users"] as const,

  /** Every quota list of a cluster (prefix: a change refreshes them all). */
  quotas: (cluster: string) => [...queryKeys.cluster(cluster), "quotas"] as const,
  /** GET clusters/{cluster}/quotas?entity_type=… (none: every entity) */
  quotaList: (cluster: string, entityTypes: readonly QuotaEntityType[] = []) =>
    [...queryKeys.quotas(cluster), "list", { entity_type: entityTypes.length > 0 ? entityTypes.join(",") : null }] as const,

  /** Every group list and group of a cluster (prefix). */
  groups: (cluster: string) => [...queryKeys.cluster(cluster), "groups"] as const,
  /** GET clusters/{cluster}/groups */
  groupList: (cluster: string) => [...queryKeys.groups(cluster), "list"] as const,
  /** Everything about one group (prefix). */
  group: (cluster: string, group: string) => [...queryKeys.groups(cluster), "group", group] as const,
  /** GET clusters/{cluster}/groups/{group} */
  groupDetail: (cluster: string, group: string) => [...queryKeys.group(cluster, group), "detail"] as const,
  /** GET clusters/{cluster}/groups/{group}/lag-history?window=…&topic=… */
  lagHistory: (cluster: string, group: string, window: LagWindow, topic: string | null) =>
    [...queryKeys.group(cluster, group), "lag-history", { window, topic }] as const,
  /** GET clusters/{cluster}/groups/{group}/offset-resets */
  offsetResets: (cluster: string, group: string) => [...queryKeys.group(cluster, group), "offset-resets"] as const,

  /** GET spark/job-types */
  sparkJobTypes: () => ["spark", "job-types"] as const,
  /** Every job list and job (prefix). */
  sparkJobs: () => ["spark", "jobs"] as const,
  /** GET spark/jobs?state=…&job_type=…&limit=… */
  sparkJobList: (query: SparkJobListQuery) =>
    [
      ...queryKeys.sparkJobs(),
      "list",
      { state: query.state ?? null, job_type: query.job_type ?? null, limit: query.limit ?? null },
    ] as const,
  /** The newest jobs of a type (GET spark/jobs?job_type=…&limit=…). */
  recentSparkJobs: (jobType: string, limit: number) => [...queryKeys.sparkJobs(), "recent", jobType, limit] as const,
  /** GET spark/jobs/{job_id} (also what the job socket pushes) */
  sparkJob: (id: number) => [...queryKeys.sparkJobs(), "job", id] as const,
  /** Every schedule list and schedule (prefix: a write refreshes them all). */
  sparkSchedules: () => ["spark", "schedules"] as const,
  /** GET spark/schedules */
  sparkScheduleList: () => [...queryKeys.sparkSchedules(), "list"] as const,
  /** GET spark/schedules/{schedule_id} (with its last runs) */
  sparkSchedule: (id: number) => [...queryKeys.sparkSchedules(), "schedule", id] as const,
  /** GET spark/models */
  sparkModels: () => ["spark", "models"] as const,
  /** GET spark/models/active?cluster=… (under the models: fetching them again asks it again too) */
  sparkActiveModel: (cluster: string) => [...queryKeys.sparkModels(), "active", cluster] as const,
  /** GET spark/models/{id}/performance (under the models: a run that succeeds asks it again too) */
  sparkModelPerformance: (modelId: number) => [...queryKeys.sparkModels(), "performance", modelId] as const,
  /** GET spark/models/{id}/drift (under the models, as the performance: a run that succeeds asks it again too) */
  sparkModelDrift: (modelId: number) => [...queryKeys.sparkModels(), "drift", modelId] as const,
  /** GET spark/predictions?cluster=…&topic=…&limit=… */
  sparkPredictions: (cluster: string, topic: string, limit: number) => ["spark", "predictions", cluster, topic, limit] as const,
  /** Every worklist of a cluster, whatever its limit (prefix: a mark refreshes them all). */
  maintenanceWorklists: (cluster: string) => ["maintenance", "worklist", cluster] as const,
  /** GET maintenance/worklist?cluster=…&limit=…(&topic=…&alarms_topic=…&work_orders_topic=…) */
  maintenanceWorklist: (cluster: string, limit: number, topics: object = {}) =>
    [...queryKeys.maintenanceWorklists(cluster), limit, topics] as const,

  /** Every alert rule and alert list (prefix). */
  alerts: () => ["alerts"] as const,
  /** GET alerts/rules */
  alertRules: () => [...queryKeys.alerts(), "rules"] as const,
  /** GET alerts/events?cluster=…&group=…&rule=…&limit=… */
  alertEvents: (query: AlertEventQuery = {}) =>
    [
      ...queryKeys.alerts(),
      "events",
      { cluster: query.cluster ?? null, group: query.group ?? null, rule: query.rule ?? null, limit: query.limit ?? null },
    ] as const,

  /** Every console user and token list (prefix: a write refreshes them all). */
  users: () => ["users"] as const,
  /** GET users */
  userList: () => [...queryKeys.users(), "list"] as const,
  /** Everything about one user (prefix). */
  user: (id: number) => [...queryKeys.users(), "user", id] as const,
  /** GET users/{id} */
  userDetail: (id: number) => [...queryKeys.user(id), "detail"] as const,
  /** GET users/{id}/tokens (never a key: the create answer's key stays in its dialog) */
  userTokens: (id: number) => [...queryKeys.user(id), "tokens"] as const,

  /** Every audit page (prefix). */
  audit: () => ["audit"] as const,
  /** GET audit?actor=…&action=…&cluster=…&target=…&outcome=…&since=…&until=…&limit=… (the newest
   * page; older pages are the page's own state) */
  auditNewest: (filter: AuditFilterQuery, limit: number) =>
    [
      ...queryKeys.audit(),
      "newest",
      {
        actor: filter.actor ?? null,
        action: filter.action ?? null,
        cluster: filter.cluster ?? null,
        target: filter.target ?? null,
        outcome: filter.outcome ?? null,
        since: filter.since ?? null,
        until: filter.until ?? null,
        limit,
      },
    ] as const,

  /** Every approval list and request (prefix: a push or a decision updates them all). */
  approvals: () => ["approvals"] as const,
  /** Every approval list (prefix). */
  approvalLists: () => [...queryKeys.approvals(), "list"] as const,
  /** GET approvals?state=… (null: every state); the top bar's count is the pending one. */
  approvalList: (state: ApprovalState | null) => [...queryKeys.approvalLists(), { state }] as const,
  /** GET approvals/{id} */
  approval: (id: number) => [...queryKeys.approvals(), "request", id] as const,
  /** GET offset-resets/{id} (an approval's reset preview; not under a group: the request names the reset only) */
  offsetReset: (id: number) => ["offset-reset", id] as const,
};

// Top-bar navigation. Add an entry here when its page exists (and its route in
// App.tsx); entries must lead somewhere real.
import { API_BASE } from "./api/client";
import type { Role } from "./api/types";

export interface NavItem {
  to: string;
  label: string;
  /** Highlight only on an exact match (for "/"). */
  end?: boolean;
  /** Other path prefixes under which this entry shows as current. */
  activePrefixes?: string[];
  /** Hide the entry from users below this role. */
  role?: Role;
  /** A count beside the label: "approvals", the pending approval requests. */
  count?: "approvals";
}

/** The maintenance crews' worklist. */
export const WORKLIST_PATH = "/maintenance/worklist";

/** The worklist of `cluster` (the page's default cluster without one). */
export function worklistPath(cluster?: string): string {
  return cluster ? `${WORKLIST_PATH}?cluster=${encodeURIComponent(cluster)}` : WORKLIST_PATH;
}

/** The console users (admins); a user's page is userPath(id). */
export const USERS_PATH = "/users";

/** The app path of a console user's page (its roles and API tokens). */
export function userPath(id: number): string {
  return `${USERS_PATH}/${id}`;
}

/** The audit log (operators). */
export const AUDIT_PATH = "/audit";

/** What the audit page's filter holds (its URL query keys are the API's names; `since` and
 * `until` ISO-8601 with an offset). */
export interface AuditPathFilter {
  actor?: string;
  action?: string;
  cluster?: string;
  target?: string;
  outcome?: string;
  since?: string;
  until?: string;
}

/** The audit page with a filter: auditPath({action: "user.", target: "bob"}) is
 * "/audit?action=user.&target=bob" (empty fields left out). */
export function auditPath(filter: AuditPathFilter = {}): string {
  const query = new URLSearchParams();
  for (const key of ["actor", "action", "cluster", "target", "outcome", "since", "until"] as const) {
    const value = filter[key];
    if (value) query.set(key, value);
  }
  const qs = query.toString();
  return qs ? `${AUDIT_PATH}?${qs}` : AUDIT_PATH;
}

/** The approval requests of protected clusters (every role reads those of its clusters). */
export const APPROVALS_PATH = "/approvals";

/** The approvals page with request `id` open: "/approvals?id=12". */
export function approvalPath(id: number): string {
  return `${APPROVALS_PATH}?id=${id}`;
}

export const NAV_ITEMS: NavItem[] = [
  { to: "/", label: "Clusters", end: true, activePrefixes: ["/clusters/"] },
  // The submit page belongs to the jobs; the schedules have their own entry.
  { to: "/spark/jobs", label: "Spark jobs", activePrefixes: ["/spark/new"] },
  { to: "/spark/schedules", label: "Schedules" },
  // `end`: the worklist under it has its own entry.
  { to: "/maintenance", label: "Predictive maintenance", end: true },
  { to: WORKLIST_PATH, label: "Worklist" },
  { to: "/alerts", label: "Alerts" },
  // Console users and their API tokens: the API answers admins only.
  { to: USERS_PATH, label: "Users", role: "admin" },
  // The audit log: the API answers operators and admins.
  { to: AUDIT_PATH, label: "Audit", role: "operator" },
  // Changes held on protected clusters for a second person: every role lists those of its clusters.
  { to: APPROVALS_PATH, label: "Approvals", role: "viewer", count: "approvals" },
];

/** The REST API's interactive docs (Swagger UI), served by Django, not by the SPA's router. */
export const API_DOCS_URL = `${API_BASE}docs/`;

/** A top-bar entry that leaves the SPA: a plain link the server answers (never a client route). */
export interface ExternalNavItem {
  href: string;
  label: string;
  /** The tooltip: where it leads. */
  title: string;
  testId: string;
}

export const EXTERNAL_NAV_ITEMS: ExternalNavItem[] = [
  {
    href: API_DOCS_URL,
    label: "API docs",
    title: "The REST API's reference (Swagger UI), in a new tab",
    testId: "nav-api-docs",
  },
];

/** A tab of the per-cluster pages (Overview | Topics | ...). */
export interface ClusterTab {
  /** Path under /clusters/{cluster}/ ("" for the overview). */
  path: string;
  label: string;
  /** Other paths under /clusters/{cluster}/ whose pages belong to this tab. */
  alsoFor?: string[];
  role?: Role;
}

/**
 * The tabs shown under the cluster name on every per-cluster page. A new
 * per-cluster section (e.g. consumer groups) adds its entry here and its
 * routes in App.tsx.
 */
export const CLUSTER_TABS: ClusterTab[] = [
  { path: "", label: "Overview", alsoFor: ["brokers"] },
  { path: "topics", label: "Topics", alsoFor: ["create-topic"] },
  { path: "groups", label: "Consumer groups" },
  // Moving partitions between brokers: the API answers admins only.
  { path: "reassignments", label: "Reassign", role: "admin" },
  // Every role may list them; only admins see the add and delete controls.
  { path: "acls", label: "ACLs" },
  // Client quotas and SCRAM credentials: the API answers admins only.
  { path: "quotas", label: "Quotas", role: "admin" },
  { path: "scram-users", label: "SCRAM users", role: "admin" },
];

/** The app path of a per-cluster page: clusterPath("local", "topics") is "/clusters/local/topics". */
export function clusterPath(cluster: string, ...rest: string[]): string {
  const tail = rest.filter(Boolean).map(encodeURIComponent).join("/");
  return `/clusters/${encodeURIComponent(cluster)}${tail ? `/${tail}` : ""}`;
}

/** The app path of a topic's page. */
export function topicPath(cluster: string, topic: string): string {
  return clusterPath(cluster, "topics", topic);
}

/** A topic's Messages tab with a filter (CEL): its newest matching records. */
export function topicMessagesPath(cluster: string, topic: string, filter: string): string {
  return `${topicPath(cluster, topic)}?${new URLSearchParams({ tab: "messages", filter })}`;
}

/** The app path of a broker's page. */
export function brokerPath(cluster: string, broker: number): string {
  return clusterPath(cluster, "brokers", String(broker));
}

/** The app path of a partition reassignment's progress page. */
export function reassignmentPath(cluster: string, id: number): string {
  return clusterPath(cluster, "reassignments", String(id));
}

/**
 * What a link presets in the Reassign tab's new reassignment form (read once when it opens):
 * every topic of a broker chosen and that broker left out of the targets, some topics chosen, or a
 * topic's replication factor to change.
 */
export type ReassignPreset = { drain: number } | { topics: readonly string[] } | { rfTopic: string };

/** The Reassign tab, its form preset: ?drain=1, ?topics=a,b or ?mode=rf&topic=a (none without a preset). */
export function reassignNewPath(cluster: string, preset?: ReassignPreset): string {
  const path = clusterPath(cluster, "reassignments");
  if (!preset) return path;
  if ("drain" in preset) return `${path}?drain=${preset.drain}`;
  // A topic name has no comma (Kafka allows letters, digits, ".", "_" and "-").
  if ("topics" in preset) return `${path}?topics=${preset.topics.map(encodeURIComponent).join(",")}`;
  return `${path}?mode=rf&topic=${encodeURIComponent(preset.rfTopic)}`;
}

/** What the ACLs tab's filter bar holds (its URL query keys are the API's names). */
export interface AclsFilter {
  resource_type?: string;
  resource_name?: string;
  /** literal, prefixed, match or any. */
  pattern_type?: string;
  principal?: string;
}

/** The ACLs tab with a filter: aclsPath("local", {resource_type: "TOPIC", resource_name: "orders",
 * pattern_type: "match"}) is "/clusters/local/acls?resource_type=TOPIC&resource_name=orders&pattern_type=match". */
export function aclsPath(cluster: string, filter: AclsFilter = {}): string {
  const path = clusterPath(cluster, "acls");
  const query = new URLSearchParams();
  for (const key of ["resource_type", "resource_name", "pattern_type", "principal"] as const) {
    const value = filter[key];
    if (value) query.set(key, value);
  }
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}

/** The app path of a consumer group's page. */
export function groupPath(cluster: string, group: string): string {
  return clusterPath(cluster, "groups", group);
}

/** The Spark job list. */
export const SPARK_JOBS_PATH = "/spark/jobs";

/** The Spark job schedules. */
export const SPARK_SCHEDULES_PATH = "/spark/schedules";

/** The page listing the job types with their forms; `jobType` preselects one. */
export function sparkSubmitPath(jobType?: string): string {
  return jobType ? `/spark/new?type=${encodeURIComponent(jobType)}` : "/spark/new";
}

/** The app path of a Spark job's page. */
export function sparkJobPath(id: number): string {
  return `${SPARK_JOBS_PATH}/${id}`;
}

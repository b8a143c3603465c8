// The ACLs tab's pieces that are not React: the names kafka-acls.sh prints, the filter bar's URL
// query, the add form's request bodies (one binding, or the --producer / --consumer sets), where a
// refused request's problems belong, the exact filter that deletes one row, and the table's sort.
import type {
  Acl,
  AclCreateRequest,
  AclFilter,
  AclListQuery,
  AclOperation,
  AclPatternFilter,
  AclResourceType,
} from "../api/types";
import { ApiError } from "../api/client";
import { fieldProblems, parsePath } from "./fieldErrors";

/** The resource types, as kafka-acls.sh prints them. */
export const ACL_RESOURCE_TYPES: readonly AclResourceType[] = [
  "TOPIC",
  "GROUP",
  "CLUSTER",
  "TRANSACTIONAL_ID",
  "DELEGATION_TOKEN",
  "USER",
];

/** The operations, as kafka-acls.sh prints them. */
export const ACL_OPERATIONS: readonly AclOperation[] = [
  "ALL",
  "READ",
  "WRITE",
  "CREATE",
  "DESCRIBE",
  "DELETE",
  "ALTER",
  "DESCRIBE_CONFIGS",
  "ALTER_CONFIGS",
  "CLUSTER_ACTION",
  "IDEMPOTENT_WRITE",
  "CREATE_TOKENS",
  "DESCRIBE_TOKENS",
];

/** A binding's pattern: its resource name exactly, or every name starting with it. */
export const ACL_BINDING_PATTERNS = ["LITERAL", "PREFIXED"] as const;
export type AclBindingPattern = (typeof ACL_BINDING_PATTERNS)[number];

export const ACL_PERMISSIONS = ["ALLOW", "DENY"] as const;
export type AclPermission = (typeof ACL_PERMISSIONS)[number];

/** The list's pattern filter, with what each selects. */
export const ACL_PATTERN_FILTERS: readonly { value: AclPatternFilter; label: string; help: string }[] = [
  { value: "literal", label: "literal", help: "bindings of exactly this name (literal)" },
  { value: "prefixed", label: "prefixed", help: "prefixed bindings of exactly this prefix" },
  { value: "match", label: "match", help: "everything that applies to this name: literal, * and matching prefixes" },
  { value: "any", label: "any", help: "literal and prefixed bindings alike" },
];

/** The filter bar's state, read from the URL query (keys as the API names them). */
export interface AclsFilterState {
  resourceType: AclResourceType | null;
  resourceName: string;
  /** As chosen; null: the server's default. */
  patternType: AclPatternFilter | null;
  principal: string;
}

/** The filter bar's state from the URL query; unknown types or patterns are ignored. */
export function readAclsFilter(params: URLSearchParams): AclsFilterState {
  const type = params.get("resource_type");
  const pattern = params.get("pattern_type");
  return {
    resourceType: ACL_RESOURCE_TYPES.find((t) => t === type) ?? null,
    resourceName: params.get("resource_name") ?? "",
    patternType: ACL_PATTERN_FILTERS.find((p) => p.value === pattern)?.value ?? null,
    principal: params.get("principal") ?? "",
  };
}

/** What the list's pattern filter means when none is chosen: literal with a resource name, any without. */
export function effectivePattern(filter: Pick<AclsFilterState, "patternType" | "resourceName">): AclPatternFilter {
  return filter.patternType ?? (filter.resourceName.trim() ? "literal" : "any");
}

/** GET acls's query for the filter (empty fields left out: any). */
export function aclListQueryOf(filter: AclsFilterState): AclListQuery {
  const query: AclListQuery = {};
  if (filter.resourceType) query.resource_type = filter.resourceType;
  const name = filter.resourceName.trim();
  if (name) query.resource_name = name;
  if (filter.patternType) query.pattern_type = filter.patternType;
  const principal = filter.principal.trim();
  if (principal) query.principal = principal;
  return query;
}

/**
 * The delete filter of "Delete matching…": the bar's resource type and name (required, as
 * kafka-acls.sh --remove requires a resource), the pattern the list applies (so the preview is
 * what the table shows) and the principal when given; null without a type and name.
 */
export function matchingDeleteFilter(filter: AclsFilterState): AclFilter | null {
  const name = filter.resourceName.trim();
  if (!filter.resourceType || !name) return null;
  const out: AclFilter = { resource_type: filter.resourceType, resource_name: name, pattern_type: effectivePattern(filter) };
  const principal = filter.principal.trim();
  if (principal) out.principal = principal;
  return out;
}

/** The delete filter selecting exactly one row: all seven fields, the pattern as literal/prefixed. */
export function rowDeleteFilter(acl: Acl): AclFilter {
  return {
    resource_type: acl.resource_type,
    resource_name: acl.resource_name,
    pattern_type: acl.pattern_type.toLowerCase(),
    principal: acl.principal,
    host: acl.host,
    operation: acl.operation,
    permission: acl.permission,
  };
}

// ---- the add form ----

/** One binding (kafka-acls.sh --add), or the --producer or --consumer set. */
export type AclAddMode = "binding" | "producer" | "consumer";

export const ACL_ADD_MODES: readonly { mode: AclAddMode; label: string; help: string }[] = [
  { mode: "binding", label: "One binding", help: "One binding: a resource, a principal, an operation, allowed or denied." },
  {
    mode: "producer",
    label: "Producer",
    help: "kafka-acls.sh --producer: WRITE, DESCRIBE and CREATE on the topics; WRITE and DESCRIBE on the transactional ids; IDEMPOTENT_WRITE on the cluster when idempotent.",
  },
  {
    mode: "consumer",
    label: "Consumer",
    help: "kafka-acls.sh --consumer: READ and DESCRIBE on the topics, READ on the groups.",
  },
];

/** The form as typed (lists comma-separated); each mode uses its part. */
export interface AclFormValues {
  principal: string;
  host: string;
  patternType: AclBindingPattern;
  resourceType: AclResourceType;
  resourceName: string;
  operation: AclOperation;
  permission: AclPermission;
  topics: string;
  transactionalIds: string;
  idempotent: boolean;
  groups: string;
}

export const EMPTY_ACL_FORM: AclFormValues = {
  principal: "",
  host: "*",
  patternType: "LITERAL",
  resourceType: "TOPIC",
  resourceName: "",
  operation: "READ",
  permission: "ALLOW",
  topics: "",
  transactionalIds: "",
  idempotent: false,
  groups: "",
};

/** The form's fields an error can be shown at (the API's names). */
export const ACL_FORM_FIELDS = [
  "principal",
  "host",
  "pattern_type",
  "resource_type",
  "resource_name",
  "operation",
  "permission",
  "topics",
  "transactional_ids",
  "idempotent",
  "groups",
] as const;
export type AclFormField = (typeof ACL_FORM_FIELDS)[number];

/** The fields each mode shows. */
export const ACL_MODE_FIELDS: Record<AclAddMode, readonly AclFormField[]> = {
  binding: ["resource_type", "resource_name", "pattern_type", "principal", "host", "operation", "permission"],
  producer: ["principal", "topics", "transactional_ids", "idempotent", "pattern_type", "host"],
  consumer: ["principal", "topics", "groups", "pattern_type", "host"],
};

/** "a, b,,c " → ["a", "b", "c"]. */
export function splitList(text: string): string[] {
  return text
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
}

/** The request of the form in `mode` (a preview unless `dryRun` is false). */
export function aclCreateBody(mode: AclAddMode, values: AclFormValues, dryRun: boolean): AclCreateRequest {
  const principal = values.principal.trim();
  const host = values.host.trim() || "*";
  if (mode === "binding") {
    return {
      bindings: [
        {
          resource_type: values.resourceType,
          resource_name: values.resourceName.trim(),
          pattern_type: values.patternType,
          principal,
          host,
          operation: values.operation,
          permission: values.permission,
        },
      ],
      dry_run: dryRun,
    };
  }
  const topics = splitList(values.topics);
  if (mode === "producer") {
    const transactionalIds = splitList(values.transactionalIds);
    return {
      producer: {
        principal,
        topics,
        ...(transactionalIds.length ? { transactional_ids: transactionalIds } : {}),
        idempotent: values.idempotent,
        pattern_type: values.patternType,
        host,
      },
      dry_run: dryRun,
    };
  }
  return {
    consumer: { principal, topics, groups: splitList(values.groups), pattern_type: values.patternType, host },
    dry_run: dryRun,
  };
}

/** The same request whatever its dry_run: a preview holds for the form while this is unchanged. */
export function aclCreateKey(body: AclCreateRequest): string {
  const { dry_run: _dryRun, ...rest } = body;
  return JSON.stringify(rest);
}

/** Messages by field. */
export type AclFormErrors = Partial<Record<AclFormField, string[]>>;

function add(errors: AclFormErrors, field: AclFormField, message: string) {
  (errors[field] ??= []).push(message);
}

/** What the form lacks for `mode` before anything is sent; {} when nothing. The server checks the
 * rest (names, principals as Type:name) and its 400 is placed by placeAclErrors. */
export function checkAclForm(mode: AclAddMode, values: AclFormValues): AclFormErrors {
  const errors: AclFormErrors = {};
  if (!values.principal.trim()) add(errors, "principal", "Give the principal, e.g. User:alice.");
  if (mode === "binding" && !values.resourceName.trim()) {
    add(errors, "resource_name", values.resourceType === "CLUSTER" ? "Give the name: kafka-cluster." : "Give the resource name.");
  }
  if (mode !== "binding" && splitList(values.topics).length === 0) add(errors, "topics", "Give at least one topic.");
  if (mode === "consumer" && splitList(values.groups).length === 0) add(errors, "groups", "Give at least one group.");
  return errors;
}

export interface PlacedAclErrors {
  fields: AclFormErrors;
  /** What names no field of the form, and every answer but a 400. */
  banner: Error | null;
}

/**
 * A refusal's problems at their fields: `bindings[0].operation`, `producer.topics[1]`,
 * `consumer.groups` (or a plain field name) beside that field of the form, in plain words; the
 * rest (and every error that is not a 400 with a field) in the banner.
 */
export function placeAclErrors(error: unknown, mode: AclAddMode): PlacedAclErrors {
  if (!error) return { fields: {}, banner: null };
  const problems = fieldProblems(error);
  const asError = error instanceof Error ? error : new Error(String(error));
  if (problems.length === 0) return { fields: {}, banner: asError };
  const fields: AclFormErrors = {};
  const unplaced: string[] = [];
  const shown = ACL_MODE_FIELDS[mode];
  for (const { path, message } of problems) {
    const names = parsePath(path).filter((p): p is string => typeof p === "string");
    const field = names.find((n): n is AclFormField => (shown as readonly string[]).includes(n));
    if (field) add(fields, field, message);
    else unplaced.push(message);
  }
  if (unplaced.length === 0) return { fields, banner: null };
  const api = error as ApiError;
  return { fields, banner: new ApiError(api.status, api.code, unplaced.join(" "), api.details) };
}

// ---- the table ----

export type AclSortKey = "resource_type" | "resource_name" | "pattern_type" | "principal" | "host" | "operation" | "permission";

const SORT_ORDER: readonly AclSortKey[] = [
  "resource_type",
  "resource_name",
  "pattern_type",
  "principal",
  "host",
  "operation",
  "permission",
];

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sorted copy by `key`; ties by the other fields in the table's order. */
export function sortAcls(rows: readonly Acl[], key: AclSortKey, desc: boolean): Acl[] {
  const dir = desc ? -1 : 1;
  return [...rows].sort((a, b) => {
    const first = compare(a[key], b[key]);
    if (first !== 0) return first * dir;
    for (const k of SORT_ORDER) {
      const c = compare(a[k], b[k]);
      if (c !== 0) return c;
    }
    return 0;
  });
}

/** A stable key of one binding (all seven fields). */
export function aclKey(acl: Acl): string {
  return SORT_ORDER.map((k) => acl[k]).join("\u0000");
}

// ---- what applies to one resource, what one principal may do ----

/** Whether an answer is Kafka's SECURITY_DISABLED: the cluster runs without an authorizer, so
 * it keeps no ACLs (the API answers 502 kafka_error naming it). */
export function isSecurityDisabled(error: unknown): boolean {
  return error instanceof ApiError && error.details.kafka_error === "SECURITY_DISABLED";
}

/** How a binding reaches a resource: set on its name, on every name (a literal `*`), or on a
 * prefix of its name. */
export type AclReach = "literal" | "wildcard" | "prefixed";

/** The pattern column's words: literal, prefixed, or `*`. */
export const ACL_REACH_LABELS: Record<AclReach, string> = { literal: "literal", wildcard: "*", prefixed: "prefixed" };

export function aclReach(acl: Pick<Acl, "pattern_type" | "resource_name">): AclReach {
  if (acl.pattern_type.toUpperCase() === "PREFIXED") return "prefixed";
  return acl.resource_name === "*" ? "wildcard" : "literal";
}

const RESOURCE_NOUNS: Record<string, readonly [one: string, many: string]> = {
  TOPIC: ["topic", "topics"],
  GROUP: ["group", "groups"],
  CLUSTER: ["cluster", "clusters"],
  TRANSACTIONAL_ID: ["transactional id", "transactional ids"],
  DELEGATION_TOKEN: ["delegation token", "delegation tokens"],
  USER: ["user", "users"],
};

/** "topic", "group", … of a resource type (lower case, for sentences). */
export function resourceNoun(resourceType: string, many = false): string {
  const nouns = RESOURCE_NOUNS[resourceType.toUpperCase()];
  if (!nouns) return many ? "resources" : "resource";
  return nouns[many ? 1 : 0];
}

/**
 * Why a binding that `pattern_type=match` answered for the resource `name` applies to it, in one
 * short sentence: set on its name, the wildcard `*`, or a prefix its name starts with.
 */
export function whyAclApplies(acl: Pick<Acl, "resource_type" | "pattern_type" | "resource_name">, name: string): string {
  const one = resourceNoun(acl.resource_type);
  switch (aclReach(acl)) {
    case "wildcard":
      return `The wildcard * applies to every ${one}.`;
    case "prefixed":
      return acl.resource_name === name
        ? `Prefixed on “${acl.resource_name}”: its whole name, and every ${one} whose name starts with it.`
        : `Prefixed on “${acl.resource_name}”: applies to every ${one} whose name starts with it, as “${name}” does.`;
    default:
      return acl.resource_name === name ? `Set on this ${one} by name.` : `Set on the ${one} “${acl.resource_name}” by name.`;
  }
}

const REACH_ORDER: Record<AclReach, number> = { literal: 0, prefixed: 1, wildcard: 2 };

/**
 * The bindings that apply to one resource, most specific first: literal, then prefixed (longest
 * prefix first), then `*`; within each by principal, operation, DENY before ALLOW, host.
 */
export function sortApplying(rows: readonly Acl[]): Acl[] {
  return [...rows].sort((a, b) => {
    const ra = aclReach(a);
    const rb = aclReach(b);
    if (ra !== rb) return REACH_ORDER[ra] - REACH_ORDER[rb];
    if (a.resource_name.length !== b.resource_name.length) return b.resource_name.length - a.resource_name.length;
    return (
      compare(a.resource_name, b.resource_name) ||
      compare(a.principal, b.principal) ||
      operationRank(a.operation) - operationRank(b.operation) ||
      compare(a.operation, b.operation) ||
      compare(b.permission, a.permission) || // DENY before ALLOW
      compare(a.host, b.host)
    );
  });
}

function operationRank(operation: string): number {
  const index = (ACL_OPERATIONS as readonly string[]).indexOf(operation);
  return index < 0 ? ACL_OPERATIONS.length : index;
}

/** One operation a principal is allowed or denied on a resource, from a host (`*`: any). */
export interface AclGrant {
  operation: string;
  host: string;
  /** An ALLOW that a DENY on the same resource pattern takes back (the same operation or ALL,
   * from any host or this one). */
  overridden: boolean;
}

/** One resource pattern of a principal's bindings: what it is allowed and denied there. */
export interface AclResourceSummary {
  /** Type, name and pattern, a stable key. */
  key: string;
  resource_type: string;
  resource_name: string;
  pattern_type: string;
  reach: AclReach;
  allowed: AclGrant[];
  denied: AclGrant[];
  /** Bindings summed up in this row. */
  bindings: number;
}

/** "READ", or "READ from 10.0.0.7" when limited to one host. */
export function grantLabel(grant: Pick<AclGrant, "operation" | "host">): string {
  return grant.host === "*" ? grant.operation : `${grant.operation} from ${grant.host}`;
}

function grantOrder(a: AclGrant, b: AclGrant): number {
  return (
    operationRank(a.operation) - operationRank(b.operation) ||
    compare(a.operation, b.operation) ||
    (a.host === "*" ? -1 : 0) - (b.host === "*" ? -1 : 0) ||
    compare(a.host, b.host)
  );
}

function resourceTypeRank(type: string): number {
  const index = (ACL_RESOURCE_TYPES as readonly string[]).indexOf(type);
  return index < 0 ? ACL_RESOURCE_TYPES.length : index;
}

/**
 * A principal's bindings (or any list) by resource pattern — type, name and pattern — each with
 * the operations allowed and denied there (an ALLOW a DENY of the same resource takes back is
 * marked `overridden`), sorted by resource type (kafka-acls.sh's order), name, literal first.
 */
export function summarizeByResource(rows: readonly Acl[]): AclResourceSummary[] {
  const byKey = new Map<string, AclResourceSummary>();
  for (const acl of rows) {
    const pattern = acl.pattern_type.toUpperCase();
    const key = [acl.resource_type, acl.resource_name, pattern].join("\u0000");
    let entry = byKey.get(key);
    if (!entry) {
      entry = {
        key,
        resource_type: acl.resource_type,
        resource_name: acl.resource_name,
        pattern_type: pattern,
        reach: aclReach(acl),
        allowed: [],
        denied: [],
        bindings: 0,
      };
      byKey.set(key, entry);
    }
    entry.bindings += 1;
    const list = acl.permission.toUpperCase() === "DENY" ? entry.denied : entry.allowed;
    if (!list.some((g) => g.operation === acl.operation && g.host === acl.host)) {
      list.push({ operation: acl.operation, host: acl.host, overridden: false });
    }
  }
  const out = [...byKey.values()];
  for (const entry of out) {
    entry.allowed.sort(grantOrder);
    entry.denied.sort(grantOrder);
    for (const grant of entry.allowed) {
      grant.overridden = entry.denied.some(
        (deny) => (deny.operation === grant.operation || deny.operation === "ALL") && (deny.host === "*" || deny.host === grant.host),
      );
    }
  }
  return out.sort(
    (a, b) =>
      resourceTypeRank(a.resource_type) - resourceTypeRank(b.resource_type) ||
      compare(a.resource_type, b.resource_type) ||
      compare(a.resource_name, b.resource_name) ||
      compare(a.pattern_type, b.pattern_type),
  );
}

// The audit page's pieces that are not React (docs/governance.md, "The audit log"; docs/api.md,
// "Audit"): the filter bar ↔ URL query ↔ API query, the datetime-local inputs ↔ ISO-8601 with the
// browser's offset, pages merged newest first ("Load older" with before_id, the newest page polled),
// what an entry changed as a link, a change's before → after, outcome tones and JSON as shown.
import type { AuditEntry, AuditFilterQuery, AuditOutcome } from "../api/types";
import type { Tone } from "../components/StatusBadge";
import { aclsPath, brokerPath, clusterPath, groupPath, sparkJobPath, topicPath } from "../navigation";
import { isRecord } from "./isRecord";
import { browserTimeZone, wallTimeIn, zonedToInstant } from "./time";

export const AUDIT_OUTCOMES: readonly AuditOutcome[] = ["ok", "refused", "failed", "preview", "requested"];

/** What each outcome means (the outcome select's tooltips and the badges'). */
export const OUTCOME_HELP: Record<AuditOutcome, string> = {
  ok: "Done",
  refused: "Refused (bad input, a conflict or no permission): nothing changed",
  failed: "Tried and failed (Kafka answered an error), or done only in part",
  preview: "A dry run: what would change, nothing changed",
  requested: "Held for a second person's approval (a protected cluster): nothing changed yet",
};

const OUTCOME_TONES: Record<AuditOutcome, Tone> = {
  ok: "ok",
  refused: "warn",
  failed: "error",
  preview: "info",
  requested: "neutral",
};

/** The badge tone of an outcome (an unknown one is grey). */
export function outcomeTone(outcome: string): Tone {
  return (OUTCOME_TONES as Record<string, Tone | undefined>)[outcome] ?? "neutral";
}

/** The URL query keys of the filter, which are the API's names. */
export const AUDIT_FILTER_KEYS = ["actor", "action", "cluster", "target", "outcome", "since", "until"] as const;
export type AuditFilterKey = (typeof AUDIT_FILTER_KEYS)[number];

/** The filter bar as the URL query holds it ("" for none); `since` and `until` are ISO-8601 with
 * an offset (the inputs show them as this browser's wall time). */
export type AuditFilter = Record<AuditFilterKey, string>;

export const EMPTY_AUDIT_FILTER: AuditFilter = { actor: "", action: "", cluster: "", target: "", outcome: "", since: "", until: "" };

/** The filter in the URL query (absent keys: ""). */
export function readAuditFilter(params: URLSearchParams): AuditFilter {
  const filter = { ...EMPTY_AUDIT_FILTER };
  for (const key of AUDIT_FILTER_KEYS) filter[key] = params.get(key) ?? "";
  return filter;
}

/** Whether any filter is set. */
export function isFiltered(filter: AuditFilter): boolean {
  return AUDIT_FILTER_KEYS.some((key) => filter[key].trim() !== "");
}

function isOutcome(value: string): value is AuditOutcome {
  return (AUDIT_OUTCOMES as readonly string[]).includes(value);
}

/** The API query of a filter: values trimmed (but `target`, contained text), empty ones left out,
 * an unknown outcome dropped (the select offers only the five). */
export function auditQueryOf(filter: AuditFilter): AuditFilterQuery {
  const query: AuditFilterQuery = {};
  const actor = filter.actor.trim();
  const action = filter.action.trim();
  const cluster = filter.cluster.trim();
  const since = filter.since.trim();
  const until = filter.until.trim();
  const outcome = filter.outcome.trim();
  if (actor) query.actor = actor;
  if (action) query.action = action;
  if (cluster) query.cluster = cluster;
  if (filter.target.trim()) query.target = filter.target;
  if (isOutcome(outcome)) query.outcome = outcome;
  if (since) query.since = since;
  if (until) query.until = until;
  return query;
}

/** What a prefix action filter ("offsets.") selects, said for the hint under the input. */
export function actionFilterMeaning(action: string): string | null {
  const text = action.trim();
  if (!text) return null;
  return text.endsWith(".") ? `every action starting with “${text}”` : `exactly the action “${text}” (end it with “.” for a prefix)`;
}

/** A datetime-local input's value as ISO-8601 with the offset of `zone` (the browser's) at that
 * time: "2026-07-01T09:30" in Europe/Paris is "2026-07-01T09:30:00.000+02:00". null when the input
 * holds no complete date-time. */
export function localInputToIso(value: string, zone: string = browserTimeZone()): string | null {
  if (!value.trim()) return null;
  return zonedToInstant(value, zone)?.iso ?? null;
}

/** An ISO-8601 date-time as a datetime-local value in `zone` (the browser's): minutes, or seconds
 * when it has some; "" when it does not parse. */
export function isoToLocalInput(iso: string, zone: string = browserTimeZone()): string {
  const ms = Date.parse(iso);
  if (!iso.trim() || Number.isNaN(ms)) return "";
  const wall = wallTimeIn(ms, zone);
  return wall.endsWith(":00.000") ? wall.slice(0, 16) : wall.slice(0, 19);
}

/** Where an entry's change can be seen in the console. */
export interface AuditLink {
  to: string;
  label: string;
}

function positiveInt(value: unknown): number | null {
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
  if (typeof value === "string" && /^\d+$/.test(value) && Number(value) > 0) return Number(value);
  return null;
}

/**
 * What an entry changed, as a page of the console, where its fields say it: an offset reset
 * (`offsets.*` with a `reset_id` in its details) → the group's page (the target is the group);
 * a topic change (`topic.*`, and `message.produce`) → the topic's page (the target is the topic;
 * none for a delete, nor for a create that did not happen); an ACL change (`acl.*`) → the cluster's
 * ACLs; a Spark job (`spark.job.*` with a `job_id` in its details, or the cancel's target) → the
 * job's page; a quota (`quota.*`) or SCRAM credential (`scram.*`) → its cluster tab; a broker's
 * configs → the broker's page. null for anything else.
 */
export function auditEntryLink(entry: Pick<AuditEntry, "action" | "cluster" | "target" | "details" | "outcome">): AuditLink | null {
  const { action } = entry;
  const cluster = entry.cluster ?? "";
  const target = entry.target ?? "";
  const details = isRecord(entry.details) ? entry.details : {};
  if (action.startsWith("offsets.")) {
    if (!cluster || !target || positiveInt(details.reset_id) === null) return null;
    return { to: groupPath(cluster, target), label: `Group ${target}` };
  }
  if (action.startsWith("topic.") || action === "message.produce") {
    if (!cluster || !target || action === "topic.delete") return null;
    if (action === "topic.create" && entry.outcome !== "ok") return null;
    return { to: topicPath(cluster, target), label: `Topic ${target}` };
  }
  if (action.startsWith("acl.")) {
    return cluster ? { to: aclsPath(cluster), label: `ACLs of ${cluster}` } : null;
  }
  if (action === "spark.job" || action.startsWith("spark.job.")) {
    const id = positiveInt(details.job_id) ?? (action === "spark.job.cancel" ? positiveInt(target) : null);
    return id === null ? null : { to: sparkJobPath(id), label: `Spark job #${id}` };
  }
  if (action.startsWith("quota.")) {
    return cluster ? { to: clusterPath(cluster, "quotas"), label: `Quotas of ${cluster}` } : null;
  }
  if (action.startsWith("scram.")) {
    return cluster ? { to: clusterPath(cluster, "scram-users"), label: `SCRAM users of ${cluster}` } : null;
  }
  if (action === "broker.configs") {
    const broker = /^broker (\d+)$/.exec(target);
    return cluster && broker ? { to: brokerPath(cluster, Number(broker[1])), label: `Broker ${broker[1]}` } : null;
  }
  return null;
}

/** One changed (or kept) value of a change's before → after. */
export interface ChangeRow {
  /** Its path in the objects: "role", "cluster_roles.local"; "" when before and after are plain values. */
  key: string;
  /** undefined: absent on that side. */
  before: unknown;
  after: unknown;
  changed: boolean;
}

/** Nested objects as dotted paths to their values (an empty object is a value: "{}"). */
function flatten(value: Record<string, unknown>, prefix: string, out: Map<string, unknown>) {
  for (const [key, item] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isRecord(item) && Object.keys(item).length > 0) flatten(item, path, out);
    else out.set(path, item);
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * A change's before → after, when its details hold both (quota changes: the values; user changes:
 * is_active, role, cluster_roles): one row per path in either, nested objects as dotted paths
 * ("cluster_roles.local"), in the order before has them, then the new ones. null when the details
 * lack either.
 */
export function beforeAfterRows(details: unknown): ChangeRow[] | null {
  if (!isRecord(details) || !("before" in details) || !("after" in details)) return null;
  const { before, after } = details;
  if (!isRecord(before) || !isRecord(after)) {
    return [{ key: "", before, after, changed: !sameJson(before, after) }];
  }
  const was = new Map<string, unknown>();
  const now = new Map<string, unknown>();
  flatten(before, "", was);
  flatten(after, "", now);
  const keys = [...was.keys(), ...[...now.keys()].filter((k) => !was.has(k))];
  return keys.map((key) => {
    const b = was.get(key);
    const a = now.get(key);
    return { key, before: b, after: a, changed: !sameJson(b, a) };
  });
}

/** A value of a before → after cell: text as it is, absent as "—", the rest as JSON. */
export function changeValueText(value: unknown): string {
  if (value === undefined) return "—";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/** A request or details as the expanded row shows it: indented JSON; null for nothing to show. */
export function formatJson(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (isRecord(value) && Object.keys(value).length === 0) return null;
  return JSON.stringify(value, null, 2);
}

/** What the page holds of the log for one filter: entries newest first, whether none is older. */
export interface AuditLog {
  entries: AuditEntry[];
  /** The oldest entry the filter selects is shown: nothing to load before it. */
  end: boolean;
}

/**
 * The newest page (a poll: newest first, at most `limit`) merged into what is shown. The shown
 * entries are every entry of the filter from the oldest shown to the newest shown; a full page
 * whose entries are all newer than the newest shown may have left some out between them (more than
 * `limit` new entries since the last poll): then only the new page is shown (and older ones load
 * again). A page shorter than `limit` is every entry there is.
 */
export function mergeNewest(log: AuditLog | null, page: readonly AuditEntry[], limit: number): AuditLog {
  if (page.length < limit) return { entries: [...page], end: true };
  if (!log || log.entries.length === 0) return { entries: [...page], end: false };
  const newestShown = log.entries[0]!.id;
  const oldestOfPage = page[page.length - 1]!.id;
  if (oldestOfPage > newestShown) return { entries: [...page], end: false };
  return { entries: [...page, ...log.entries.filter((e) => e.id < oldestOfPage)], end: log.end };
}

/** An older page (`before_id` = the oldest shown id) added at the end; shorter than `limit`: the
 * end of the log. */
export function mergeOlder(log: AuditLog, page: readonly AuditEntry[], limit: number): AuditLog {
  const oldest = log.entries.length > 0 ? log.entries[log.entries.length - 1]!.id : Infinity;
  return { entries: [...log.entries, ...page.filter((e) => e.id < oldest)], end: page.length < limit };
}

/** The `before_id` of the next older page: the oldest id shown (null when nothing is). */
export function olderCursor(log: AuditLog | null): number | null {
  if (!log || log.entries.length === 0) return null;
  return log.entries[log.entries.length - 1]!.id;
}

// The Quotas tab's pieces that are not React (docs/governance.md, "Client quotas"): the filter's
// entity types, an entity said in words ("user alice, default client id"), the keys each entity
// type takes and their values with units ("1.0 MiB/s", "12.5 %"), the set / remove form → PATCH
// body, where a refused change's problems belong, and a change's values before → after.
import { ApiError } from "../api/client";
import type { Quota, QuotaChange, QuotaChanged, QuotaEntity, QuotaEntityPart, QuotaEntityType } from "../api/types";
import { fieldProblems, parsePath } from "./fieldErrors";

// ---- the filter ----

export interface QuotaFilter {
  /** The URL query's `entity_type` ("users,clients" for the pairs); "" for every entity. */
  value: string;
  label: string;
  types: readonly QuotaEntityType[];
  /** The table's sentence when nothing matches. */
  none: string;
}

/** The filter's choices besides "All", as kafka-configs.sh --describe --entity-type lists them. */
export const QUOTA_FILTERS: readonly QuotaFilter[] = [
  { value: "users", label: "Users", types: ["users"], none: "No user (nor the default user) has quotas of its own." },
  { value: "clients", label: "Client ids", types: ["clients"], none: "No client id (nor the default client id) has quotas of its own." },
  { value: "users,clients", label: "User + client id", types: ["users", "clients"], none: "No user and client id pair has quotas." },
  { value: "ips", label: "IPs", types: ["ips"], none: "No IP address (nor the default ip) has quotas." },
];

/** The table's sentence when it has no rows. */
export const NO_QUOTAS = "No client quotas on this cluster.";

/** The filter of the URL query (`entity_type`); an unknown value is every entity. */
export function readQuotaFilter(params: URLSearchParams): QuotaFilter | null {
  const value = params.get("entity_type") ?? "";
  return QUOTA_FILTERS.find((f) => f.value === value) ?? null;
}

// ---- entities ----

/** The parts of an entity, in Kafka's order. */
export const ENTITY_PARTS = ["user", "client_id", "ip"] as const;
export type EntityPart = (typeof ENTITY_PARTS)[number];

const PART_WORDS: Record<EntityPart, string> = { user: "user", client_id: "client id", ip: "ip" };

/** True for `{"default": true}`, Kafka's default entity of a type (`--entity-default`). */
export function isDefaultPart(part: QuotaEntityPart): part is { default: true } {
  return typeof part === "object" && part !== null && part.default === true;
}

/** What a part names: "user", "client id", "ip". */
export function partWord(kind: EntityPart): string {
  return PART_WORDS[kind];
}

/** One part in words: "user alice", "default client id", "ip 10.0.0.7". */
export function partLabel(kind: EntityPart, part: QuotaEntityPart): string {
  return isDefaultPart(part) ? `default ${PART_WORDS[kind]}` : `${PART_WORDS[kind]} ${part}`;
}

/** The parts an entity has, in Kafka's order. */
export function entityParts(entity: QuotaEntity): [EntityPart, QuotaEntityPart][] {
  return ENTITY_PARTS.flatMap((kind) => {
    const part = entity[kind];
    return part === undefined ? [] : [[kind, part] as [EntityPart, QuotaEntityPart]];
  });
}

/** The entity in words: "user alice, default client id"; "default user"; "ip 10.0.0.7". */
export function entityLabel(entity: QuotaEntity): string {
  return entityParts(entity)
    .map(([kind, part]) => partLabel(kind, part))
    .join(", ");
}

/** A stable key of an entity (names and defaults never collide). */
export function entityKey(entity: QuotaEntity): string {
  return JSON.stringify(entityParts(entity).map(([kind, part]) => [kind, isDefaultPart(part) ? null : part]));
}

export function sameEntity(a: QuotaEntity | null | undefined, b: QuotaEntity | null | undefined): boolean {
  return !!a && !!b && entityKey(a) === entityKey(b);
}

/** The entity's values in `rows` ({} when it has none there). */
export function valuesOf(rows: readonly Quota[] | undefined, entity: QuotaEntity | null): Record<string, number> {
  if (!rows || !entity) return {};
  return rows.find((row) => sameEntity(row.entity, entity))?.values ?? {};
}

// ---- keys and values ----

export const USER_CLIENT_KEYS = ["producer_byte_rate", "consumer_byte_rate", "request_percentage", "controller_mutation_rate"] as const;
export const IP_KEYS = ["connection_creation_rate"] as const;
export const QUOTA_KEYS = [...USER_CLIENT_KEYS, ...IP_KEYS] as const;
export type QuotaKey = (typeof QUOTA_KEYS)[number];

export interface QuotaKeyInfo {
  label: string;
  /** The short column heading. */
  short: string;
  /** What a value is counted in, as the input takes it. */
  unit: string;
  /** Kafka keeps a whole number (a LONG or an INT). */
  whole: boolean;
  help: string;
}

export const QUOTA_KEY_INFO: Record<QuotaKey, QuotaKeyInfo> = {
  producer_byte_rate: {
    label: "Producer byte rate",
    short: "Producer rate",
    unit: "bytes/s",
    whole: true,
    help: "Bytes per second its producers may write, on each broker.",
  },
  consumer_byte_rate: {
    label: "Consumer byte rate",
    short: "Consumer rate",
    unit: "bytes/s",
    whole: true,
    help: "Bytes per second its consumers may fetch, on each broker.",
  },
  request_percentage: {
    label: "Request percentage",
    short: "Request time",
    unit: "%",
    whole: false,
    help: "Share of one request handler or network thread's time, per quota window, on each broker (100 % is one thread).",
  },
  controller_mutation_rate: {
    label: "Controller mutation rate",
    short: "Mutation rate",
    unit: "partitions/s",
    whole: false,
    help: "Partitions it may create or delete per second (topic creation, partition additions, topic deletion).",
  },
  connection_creation_rate: {
    label: "Connection creation rate",
    short: "Connection rate",
    unit: "connections/s",
    whole: true,
    help: "New connections per second from this address, on each broker.",
  },
};

export function isQuotaKey(key: string): key is QuotaKey {
  return (QUOTA_KEYS as readonly string[]).includes(key);
}

/** The keys an entity of the form's target takes. */
export function keysFor(target: QuotaTarget): readonly QuotaKey[] {
  return target === "ip" ? IP_KEYS : USER_CLIENT_KEYS;
}

/** The keys of the table's columns for a filter (all of them without one). */
export function columnsFor(filter: QuotaFilter | null): readonly QuotaKey[] {
  if (!filter) return QUOTA_KEYS;
  return filter.value === "ips" ? IP_KEYS : USER_CLIENT_KEYS;
}

const BYTE_UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];

/** A byte rate: "512 B/s", "1.0 KiB/s", "1.0 MiB/s", "2.5 GiB/s". */
export function formatByteRate(bytesPerSecond: number): string {
  let value = bytesPerSecond;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${value.toLocaleString("en-US", { maximumFractionDigits: 2 })} B/s`;
  return `${value.toFixed(1)} ${BYTE_UNITS[unit]}/s`;
}

function plainNumber(value: number): string {
  return value.toLocaleString("en-US", { maximumFractionDigits: 3 });
}

/** A value with its unit: "1.0 MiB/s", "12.5 %", "10 partitions/s", "5 connections/s"; a key this
 * console does not know as its number. */
export function formatQuotaValue(key: string, value: number): string {
  if (key === "producer_byte_rate" || key === "consumer_byte_rate") return formatByteRate(value);
  if (key === "request_percentage") return `${plainNumber(value)} %`;
  if (isQuotaKey(key)) return `${plainNumber(value)} ${QUOTA_KEY_INFO[key].unit}`;
  return plainNumber(value);
}

/** The exact value, for a tooltip: "1,048,576 bytes/s". */
export function exactQuotaValue(key: string, value: number): string {
  const unit = isQuotaKey(key) ? QUOTA_KEY_INFO[key].unit : "";
  return `${value.toLocaleString("en-US", { maximumFractionDigits: 20 })}${unit === "%" ? " %" : unit ? ` ${unit}` : ""}`;
}

/** Every key of the entity's values, the known ones in their order, then any other sorted. */
export function orderedKeys(values: Record<string, number>): string[] {
  const known = QUOTA_KEYS.filter((k) => k in values);
  const other = Object.keys(values)
    .filter((k) => !isQuotaKey(k))
    .sort();
  return [...known, ...other];
}

// ---- the set / remove form ----

/** Users and client ids (alone or as a pair), or an ip. */
export type QuotaTarget = "client" | "ip";

/** A part of the entity: absent, a name, or the type's default. */
export type PartMode = "none" | "name" | "default";

/** The form as typed. */
export interface QuotaFormValues {
  target: QuotaTarget;
  userMode: PartMode;
  user: string;
  clientMode: PartMode;
  clientId: string;
  ipMode: Exclude<PartMode, "none">;
  ip: string;
  /** A new value per key as typed; "" leaves it unchanged. */
  values: Partial<Record<QuotaKey, string>>;
  /** The keys to remove (only ones set now). */
  remove: QuotaKey[];
}

export const EMPTY_QUOTA_FORM: QuotaFormValues = {
  target: "client",
  userMode: "name",
  user: "",
  clientMode: "none",
  clientId: "",
  ipMode: "name",
  ip: "",
  values: {},
  remove: [],
};

function modeOf(part: QuotaEntityPart | undefined): PartMode {
  return part === undefined ? "none" : isDefaultPart(part) ? "default" : "name";
}

function nameOf(part: QuotaEntityPart | undefined): string {
  return typeof part === "string" ? part : "";
}

/** The form for an entity of the table (a row clicked): its parts, nothing typed. */
export function quotaFormOf(entity: QuotaEntity): QuotaFormValues {
  if (entity.ip !== undefined) {
    return { ...EMPTY_QUOTA_FORM, target: "ip", ipMode: isDefaultPart(entity.ip) ? "default" : "name", ip: nameOf(entity.ip) };
  }
  return {
    ...EMPTY_QUOTA_FORM,
    userMode: modeOf(entity.user),
    user: nameOf(entity.user),
    clientMode: modeOf(entity.client_id),
    clientId: nameOf(entity.client_id),
  };
}

function partOf(mode: PartMode, name: string): QuotaEntityPart | undefined {
  if (mode === "default") return { default: true };
  if (mode === "name" && name.trim()) return name.trim();
  return undefined;
}

/** The entity the form names, or null while it names none (a name chosen but not typed). */
export function formEntity(values: QuotaFormValues): QuotaEntity | null {
  if (values.target === "ip") {
    const ip = partOf(values.ipMode, values.ip);
    return ip === undefined ? null : { ip };
  }
  if ((values.userMode === "name" && !values.user.trim()) || (values.clientMode === "name" && !values.clientId.trim())) return null;
  const entity: QuotaEntity = {};
  const user = partOf(values.userMode, values.user);
  const client = partOf(values.clientMode, values.clientId);
  if (user !== undefined) entity.user = user;
  if (client !== undefined) entity.client_id = client;
  return Object.keys(entity).length > 0 ? entity : null;
}

/** Where a problem shows: an entity part (or the entity as a whole), a key's row, or the change. */
export type QuotaFormField = EntityPart | "entity" | QuotaKey | "change";
export type QuotaFormErrors = Partial<Record<QuotaFormField, string[]>>;

function add(errors: QuotaFormErrors, field: QuotaFormField, message: string) {
  (errors[field] ??= []).push(message);
}

/** A typed value as a number, or why it is none. */
export function parseQuotaValue(key: QuotaKey, text: string): { ok: true; value: number } | { ok: false; error: string } {
  const trimmed = text.trim().replace(/[_,\s]/g, "");
  const value = Number(trimmed);
  if (!trimmed || !Number.isFinite(value)) return { ok: false, error: "Give a number." };
  if (!(value > 0)) return { ok: false, error: "Must be greater than 0 (remove the value instead to lift the limit)." };
  if (QUOTA_KEY_INFO[key].whole && !Number.isInteger(value)) {
    return { ok: false, error: `Give a whole number of ${QUOTA_KEY_INFO[key].unit}.` };
  }
  return { ok: true, value };
}

/** The keys typed that the change sets (those ticked for removal left out). */
function typedKeys(values: QuotaFormValues): QuotaKey[] {
  return keysFor(values.target).filter((key) => (values.values[key] ?? "").trim() !== "" && !values.remove.includes(key));
}

/** What the form lacks before anything is sent; {} when nothing. The server checks the rest. */
export function checkQuotaForm(values: QuotaFormValues): QuotaFormErrors {
  const errors: QuotaFormErrors = {};
  if (values.target === "ip") {
    if (values.ipMode === "name" && !values.ip.trim()) add(errors, "ip", "Give an IP address, or choose the default ip.");
  } else {
    if (values.userMode === "name" && !values.user.trim()) add(errors, "user", "Give the user name, or choose the default user.");
    if (values.clientMode === "name" && !values.clientId.trim()) {
      add(errors, "client_id", "Give the client id, or choose the default client id.");
    }
    if (values.userMode === "none" && values.clientMode === "none") add(errors, "entity", "Choose a user, a client id, or both.");
  }
  const typed = typedKeys(values);
  for (const key of typed) {
    const parsed = parseQuotaValue(key, values.values[key] ?? "");
    if (!parsed.ok) add(errors, key, parsed.error);
  }
  const removing = values.remove.filter((key) => keysFor(values.target).includes(key));
  if (typed.length === 0 && removing.length === 0) add(errors, "change", "Type a value to set, or tick one to remove.");
  return errors;
}

/** The PATCH body of a checked form: the typed values to set, the ticked keys to remove. */
export function quotaChangeBody(values: QuotaFormValues): QuotaChange {
  const entity = formEntity(values) ?? {};
  const set: Record<string, number> = {};
  for (const key of typedKeys(values)) {
    const parsed = parseQuotaValue(key, values.values[key] ?? "");
    if (parsed.ok) set[key] = parsed.value;
  }
  const keys = keysFor(values.target);
  return { entity, set, delete: keys.filter((key) => values.remove.includes(key)) };
}

export interface PlacedQuotaErrors {
  fields: QuotaFormErrors;
  /** What names no field of the form, and every answer but a 400. */
  banner: Error | null;
}

/** "Producer_byte_rate must be greater than 0." beside that key reads "Must be greater than 0.",
 * "… is not set on …" "Not set on …". */
function withoutKey(message: string, key: QuotaKey): string {
  const rest = message.replace(new RegExp(`^${key}\\s+(?:is\\s+(?=not\\b|both\\b|at most\\b))?`, "i"), "");
  return rest === message ? message : rest.charAt(0).toUpperCase() + rest.slice(1);
}

/**
 * A refusal's problems at their fields: `entity.user`, `entity.client_id`, `entity.ip` beside that
 * part (`entity` beside the entity), `set.<key>` and `delete[i]` (the i-th key of `body.delete`)
 * beside that key's row, `set` (nothing to change) under the keys; the rest (and every error that
 * is not a 400 with a field) in the banner.
 */
export function placeQuotaErrors(error: unknown, body: QuotaChange): PlacedQuotaErrors {
  if (!error) return { fields: {}, banner: null };
  const problems = fieldProblems(error);
  const asError = error instanceof Error ? error : new Error(String(error));
  if (problems.length === 0) return { fields: {}, banner: asError };
  const fields: QuotaFormErrors = {};
  const unplaced: string[] = [];
  for (const { path, message } of problems) {
    const [first, second] = parsePath(path);
    let field: QuotaFormField | null = null;
    if (first === "entity") {
      field = second === "user" || second === "client_id" || second === "ip" ? second : "entity";
    } else if (first === "set" && typeof second === "string" && isQuotaKey(second)) {
      field = second;
    } else if (first === "delete" && typeof second === "number") {
      const key = body.delete?.[second];
      field = key !== undefined && isQuotaKey(key) ? key : "change";
    } else if ((first === "set" || first === "delete") && second === undefined) {
      field = "change";
    }
    if (field === null) unplaced.push(message);
    else add(fields, field, isQuotaKey(field) ? withoutKey(message, field) : message);
  }
  if (unplaced.length === 0) return { fields, banner: null };
  const api = error as ApiError;
  return { fields, banner: new ApiError(api.status, api.code, unplaced.join(" "), api.details) };
}

// ---- a change's result ----

export interface QuotaDiffRow {
  key: string;
  /** null: not set. */
  before: number | null;
  after: number | null;
}

/** Every key set before or after a change (known keys in their order), with both values. */
export function quotaDiff(answer: Pick<QuotaChanged, "before" | "values">): QuotaDiffRow[] {
  return orderedKeys({ ...answer.before, ...answer.values }).map((key) => ({
    key,
    before: answer.before[key] ?? null,
    after: answer.values[key] ?? null,
  }));
}

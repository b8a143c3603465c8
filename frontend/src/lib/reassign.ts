// Partition reassignment in the browser (docs/reassignment.md): throttles in MiB/s (lib/format's
// binary units), the plan request of each of the form's three modes, a proposed plan edited row by
// row, the files kafka-reassign-partitions.sh reads, where a refusal's problems belong, and the
// progress page's states, sums and preferred leaders.
import { ApiError } from "../api/client";
import type {
  BrokerDetail,
  ElectionResult,
  PlanDocument,
  PlanMove,
  PlanRequest,
  Reassignment,
  ReassignmentPartition,
  ReassignmentState,
  SparkJobState,
  TopicPartitionRef,
} from "../api/types";
import type { Tone } from "../components/StatusBadge";
import type { ReassignPreset } from "../navigation";
import { fieldProblems, parsePath, plainMessage } from "./fieldErrors";
import { formatBytes } from "./format";
import { isRecord } from "./isRecord";

/** One MiB: the throttle's unit in the form (formatBytes' units are binary too). */
export const MIB = 1024 * 1024;
/** The server's bounds of a throttle in bytes/s (reassign/preview.py): 1 KiB/s … 10 GiB/s. */
export const MIN_THROTTLE = 1024;
export const MAX_THROTTLE = 10 * 1024 ** 3;

/** The file names of the downloads (what the CLI is then given with --reassignment-json-file). */
export const PLAN_FILE = "reassignment-plan.json";
export const ROLLBACK_FILE = "reassignment-rollback.json";

/** A value read from what was typed, or why it cannot be read. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const THROTTLE_RANGE = "from 0.001 MiB/s (1 KiB/s) to 10240 MiB/s (10 GiB/s)";

/** A throttle typed in MiB/s as bytes/s (whole); "" is no throttle (null). */
export function parseThrottle(text: string): Parsed<number | null> {
  const t = text.trim();
  if (t === "") return { ok: true, value: null };
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(t)) {
    return { ok: false, error: `Give the throttle in MiB/s, e.g. 50 (${THROTTLE_RANGE}), or leave it empty for none.` };
  }
  const bytes = Math.round(Number(t) * MIB);
  if (bytes < MIN_THROTTLE || bytes > MAX_THROTTLE) return { ok: false, error: `The throttle must be ${THROTTLE_RANGE}.` };
  return { ok: true, value: bytes };
}

/** A throttle that must be given (a running move's new one). */
export function parseRequiredThrottle(text: string): Parsed<number> {
  const parsed = parseThrottle(text);
  if (!parsed.ok) return parsed;
  if (parsed.value === null) return { ok: false, error: `Give the new throttle in MiB/s (${THROTTLE_RANGE}).` };
  return { ok: true, value: parsed.value };
}

/** Bytes/s as the throttle input shows them: MiB/s with at most 3 decimals ("" for none). */
export function throttleInputText(bytesPerSecond: number | null): string {
  if (bytesPerSecond === null) return "";
  return String(Math.round((bytesPerSecond / MIB) * 1000) / 1000);
}

/** "50.0 MiB/s", or "none". */
export function formatThrottle(bytesPerSecond: number | null): string {
  return bytesPerSecond === null ? "none" : `${formatBytes(bytesPerSecond)}/s`;
}

// ---- the form ----

export type ReassignMode = "topics" | "rf" | "json";

export const REASSIGN_MODES: readonly { mode: ReassignMode; label: string; help: string }[] = [
  {
    mode: "topics",
    label: "Spread topics over brokers",
    help:
      "Every partition of the chosen topics spread anew over the chosen brokers, rack-aware when each of them has a rack " +
      "(kafka-reassign-partitions.sh --generate).",
  },
  {
    mode: "rf",
    label: "Change replication factor",
    help:
      "Raise: the current replicas stay and the least loaded live brokers are added (another rack first). " +
      "Lower: replicas are dropped from the end, never the preferred leader.",
  },
  {
    mode: "json",
    label: "Plan JSON",
    help: "A plan in kafka-reassign-partitions.sh's JSON, pasted or loaded from a file.",
  },
];

/** The request's fields as the API names them (details.field of a 400): where each problem goes. */
export const REASSIGN_FIELDS = ["topics", "brokers", "topic", "replication_factor", "plan", "throttle_bytes_per_s", "reason"] as const;
export type ReassignField = (typeof REASSIGN_FIELDS)[number];

/** The fields each mode shows (the throttle and reason are always shown). */
export const MODE_FIELDS: Record<ReassignMode, readonly ReassignField[]> = {
  topics: ["topics", "brokers"],
  rf: ["topic", "replication_factor"],
  json: ["plan"],
};

/** Messages by field (ReassignField). */
export type ReassignErrors = Partial<Record<ReassignField, string[]>>;

export interface PlanInputs {
  mode: ReassignMode;
  /** topics mode: the chosen topics and brokers. */
  topics: readonly string[];
  brokers: readonly number[];
  /** rf mode: the topic and its new replication factor, as typed. */
  rfTopic: string;
  rf: string;
  /** json mode: the plan as typed. */
  json: string;
  /** MiB/s as typed; "" none. */
  throttle: string;
}

/** What was typed into the json mode's box as a plan document: JSON, an object with a partitions list. */
export function parsePlanJson(text: string): Parsed<PlanDocument> {
  if (text.trim() === "") return { ok: false, error: "Paste a plan, or load its file." };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `Not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (!isRecord(value) || !Array.isArray(value.partitions)) {
    return {
      ok: false,
      error: 'A plan is an object {"version": 1, "partitions": [{"topic", "partition", "replicas", "log_dirs"}, …]}.',
    };
  }
  return { ok: true, value: value as unknown as PlanDocument };
}

function add(errors: ReassignErrors, field: ReassignField, message: string) {
  (errors[field] ??= []).push(message);
}

/**
 * The plan request of the form's mode, or every problem found before sending (by field). The
 * request has exactly the fields of its mode (the API refuses a mix) and the throttle.
 */
export function buildPlanRequest(
  inputs: PlanInputs,
): { ok: true; body: PlanRequest } | { ok: false; errors: ReassignErrors } {
  const errors: ReassignErrors = {};
  const throttle = parseThrottle(inputs.throttle);
  if (!throttle.ok) add(errors, "throttle_bytes_per_s", throttle.error);
  const throttleValue = throttle.ok ? throttle.value : null;
  let body: PlanRequest | null = null;
  if (inputs.mode === "topics") {
    if (inputs.topics.length === 0) add(errors, "topics", "Choose at least one topic.");
    if (inputs.brokers.length === 0) add(errors, "brokers", "Choose at least one broker.");
    const brokers = [...inputs.brokers].sort((a, b) => a - b);
    body = { topics: [...inputs.topics].sort(), brokers, throttle_bytes_per_s: throttleValue };
  } else if (inputs.mode === "rf") {
    const topic = inputs.rfTopic.trim();
    const rf = inputs.rf.trim();
    if (topic === "") add(errors, "topic", "Choose a topic.");
    if (!/^\d+$/.test(rf) || Number(rf) < 1) {
      add(errors, "replication_factor", "Give the new replication factor as a whole number, at least 1.");
    }
    body = { topic, replication_factor: Number(rf), throttle_bytes_per_s: throttleValue };
  } else {
    const plan = parsePlanJson(inputs.json);
    if (!plan.ok) add(errors, "plan", plan.error);
    else body = { plan: plan.value, throttle_bytes_per_s: throttleValue };
  }
  return Object.keys(errors).length > 0 || body === null ? { ok: false, errors } : { ok: true, body };
}

/** The inputs of a mode that a preview was made from, to tell when they changed since (the throttle
 * is not among them: changing it previews again). */
export function inputsKey(inputs: PlanInputs): string {
  const { mode } = inputs;
  if (mode === "topics") return JSON.stringify([mode, [...inputs.topics].sort(), [...inputs.brokers].sort((a, b) => a - b)]);
  if (mode === "rf") return JSON.stringify([mode, inputs.rfTopic.trim(), inputs.rf.trim()]);
  return JSON.stringify([mode, inputs.json]);
}

/** The substring filter of the topic list (case-insensitive). */
export function filterTopicNames<T extends { name: string }>(topics: readonly T[], filter: string): readonly T[] {
  const needle = filter.trim().toLowerCase();
  return needle ? topics.filter((t) => t.name.toLowerCase().includes(needle)) : topics;
}

// ---- a preset from a link (navigation.ts reassignNewPath) ----

/** The preset a link asks for, as read from its query, and what in it is no preset. */
export interface PresetRequest {
  preset: ReassignPreset | null;
  /** What cannot be read, as said to the user ("drain “x” (not a broker id)"). */
  ignored: string[];
}

/** The Reassign tab's query: ?drain=<broker id>, else ?mode=rf&topic=<name>, else ?topics=a,b. */
export function readReassignPreset(search: URLSearchParams): PresetRequest {
  const drain = search.get("drain");
  if (drain !== null) {
    const id = drain.trim();
    return /^\d+$/.test(id)
      ? { preset: { drain: Number(id) }, ignored: [] }
      : { preset: null, ignored: [`drain “${drain}” (not a broker id)`] };
  }
  if (search.get("mode") === "rf") return { preset: { rfTopic: (search.get("topic") ?? "").trim() }, ignored: [] };
  const topics = search.get("topics");
  if (topics === null) return { preset: null, ignored: [] };
  const names = topics.split(",").map((t) => t.trim()).filter(Boolean);
  return { preset: { topics: [...new Set(names)] }, ignored: [] };
}

/** The new reassignment form's first inputs. */
export interface PresetForm {
  mode: ReassignMode;
  topics: string[];
  brokers: number[];
  rfTopic: string;
  /** The broker drained (its topics chosen, left out of the targets); null: none. */
  drain: number | null;
  /** Why some of the drained broker's topics may not be chosen (a log dir not read). */
  drainWarning: string | null;
  /** What the link named that the cluster does not have, as said to the user. */
  ignored: string[];
}

export const EMPTY_PRESET: PresetForm = {
  mode: "topics",
  topics: [],
  brokers: [],
  rfTopic: "",
  drain: null,
  drainWarning: null,
  ignored: [],
};

/** What a preset is checked against: undefined, what could not be loaded (then kept as given). */
export interface PresetSources {
  /** The cluster's topics. */
  topics: readonly { name: string }[] | undefined;
  /** The live brokers' ids. */
  brokers: readonly number[] | undefined;
  /** drain: the drained broker (GET …/brokers/{id}), or why it could not be read. */
  drained?: Pick<BrokerDetail, "log_dirs" | "log_dirs_error"> | Error;
}

/** The topics a broker holds a replica of (its log dirs'), sorted. */
export function brokerTopics(detail: Pick<BrokerDetail, "log_dirs">): string[] {
  return [...new Set(detail.log_dirs.flatMap((d) => d.replicas.map((r) => r.topic)))].sort();
}

/** Why a drained broker's topics may be missing: its log dirs not read, or some of them offline. */
function drainWarning(id: number, drained: PresetSources["drained"]): string | null {
  if (drained === undefined) return null;
  if (drained instanceof Error) return `Could not read broker ${id}'s replicas (${drained.message}): choose its topics yourself.`;
  if (drained.log_dirs_error !== null) {
    return `Broker ${id}'s log dirs could not be read (${drained.log_dirs_error}): choose its topics yourself.`;
  }
  const offline = drained.log_dirs.filter((d) => d.error !== null);
  if (offline.length === 0) return null;
  const dirs = offline.map((d) => `${d.path} (${d.error})`).join(", ");
  return `Not read: ${offline.length === 1 ? "log dir" : "log dirs"} ${dirs}. A topic with replicas only there is not chosen.`;
}

/**
 * The form's first inputs from a link's preset, checked against the cluster: a drain chooses every
 * topic the broker holds and every other live broker; topics or a topic it does not have, or a
 * broker that is not live, are left out and named in `ignored`.
 */
export function presetForm(request: PresetRequest, sources: PresetSources): PresetForm {
  const { preset } = request;
  const form: PresetForm = { ...EMPTY_PRESET, ignored: [...request.ignored] };
  if (preset === null) return form;
  const known = sources.topics && new Set(sources.topics.map((t) => t.name));
  const unknownTopic = (name: string) => {
    if (!known || known.has(name)) return false;
    form.ignored.push(`topic “${name}” (not a topic of this cluster)`);
    return true;
  };
  if ("drain" in preset) {
    const id = preset.drain;
    const { drained } = sources;
    const notLive =
      (sources.brokers !== undefined && !sources.brokers.includes(id)) ||
      (drained instanceof ApiError && drained.status === 404);
    if (notLive) {
      form.ignored.push(`broker ${id} (not a live broker)`);
      return form;
    }
    form.drain = id;
    form.topics = drained && !(drained instanceof Error) ? brokerTopics(drained) : [];
    form.brokers = (sources.brokers ?? []).filter((b) => b !== id);
    form.drainWarning = drainWarning(id, drained);
    return form;
  }
  if ("rfTopic" in preset) {
    form.mode = "rf";
    form.rfTopic = preset.rfTopic && !unknownTopic(preset.rfTopic) ? preset.rfTopic : "";
    return form;
  }
  form.topics = preset.topics.filter((name) => !unknownTopic(name));
  return form;
}

// ---- the preview ----

/** A list of broker ids as typed ("2, 3" or "2 3"): whole numbers, at least one, each once. */
export function parseReplicaList(text: string): Parsed<number[]> {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  if (parts.length === 0) return { ok: false, error: "Give at least one broker id." };
  const bad = parts.find((p) => !/^\d+$/.test(p));
  if (bad !== undefined) return { ok: false, error: `“${bad}” is not a broker id.` };
  const ids = parts.map(Number);
  const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
  if (repeated !== undefined) return { ok: false, error: `Broker ${repeated} is listed twice.` };
  return { ok: true, value: ids };
}

/** "1, 2, 3". */
export function replicaText(ids: readonly number[]): string {
  return ids.join(", ");
}

function sameList(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The move changes nothing: the same replicas in the same order. */
export function isUnchanged(move: Pick<PlanMove, "from" | "to">): boolean {
  return sameList(move.from, move.to);
}

/**
 * `doc` with one partition's replicas replaced (a new document; the others untouched). A broker
 * that keeps its replica keeps its log dir; a new one gets "any" (the plan's log_dirs must be as
 * long as its replicas).
 */
export function withReplicas(doc: PlanDocument, topic: string, partition: number, replicas: readonly number[]): PlanDocument {
  return {
    ...doc,
    partitions: doc.partitions.map((p) => {
      if (p.topic !== topic || p.partition !== partition) return p;
      const dirOf = (broker: number) => {
        const index = p.replicas.indexOf(broker);
        return index >= 0 ? (p.log_dirs[index] ?? "any") : "any";
      };
      return { ...p, replicas: [...replicas], log_dirs: replicas.map(dirOf) };
    }),
  };
}

/** A partition's copy time at the throttle: its leader sends every new replica's bytes at most
 * that fast (the server's rule for the total). Null when its bytes or the throttle are unknown. */
export function moveSeconds(move: Pick<PlanMove, "bytes" | "adding">, throttle: number | null): number | null {
  if (move.adding.length === 0) return 0;
  if (move.bytes === null || throttle === null || throttle <= 0) return null;
  return Math.ceil(move.bytes / throttle);
}

/** How many of the plan's partitions move (change replicas), and over how many topics. */
export function planCounts(moves: readonly PlanMove[]): { moving: number; unchanged: number; topics: number } {
  const changed = moves.filter((m) => !isUnchanged(m));
  return {
    moving: changed.length,
    unchanged: moves.length - changed.length,
    topics: new Set(changed.map((m) => m.topic)).size,
  };
}

/** A plan document as the file the CLI reads: the document exactly, pretty-printed. */
export function planFileText(doc: PlanDocument): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** A link's href that downloads `text` as a JSON file (no request: the document is on the page). */
export function jsonDownloadHref(text: string): string {
  return `data:application/json;charset=utf-8,${encodeURIComponent(text)}`;
}

// ---- refusals ----

export interface PlacedReassignErrors {
  fields: ReassignErrors;
  /** What names no field of the form, and every other failure (409, 403, Kafka away…). */
  banner: Error | null;
}

function isField(name: string | undefined): name is ReassignField {
  return name !== undefined && (REASSIGN_FIELDS as readonly string[]).includes(name);
}

/**
 * A refusal's problems beside their fields: a 400's (details.field, or each of details.errors)
 * at its field's first part ("plan.partitions[0]" → "plan"), without the field in front; a 404
 * topic_not_found at its details.field ("topics", "topic" or "plan"); the rest,
 * and any other failure, in the banner.
 */
export function placeReassignErrors(error: unknown): PlacedReassignErrors {
  if (!error) return { fields: {}, banner: null };
  const fields: ReassignErrors = {};
  if (error instanceof ApiError && error.status === 404 && error.code === "topic_not_found") {
    const field = error.details.field;
    if (typeof field === "string" && isField(field)) {
      add(fields, field, plainMessage(error.message, field));
      return { fields, banner: null };
    }
  }
  const problems = fieldProblems(error);
  const unplaced: string[] = [];
  for (const p of problems) {
    const first = parsePath(p.path)[0];
    if (typeof first === "string" && isField(first)) add(fields, first, p.message);
    else unplaced.push(p.message);
  }
  if (problems.length === 0) return { fields, banner: error instanceof Error ? error : new Error(String(error)) };
  return { fields, banner: unplaced.length > 0 ? new Error(unplaced.join(" ")) : null };
}

// ---- a reassignment's progress ----

const STATES: Record<ReassignmentState, { tone: Tone; help: string; bar: SparkJobState }> = {
  running: { tone: "info", help: "Kafka is copying the new replicas.", bar: "running" },
  completed: { tone: "ok", help: "Every partition has its new replicas; the throttles were removed.", bar: "succeeded" },
  cancelled: {
    tone: "warn",
    help: "Cancelled: the partitions still moving kept their old replicas; the throttles were removed.",
    bar: "cancelled",
  },
  failed: { tone: "error", help: "The replicas are not the plan's (changed by someone else), or Kafka refused.", bar: "failed" },
};

export function reassignmentStateTone(state: ReassignmentState): Tone {
  return STATES[state]?.tone ?? "neutral";
}

export function reassignmentStateHelp(state: ReassignmentState): string {
  return STATES[state]?.help ?? "";
}

/** The colour of a progress bar (ProgressBar's states): striped blue while running, green, amber, red. */
export function reassignmentBarState(state: ReassignmentState): SparkJobState {
  return STATES[state]?.bar ?? "running";
}

const PARTITION_STATES: Record<ReassignmentPartition["state"], { tone: Tone; help: string; bar: SparkJobState }> = {
  moving: { tone: "info", help: "Kafka is copying its new replicas.", bar: "running" },
  done: { tone: "ok", help: "It has the plan's replicas.", bar: "succeeded" },
  reverted: { tone: "warn", help: "Cancelled: it kept its old replicas.", bar: "cancelled" },
  changed: { tone: "error", help: "Its replicas are neither the old nor the plan's: changed by someone else.", bar: "failed" },
};

export function partitionStateTone(state: ReassignmentPartition["state"]): Tone {
  return PARTITION_STATES[state]?.tone ?? "neutral";
}

export function partitionStateHelp(state: ReassignmentPartition["state"]): string {
  return PARTITION_STATES[state]?.help ?? "";
}

export function partitionBarState(state: ReassignmentPartition["state"]): SparkJobState {
  return PARTITION_STATES[state]?.bar ?? "running";
}

/** The partitions of topics whose name has `filter` (case-insensitive), only those still moving on request. */
export function filterPartitions<T extends Pick<ReassignmentPartition, "topic" | "state">>(
  partitions: readonly T[],
  filter: string,
  movingOnly: boolean,
): readonly T[] {
  const needle = filter.trim().toLowerCase();
  if (!needle && !movingOnly) return partitions;
  return partitions.filter((p) => (!needle || p.topic.toLowerCase().includes(needle)) && (!movingOnly || p.state === "moving"));
}

/** Copied of total as 0..1; nothing to copy is all copied. */
export function copiedFraction(copied: number, total: number): number {
  if (!(total > 0)) return 1;
  return Math.min(1, Math.max(0, copied / total));
}

/** A reassignment's share copied: all of it once completed (a new replica may end up smaller
 * than the leader was when planned: retention deletes while it copies). */
export function reassignmentFraction(r: Pick<Reassignment, "state" | "bytes_copied" | "bytes_total">): number {
  return r.state === "completed" ? 1 : copiedFraction(r.bytes_copied, r.bytes_total);
}

/** A partition's share copied: all of it once done. */
export function partitionFraction(p: Pick<ReassignmentPartition, "state" | "bytes_copied" | "bytes_total">): number {
  return p.state === "done" ? 1 : copiedFraction(p.bytes_copied, p.bytes_total);
}

/** The partitions whose leader (known) is not their first target replica, the preferred leader. */
export function notPreferredLeaders(partitions: readonly ReassignmentPartition[]): TopicPartitionRef[] {
  return partitions
    .filter((p) => p.leader !== null && p.to.length > 0 && p.leader !== p.to[0])
    .map((p) => ({ topic: p.topic, partition: p.partition }));
}

/** How many partitions each outcome of a leader election had. */
export function electionCounts(rows: readonly ElectionResult[]): Record<ElectionResult["outcome"], number> {
  const counts = { elected: 0, not_needed: 0, failed: 0 };
  for (const r of rows) counts[r.outcome] += 1;
  return counts;
}

/** "orders, payments, audit +2". */
export function topicsSummary(topics: readonly string[], shown = 3): string {
  const head = topics.slice(0, shown).join(", ");
  return topics.length > shown ? `${head} +${topics.length - shown}` : head;
}

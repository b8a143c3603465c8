// The Messages tab's pure parts: its view as the URL query keeps it, the API query built from it,
// and how a record, its bytes and a scan are told (docs/messages.md).
import type {
  Decoded,
  MessageDirection,
  MessageFormat,
  MessageIsolation,
  MessagePosition,
  MessageQuery,
  MessageRecord,
  MessageScan,
} from "../api/messages";
import { plainMessage } from "./fieldErrors";
import { formatCount } from "./format";
import { UTC_ZONE, zonedToInstant } from "./time";

export const POSITIONS: { value: MessagePosition; label: string }[] = [
  { value: "latest", label: "Latest" },
  { value: "earliest", label: "Earliest" },
  { value: "offset", label: "Offset" },
  { value: "timestamp", label: "Date and time" },
];

/** Every decoder; avro and protobuf need a Schema Registry (not configured in this version). */
export const FORMATS: { value: MessageFormat; label: string; disabled?: boolean }[] = [
  { value: "auto", label: "auto" },
  { value: "json", label: "json" },
  { value: "text", label: "text" },
  { value: "bytes", label: "bytes" },
  { value: "int", label: "int (4 bytes)" },
  { value: "long", label: "long (8 bytes)" },
  { value: "double", label: "double (8 bytes)" },
  { value: "msgpack", label: "msgpack" },
  { value: "avro", label: "avro — needs a Schema Registry" },
  { value: "protobuf", label: "protobuf — needs a Schema Registry" },
];

export const PAGE_SIZES = [20, 50, 100, 200, 500] as const;
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;

/** The filter examples offered under the box (docs/messages.md). */
export const FILTER_EXAMPLES = [
  "value.amount > 6000",
  'key.startsWith("truck-")',
  'headers["trace-id"] == "x"',
  'timestamp > timestamp("2026-11-27T08:00:00Z")',
];

/** What the tab shows, as its URL query keeps it (a link reproduces the view). */
export interface MessageView {
  position: MessagePosition;
  /** As typed (position offset). */
  offset: string;
  /** The wall-clock date-time as typed and its zone (position timestamp). */
  datetime: string;
  zone: string;
  /** "" : the server's default (backward for latest, forward otherwise). */
  direction: MessageDirection | "";
  /** "" for every partition, else "0, 2, 5-7". */
  partitions: string;
  limit: number;
  keyFormat: MessageFormat;
  valueFormat: MessageFormat;
  isolation: MessageIsolation;
  filter: string;
  /** A page's next_cursor or prev_cursor: replaces position, partitions and direction. */
  cursor: string;
  /** The direction of the page the cursor reads (for the Newer / Older labels). */
  cursorDirection: MessageDirection;
}

export const DEFAULT_VIEW: MessageView = {
  position: "latest",
  offset: "",
  datetime: "",
  zone: UTC_ZONE,
  direction: "",
  partitions: "",
  limit: DEFAULT_LIMIT,
  keyFormat: "auto",
  valueFormat: "auto",
  isolation: "read_committed",
  filter: "",
  cursor: "",
  cursorDirection: "backward",
};

/** The URL query's names of the view's fields (`tab=messages` is the topic page's). */
const KEYS = {
  position: "pos",
  offset: "offset",
  datetime: "at",
  zone: "tz",
  direction: "dir",
  partitions: "p",
  limit: "limit",
  keyFormat: "kf",
  valueFormat: "vf",
  isolation: "iso",
  filter: "filter",
  cursor: "cursor",
  cursorDirection: "cdir",
} as const satisfies Record<keyof MessageView, string>;

function oneOf<T extends string>(value: string | null, allowed: readonly T[], fallback: T): T {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

const FORMAT_VALUES = FORMATS.map((f) => f.value);
const DIRECTIONS: MessageDirection[] = ["forward", "backward"];

/** The view of a URL query (anything missing or unknown: the default). */
export function viewFromParams(params: URLSearchParams): MessageView {
  const limit = Number(params.get(KEYS.limit));
  return {
    position: oneOf(params.get(KEYS.position), POSITIONS.map((p) => p.value), "latest"),
    offset: params.get(KEYS.offset) ?? "",
    datetime: params.get(KEYS.datetime) ?? "",
    zone: params.get(KEYS.zone) || UTC_ZONE,
    direction: oneOf<MessageDirection | "">(params.get(KEYS.direction), DIRECTIONS, ""),
    partitions: params.get(KEYS.partitions) ?? "",
    limit: Number.isInteger(limit) && limit >= 1 && limit <= MAX_LIMIT ? limit : DEFAULT_LIMIT,
    keyFormat: oneOf(params.get(KEYS.keyFormat), FORMAT_VALUES, "auto"),
    valueFormat: oneOf(params.get(KEYS.valueFormat), FORMAT_VALUES, "auto"),
    isolation: oneOf<MessageIsolation>(params.get(KEYS.isolation), ["read_committed", "read_uncommitted"], "read_committed"),
    filter: params.get(KEYS.filter) ?? "",
    cursor: params.get(KEYS.cursor) ?? "",
    cursorDirection: oneOf(params.get(KEYS.cursorDirection), DIRECTIONS, "backward"),
  };
}

/** The URL query's changes that show `view` (null removes a key: the default, or not used). */
export function viewToParams(view: MessageView): Record<string, string | null> {
  // The position stays beside a cursor: "Read" and a new filter start from it again.
  return {
    [KEYS.position]: view.position !== "latest" ? view.position : null,
    [KEYS.offset]: view.position === "offset" ? view.offset : null,
    [KEYS.datetime]: view.position === "timestamp" ? view.datetime : null,
    [KEYS.zone]: view.position === "timestamp" && view.zone !== UTC_ZONE ? view.zone : null,
    [KEYS.direction]: view.direction || null,
    [KEYS.partitions]: view.partitions.trim() || null,
    [KEYS.limit]: view.limit !== DEFAULT_LIMIT ? String(view.limit) : null,
    [KEYS.keyFormat]: view.keyFormat !== "auto" ? view.keyFormat : null,
    [KEYS.valueFormat]: view.valueFormat !== "auto" ? view.valueFormat : null,
    [KEYS.isolation]: view.isolation !== "read_committed" ? view.isolation : null,
    [KEYS.filter]: view.filter.trim() || null,
    [KEYS.cursor]: view.cursor || null,
    [KEYS.cursorDirection]: view.cursor ? view.cursorDirection : null,
  };
}

/** The URL query keys the tab owns (removed when another tab is shown). */
export const VIEW_KEYS: readonly string[] = Object.values(KEYS);

/**
 * "0, 2, 5-7" as partition numbers, sorted, each once; [] for "" (every partition). A number the
 * topic does not have (0..count-1, when known) or anything else unreadable is an error sentence.
 */
export function parsePartitions(text: string, count: number | null): number[] | string {
  const out = new Set<number>();
  for (const part of text.split(/[\s,]+/).filter(Boolean)) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!range) return `“${part}” is not a partition number or a range like 3-5.`;
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    if (to < from) return `“${part}”: the range goes backwards.`;
    if (count !== null && to >= count) {
      return `The topic has partitions 0 to ${count - 1}; there is no partition ${to}.`;
    }
    for (let p = from; p <= to; p += 1) out.add(p);
  }
  return [...out].sort((a, b) => a - b);
}

/** The direction of the page `view` reads: the cursor's, else the chosen one or the server's default. */
export function pageDirection(view: MessageView): MessageDirection {
  if (view.cursor) return view.cursorDirection;
  return view.direction || (view.position === "latest" ? "backward" : "forward");
}

/** The API query that reads `view`, or what is wrong with its controls (by control). */
export function buildQuery(view: MessageView, partitionCount: number | null): { query: MessageQuery } | { errors: Partial<Record<"offset" | "timestamp" | "partitions", string>> } {
  const common: MessageQuery = {
    limit: view.limit,
    key_format: view.keyFormat === "auto" ? undefined : view.keyFormat,
    value_format: view.valueFormat === "auto" ? undefined : view.valueFormat,
    isolation: view.isolation === "read_committed" ? undefined : view.isolation,
    filter: view.filter.trim() || undefined,
  };
  // A cursor says where to read: position, partitions and direction go with it.
  if (view.cursor) return { query: { cursor: view.cursor, ...common } };
  const errors: Partial<Record<"offset" | "timestamp" | "partitions", string>> = {};
  const query: MessageQuery = { position: view.position === "latest" ? undefined : view.position, ...common };
  if (view.direction) query.direction = view.direction;
  const partitions = parsePartitions(view.partitions, partitionCount);
  if (typeof partitions === "string") errors.partitions = partitions;
  else if (partitions.length) query.partition = partitions;
  if (view.position === "offset") {
    const text = view.offset.trim();
    if (!/^\d{1,19}$/.test(text)) errors.offset = "Give an offset: a whole number, 0 or more.";
    else query.offset = Number(text);
  }
  if (view.position === "timestamp") {
    const at = zonedToInstant(view.datetime, view.zone);
    if (!at) errors.timestamp = "Give a date and time (as 2026-11-27 08:00:00).";
    else query.timestamp = at.iso;
  }
  return Object.keys(errors).length ? { errors } : { query };
}

/** Why a page ended, in words. */
export function stoppedByText(scan: MessageScan, filtered: boolean): string {
  const scanned = `${formatCount(scan.scanned)} ${scan.scanned === 1 ? "record" : "records"}`;
  switch (scan.stopped_by) {
    case "limit":
      return "The page is full.";
    case "end":
      return "Reached the end of every chosen partition.";
    case "records":
      return filtered
        ? `Stopped after ${scanned} examined: the next page goes on from there.`
        : `A partition's read ran out first (${scanned} read): the next page goes on from there.`;
    case "bytes":
      return `Stopped after reading 64 MiB (${scanned}): the next page goes on from there.`;
    case "time":
      return `Stopped after 5 seconds (${scanned}): the next page goes on from there.`;
    default:
      return `Stopped (${scan.stopped_by}).`;
  }
}

/** Base64 text as bytes (null when it is not base64). */
export function base64ToBytes(text: string): Uint8Array | null {
  try {
    const raw = atob(text);
    const out = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i += 1) out[i] = raw.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

/** "7b 22 61 22 …": bytes as hex, 16 to a line. */
export function hexDump(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let i = 0; i < bytes.length; i += 16) {
    const row = Array.from(bytes.subarray(i, i + 16), (b) => b.toString(16).padStart(2, "0"));
    lines.push(`${i.toString(16).padStart(8, "0")}  ${row.join(" ")}`);
  }
  return lines.join("\n");
}

/** A decoded value as one line of text (the table's preview; the drawer pretty-prints). */
export function previewText(decoded: Decoded | null): string {
  if (decoded === null) return "null";
  const { data } = decoded;
  if (typeof data === "string") return data.replace(/\s+/g, " ");
  return JSON.stringify(data) ?? String(data);
}

/** A decoded value as the drawer shows it: JSON indented, text as it is. */
export function prettyText(decoded: Decoded | null): string {
  if (decoded === null) return "null";
  const { data, format } = decoded;
  if (typeof data === "string" && format !== "json") return data;
  return JSON.stringify(data, null, 2) ?? String(data);
}

/** The value's bytes to download: the raw bytes of base64 (bytes), else the text as shown. */
export function downloadBody(decoded: Decoded | null): { bytes: Uint8Array | null; text: string } {
  if (decoded !== null && decoded.format === "bytes" && typeof decoded.data === "string") {
    return { bytes: base64ToBytes(decoded.data), text: decoded.data };
  }
  const text = decoded === null ? "" : typeof decoded.data === "string" ? decoded.data : JSON.stringify(decoded.data) ?? "";
  return { bytes: null, text };
}

/** The kcat command that reads this one record again. */
export function kcatCommand(bootstrap: string, topic: string, record: Pick<MessageRecord, "partition" | "offset">): string {
  return `kcat -C -b ${shellWord(bootstrap)} -t ${shellWord(topic)} -p ${record.partition} -o ${record.offset} -c 1`;
}

function shellWord(text: string): string {
  return /^[\w.,:/@=+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Decoders shown as a badge next to a value (json and text go without). */
export function showsFormatBadge(decoded: Decoded | null): boolean {
  return decoded !== null && decoded.format !== "json" && decoded.format !== "text";
}

/** Where a filter's syntax error is, from a 400's details (line and column count from 1). */
export function filterErrorPlace(details: Record<string, unknown>): { line: number; column: number } | null {
  const { line, column } = details;
  return typeof line === "number" && typeof column === "number" ? { line, column } : null;
}

/**
 * A filter's refusal in plain words: without the parser's list of what it expected, nor the line
 * and column when they are pointed at under the expression.
 */
export function filterErrorText(message: string, placed: boolean): string {
  let text = plainMessage(message, "filter").replace(/\s*expecting \{[^}]*\}/, "");
  if (placed) text = text.replace(/\s*\(line \d+, column \d+\)\.?\s*$/, ".");
  return text.replace(/\.\.$/, ".");
}

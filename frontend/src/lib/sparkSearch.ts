// The Messages tab's hand-off to Spark (docs/messages.md, "The Messages tab"): when a filtered
// scan stopped at a budget, the same filter and decoders over the tab's range as a `topic-search`
// job (docs/spark-jobs.md), and the job's result read back as the tab's records.
import type { Decoded, MessageHeader, MessageRecord } from "../api/messages";
import type { MessageView } from "./messages";
import { isRecord } from "./isRecord";
import { parsePartitions } from "./messages";
import { zonedToInstant } from "./time";

export const SEARCH_JOB_TYPE = "topic-search";

/** The `params` of a topic-search job (its params schema: jobTypes.gen.json). */
export interface SearchParams {
  topic: string;
  filter: string;
  key_format: string;
  value_format: string;
  partitions?: number[];
  start_offset?: number;
  end_offset?: number;
  start_time?: string;
  end_time?: string;
}

/** The job's params for the tab's view, with the range in words (the button's tooltip); or why
 * it cannot be searched (no filter, a control the tab itself refuses). */
export type SearchPlan = { params: SearchParams; range: string } | { reason: string };

/**
 * The tab's view as topic-search params. The range follows the chosen position (also after
 * "Go on": the cursor only says where the page was) and its direction, since the job reads
 * forward only: earliest or latest → the whole retained range (Spark has no "last N"); forward
 * from an offset or a time → start_offset / start_time; backward from them → what is before:
 * end_offset (exclusive, so the offset itself is in) / end_time (exclusive, as the tab's "the
 * records before it"). The end is the log end when the job starts.
 */
export function searchPlan(view: MessageView, topic: string, partitionCount: number | null): SearchPlan {
  const filter = view.filter.trim();
  if (!filter) return { reason: "Only a filtered scan can be handed to Spark." };
  const params: SearchParams = { topic, filter, key_format: view.keyFormat, value_format: view.valueFormat };
  const partitions = parsePartitions(view.partitions, partitionCount);
  if (typeof partitions === "string") return { reason: partitions };
  if (partitions.length) params.partitions = partitions;
  const which = partitions.length ? `partition${partitions.length === 1 ? "" : "s"} ${partitions.join(", ")}` : "every partition";
  const backward = (view.direction || "forward") === "backward";
  let range: string;
  switch (view.position) {
    case "offset": {
      const text = view.offset.trim();
      if (!/^\d{1,19}$/.test(text)) return { reason: "Give an offset: a whole number, 0 or more." };
      const offset = Number(text);
      if (backward) {
        params.end_offset = offset + 1;
        range = `${which}, from the log start up to offset ${offset}`;
      } else {
        params.start_offset = offset;
        range = `${which}, from offset ${offset} to the log end`;
      }
      break;
    }
    case "timestamp": {
      const at = zonedToInstant(view.datetime, view.zone);
      if (!at) return { reason: "Give a date and time (as 2026-11-27 08:00:00)." };
      if (backward) {
        params.end_time = at.iso;
        range = `${which}, from the log start up to ${at.iso}`;
      } else {
        params.start_time = at.iso;
        range = `${which}, from ${at.iso} to the log end`;
      }
      break;
    }
    case "latest":
      range = `${which}, the whole retained range (from the log start to the log end when the job starts): Spark reads forward, so "Latest" has no last few records there`;
      break;
    default:
      range = `${which}, from the log start to the log end when the job starts`;
  }
  return { params, range };
}

/** A finished topic-search's result (its result schema), read defensively. */
export interface SearchResult {
  records: number;
  matched: number;
  truncated: boolean;
  filterErrors: number;
  filterError: string | null;
  /** The listed matches in the shape the messages API gives records. */
  matches: MessageRecord[];
  /** Where every match was written as Parquet (null when the result does not say). */
  outputPath: string | null;
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

function decoded(value: unknown): Decoded | null {
  if (!isRecord(value)) return null;
  return {
    format: String(value.format ?? "bytes"),
    data: value.data ?? null,
    size: count(value.size),
    schema_id: typeof value.schema_id === "number" ? value.schema_id : null,
    note: typeof value.note === "string" ? value.note : null,
  } as Decoded;
}

function headers(value: unknown): MessageHeader[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((h) => ({ key: String(h.key ?? ""), value: decoded(h.value) }) as MessageHeader);
}

/** One listed match as a record of the messages API (the table and the record's drawer take it):
 * its timestamp said in ISO as the API does; the type is not in the job's result. */
export function matchToRecord(match: unknown): MessageRecord | null {
  if (!isRecord(match) || typeof match.partition !== "number" || typeof match.offset !== "number") return null;
  const ms = typeof match.timestamp_ms === "number" && Number.isFinite(match.timestamp_ms) ? match.timestamp_ms : null;
  return {
    partition: match.partition,
    offset: match.offset,
    timestamp: ms === null ? null : new Date(ms).toISOString(),
    timestamp_ms: ms,
    timestamp_type: null,
    key: decoded(match.key),
    value: decoded(match.value),
    headers: headers(match.headers),
  };
}

/** A topic-search job's result, or null when it has none (not finished, another shape). */
export function readSearchResult(result: unknown): SearchResult | null {
  if (!isRecord(result)) return null;
  const matches = Array.isArray(result.matches)
    ? result.matches.map(matchToRecord).filter((r): r is MessageRecord => r !== null)
    : [];
  return {
    records: count(result.records),
    matched: count(result.matched),
    truncated: result.truncated === true,
    filterErrors: count(result.filter_errors),
    filterError: typeof result.filter_error === "string" ? result.filter_error : null,
    matches,
    outputPath: typeof result.output_path === "string" && result.output_path ? result.output_path : null,
  };
}

// A topic's records: GET clusters/{cluster}/topics/{topic}/messages (docs/messages.md), its
// types and its TanStack Query options with their own keys (the Messages tab of the topic page).
// The path, the query's names and the answer are the generated schema's (paths.ts, schema.gen.ts);
// the call builds its own query string because `partition` repeats (partition=0&partition=2),
// which the client's one-value-per-name query cannot say.
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { apiRequest } from "./client";
import type { ErrorMessage } from "./live";
import { fillPath, typedApi, type ApiPath, type Operation } from "./paths";
import type { components } from "./schema.gen";

type Schemas = components["schemas"];

const MESSAGES_PATH = "clusters/{cluster}/topics/{topic}/messages" satisfies ApiPath;

type SchemaQuery = NonNullable<NonNullable<Operation<typeof MESSAGES_PATH, "get">["parameters"]>["query"]>;

/** The query of a page of records: the schema's, with `filter` (a CEL expression) spelled out. */
export type MessageQuery = Omit<SchemaQuery, "filter"> & { filter?: string };

export type MessagePosition = NonNullable<SchemaQuery["position"]>;
export type MessageDirection = NonNullable<SchemaQuery["direction"]>;
export type MessageIsolation = NonNullable<SchemaQuery["isolation"]>;
/** A decoder to ask for (auto picks one). */
export type MessageFormat = NonNullable<SchemaQuery["value_format"]>;

/** Key, value or a header value, decoded: `format` is the decoder used, `note` why not the one asked. */
export type Decoded = Schemas["Decoded"];
export type MessageHeader = Schemas["Header"];
export type MessageRecord = Schemas["Record"];

/** How far a page's read went; `filter_errors` / `filter_error` come with a filter. */
export type MessageScan = Omit<Schemas["Scan"], "stopped_by"> & {
  /** limit, end, or a budget: records, bytes, time. */
  stopped_by: string;
  filter_errors?: number;
  filter_error?: string | null;
};

export type MessagePage = Omit<Schemas["MessagePage"], "scan"> & { scan: MessageScan };

/** The query string of `query`: each value once, `partition` once per partition. */
export function messageSearch(query: MessageQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === "") continue;
    if (Array.isArray(value)) for (const item of value) params.append(name, String(item));
    else params.set(name, String(value));
  }
  return params;
}

/** A page of `topic`'s records (viewer). A 400 names its parameter (`details.field`); a filter's
 * syntax error has `details.line` and `details.column`. */
export function getMessages(cluster: string, topic: string, query: MessageQuery, signal?: AbortSignal): Promise<MessagePage> {
  const qs = messageSearch(query).toString();
  const path = fillPath(MESSAGES_PATH, { cluster, topic });
  return apiRequest<MessagePage>(qs ? `${path}?${qs}` : path, { signal });
}

/** The cache keys of the Messages tab (beside queryKeys.ts's, under their own root). */
export const messageKeys = {
  all: () => ["messages"] as const,
  topic: (cluster: string, topic: string) => ["messages", cluster, topic] as const,
  page: (cluster: string, topic: string, query: MessageQuery) => ["messages", cluster, topic, query] as const,
};

/**
 * One page of records: read when the query changes (or comes back: a cached page shows while it is
 * read again), never polled nor refetched on focus (a filtered page may scan 100,000 records). The
 * page shown stays while the next one loads. "Read again" refetches.
 */
export const messagesQuery = (cluster: string, topic: string, query: MessageQuery) =>
  queryOptions({
    queryKey: messageKeys.page(cluster, topic, query),
    queryFn: ({ signal }) => getMessages(cluster, topic, query, signal),
    refetchOnWindowFocus: false,
    placeholderData: keepPreviousData,
  });

/** A part of a produced record as the API takes it: `{format, data}` (docs/messages.md, "Producing"). */
export type ProducePart = Schemas["Part"];
export type WriteFormat = ProducePart["format"];
/** The body of POST clusters/{cluster}/topics/{topic}/messages. */
export type ProduceBody = Schemas["Produce"];
/** Where the record went: partition, offset and its timestamp (ISO-8601). */
export type Produced = Schemas["Produced"];

/** Produces one record (operator; audited without its content). A 400 names its field
 * (`details.field`: "key.data", "headers[1].value.format", "partition"). JSON, with the session's
 * CSRF token like every SPA write (client.ts). */
export function produceMessage(cluster: string, topic: string, body: ProduceBody): Promise<Produced> {
  return typedApi.post(MESSAGES_PATH, { path: { cluster, topic }, body });
}

// --- The messages socket (docs/messages.md, "Streaming scans and the live tail") -------------

/** `/ws/clusters/{cluster}/topics/{topic}/messages`: streamed scans and the live tail (viewer). */
export function messagesSocketPath(cluster: string, topic: string): string {
  return `/ws/clusters/${encodeURIComponent(cluster)}/topics/${encodeURIComponent(topic)}/messages`;
}

/** What a tail follows: the GET query's names, `partition` a list (none: every partition). */
export interface TailRequest {
  partition?: number[];
  filter?: string;
  key_format?: MessageFormat;
  value_format?: MessageFormat;
  isolation?: MessageIsolation;
}

/** The tail started at each partition's end as it was then. */
export interface TailingMessage {
  type: "tailing";
  partitions: number[];
}
/** New records (a scan's matches too), in the order they were read. */
export interface RecordsMessage {
  type: "records";
  records: MessageRecord[];
}
/** Records over the tail's rate in the last second: not sent, only counted. */
export interface DroppedMessage {
  type: "dropped";
  count: number;
}
/** A scan ended, or a cancel was answered (stopped_by "cancelled"; null when nothing ran). */
export interface DoneMessage {
  type: "done";
  stopped_by: string | null;
  next_cursor?: string | null;
}
export type MessagesSocketMessage = TailingMessage | RecordsMessage | DroppedMessage | DoneMessage | ErrorMessage;

// A topic's records: GET clusters/{cluster}/topics/{topic}/messages (docs/messages.md), its
// types and its TanStack Query options with their own keys (the Messages tab of the topic page).
// The path, the query's names and the answer are the generated schema's (paths.ts, schema.gen.ts);
// the call builds its own query string because `partition` repeats (partition=0&partition=2),
// which the client's one-value-per-name query cannot say.
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { apiRequest } from "./client";
import { fillPath, type ApiPath, type Operation } from "./paths";
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

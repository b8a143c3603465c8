import { vi } from "vitest";

type Body = unknown;

export interface StubResponse {
  status?: number;
  body?: Body;
  /** Raw text instead of JSON (for non-JSON error pages). */
  text?: string;
  statusText?: string;
}

/** What a path answers: always the same, or by the request (its URL with the query, and init). */
export type Route = StubResponse | ((url: string, init: RequestInit | undefined) => StubResponse);

/** JSON response helper. */
export function json(body: Body, status = 200): StubResponse {
  return { status, body };
}

/** An API error answer: {"error": {"code", "message", "details"}} with `status`. */
export function apiError(status: number, code: string, message: string, details: Record<string, unknown> = {}): StubResponse {
  return json({ error: { code, message, details } }, status);
}

function toResponse(stub: StubResponse): Response {
  const status = stub.status ?? 200;
  const text = stub.text ?? (stub.body === undefined ? "" : JSON.stringify(stub.body));
  return new Response(status === 204 ? null : text, {
    status,
    statusText: stub.statusText ?? "",
    headers: { "Content-Type": stub.text !== undefined ? "text/html" : "application/json" },
  });
}

/**
 * Replace global fetch with one answering by URL path (without the query).
 * Unknown paths answer 404 in the API's error shape. Returns the vi.fn for assertions.
 */
export function stubFetch(routes: Record<string, Route>) {
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const path = url.split("?")[0] ?? url;
    const route = routes[path];
    if (route === undefined) {
      return toResponse(json({ error: { code: "not_found", message: `no stub for ${path}`, details: {} } }, 404));
    }
    return toResponse(typeof route === "function" ? route(url, init) : route);
  });
  vi.stubGlobal("fetch", fn);
  return fn;
}

/** The calls the stub got for `path` (the query left out) with `method`, in order. */
export function callsTo(fetch: ReturnType<typeof stubFetch>, path: string, method = "GET") {
  return fetch.mock.calls.filter(([url, init]) => String(url).split("?")[0] === path && (init?.method ?? "GET") === method);
}

/** The JSON bodies sent to `path` with `method`, in order. */
export function bodiesTo(fetch: ReturnType<typeof stubFetch>, path: string, method = "POST"): unknown[] {
  return callsTo(fetch, path, method).map(([, init]) => JSON.parse(String(init?.body)));
}

// The one way the SPA talks to the server: same-origin fetch with the session
// cookie, the CSRF header on unsafe methods, and the API's error shape turned
// into an ApiError.

export const API_BASE = "/api/v1/";
export const LOGIN_PATH = "/login/";

/** An API call that did not succeed. `status` is 0 when the server could not be reached. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;

  constructor(status: number, code: string, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/** A change on a protected cluster was not made: it became a request that someone else with
 * the role approves (202 {approval}). Thrown, so every form says so where it shows errors. */
export class ApprovalRequested extends ApiError {
  readonly approval: { id: number; summary: string; expires_at: string; [key: string]: unknown };

  constructor(approval: ApprovalRequested["approval"]) {
    super(
      202,
      "approval_requested",
      `Sent for approval as request #${approval.id}: ${approval.summary} It runs once someone ` +
        "else with the role approves it (Approvals page).",
      { approval },
    );
    this.name = "ApprovalRequested";
    this.approval = approval;
  }
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "TRACE"]);

/** The value of a cookie, or null. */
export function getCookie(name: string): string | null {
  if (typeof document === "undefined" || !document.cookie) return null;
  for (const part of document.cookie.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      return decodeURIComponent(part.slice(eq + 1).trim());
    }
  }
  return null;
}

/** Django's CSRF token (cookie `csrftoken`), sent as X-CSRFToken / csrfmiddlewaretoken. */
export function getCsrfToken(): string | null {
  return getCookie("csrftoken");
}

/** The login page URL that brings the user back to `path` after signing in. */
export function loginUrl(path: string): string {
  return `${LOGIN_PATH}?next=${encodeURIComponent(path)}`;
}

let redirecting = false;

function redirectToLogin(): void {
  // Several polls may get a 401 at once; navigate only once.
  if (redirecting) return;
  redirecting = true;
  const { pathname, search, hash } = window.location;
  window.location.assign(loginUrl(pathname + search + hash));
}

/** For tests: forget that a login redirect already happened. */
export function resetLoginRedirect(): void {
  redirecting = false;
}

/** True for the rejection of a fetch whose AbortSignal fired. */
export function isAbortError(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "AbortError";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function statusSentence(response: Response): string {
  const text = response.statusText ? ` ${response.statusText}` : "";
  return `The server answered ${response.status}${text}.`;
}

/** Turn a failed response into an ApiError, whatever its body is. */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  const fallbackCode = `http_${response.status}`;
  let text = "";
  try {
    text = await response.text();
  } catch {
    // body unreadable: fall through to the status line
  }
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined; // not JSON (proxy error page, HTML debug page, ...)
    }
  }
  if (isRecord(body) && isRecord(body.error)) {
    const err = body.error;
    const code = typeof err.code === "string" && err.code ? err.code : fallbackCode;
    const message =
      typeof err.message === "string" && err.message ? err.message : statusSentence(response);
    const details = isRecord(err.details) ? err.details : {};
    return new ApiError(response.status, code, message, details);
  }
  if (isRecord(body) && typeof body.detail === "string") {
    // DRF's default shape, should a view slip past the project's handler.
    return new ApiError(response.status, fallbackCode, body.detail);
  }
  return new ApiError(response.status, fallbackCode, statusSentence(response));
}

export interface RequestOptions {
  method?: string;
  /** Sent as JSON. */
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  signal?: AbortSignal;
}

/** The URL of an API path ("clusters/local/brokers") with an optional query string. */
export function apiUrl(path: string, query?: RequestOptions["query"]): string {
  let url = API_BASE + path.replace(/^\/+/, "");
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== null) params.set(key, String(value));
    }
    const qs = params.toString();
    if (qs) url += `?${qs}`;
  }
  return url;
}

/**
 * Call the API and return its parsed JSON (undefined for 204).
 * Throws ApiError on any failure; a 401 also sends the browser to the login page.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = (options.method ?? "GET").toUpperCase();
  const headers: Record<string, string> = { Accept: "application/json" };
  let body: string | undefined;
  if (options.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(options.body);
  }
  if (!SAFE_METHODS.has(method)) {
    const token = getCsrfToken();
    if (token) headers["X-CSRFToken"] = token;
  }

  let response: Response;
  try {
    response = await fetch(apiUrl(path, options.query), {
      method,
      headers,
      body,
      credentials: "same-origin",
      signal: options.signal,
    });
  } catch (cause) {
    if (isAbortError(cause) || options.signal?.aborted) throw cause;
    throw new ApiError(0, "network_error", "Could not reach the Kafka Console server.");
  }

  if (!response.ok) {
    const error = await errorFromResponse(response);
    if (response.status === 401) redirectToLogin();
    throw error;
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  if (!text) return undefined as T;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError(response.status, "invalid_response", "The server sent a response that is not JSON.");
  }
  if (response.status === 202 && parsed !== null && typeof parsed === "object" && "approval" in parsed) {
    throw new ApprovalRequested((parsed as { approval: ApprovalRequested["approval"] }).approval);
  }
  return parsed as T;
}

export const api = {
  get: <T>(path: string, options: Omit<RequestOptions, "method" | "body"> = {}) =>
    apiRequest<T>(path, { ...options, method: "GET" }),
  post: <T>(path: string, body?: unknown, options: Omit<RequestOptions, "method" | "body"> = {}) =>
    apiRequest<T>(path, { ...options, method: "POST", body }),
  patch: <T>(path: string, body?: unknown, options: Omit<RequestOptions, "method" | "body"> = {}) =>
    apiRequest<T>(path, { ...options, method: "PATCH", body }),
  delete: <T = void>(path: string, options: Omit<RequestOptions, "method" | "body"> = {}) =>
    apiRequest<T>(path, { ...options, method: "DELETE" }),
};

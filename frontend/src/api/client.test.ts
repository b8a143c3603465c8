import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { json, stubFetch } from "../test/fetchStub";
import { ApiError, ApprovalRequested, api, apiUrl, loginUrl, resetLoginRedirect } from "./client";

function stubLocation(path: string) {
  const assign = vi.fn();
  const url = new URL(path, "http://console.test");
  vi.stubGlobal("location", {
    pathname: url.pathname,
    search: url.search,
    hash: url.hash,
    assign,
  });
  return assign;
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error("expected the call to fail");
}

beforeEach(() => {
  resetLoginRedirect();
});

afterEach(() => {
  document.cookie = "csrftoken=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/";
});

describe("api client", () => {
  it("throws ApprovalRequested for a change held on a protected cluster, and keeps other 202s", async () => {
    const approval = { id: 7, summary: "Delete topic orders and every record in it.", expires_at: "2026-11-29T16:00:00Z" };
    stubFetch({
      "/api/v1/clusters/prod/topics/orders": json({ approval }, 202),
      "/api/v1/spark/jobs/3/cancel": json({ id: 3, state: "running" }, 202),
    });
    const error = await rejection(api.delete("clusters/prod/topics/orders"));
    expect(error).toBeInstanceOf(ApprovalRequested);
    expect(error.status).toBe(202);
    expect(error.message).toContain("request #7");
    expect(error.message).toContain("Delete topic orders");
    expect((error as ApprovalRequested).approval.id).toBe(7);
    await expect(api.post("spark/jobs/3/cancel")).resolves.toEqual({ id: 3, state: "running" });
  });

  it("returns parsed JSON and sends the session cookie", async () => {
    const fetch = stubFetch({ "/api/v1/me": json({ username: "alice", role: "admin" }) });
    await expect(api.get("me")).resolves.toEqual({ username: "alice", role: "admin" });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe("/api/v1/me");
    expect(init?.credentials).toBe("same-origin");
    expect(init?.method).toBe("GET");
    expect((init?.headers as Record<string, string>)["X-CSRFToken"]).toBeUndefined();
  });

  it("parses the API error shape into an ApiError", async () => {
    stubFetch({
      "/api/v1/clusters/local": json(
        {
          error: {
            code: "kafka_timeout",
            message: "Kafka did not answer describe_cluster in time (5.0 s).",
            details: { operation: "describe_cluster" },
          },
        },
        504,
      ),
    });
    const error = await rejection(api.get("clusters/local"));
    expect(error.status).toBe(504);
    expect(error.code).toBe("kafka_timeout");
    expect(error.message).toBe("Kafka did not answer describe_cluster in time (5.0 s).");
    expect(error.details).toEqual({ operation: "describe_cluster" });
  });

  it("turns a non-JSON error body into an ApiError with the status", async () => {
    stubFetch({
      "/api/v1/clusters": {
        status: 502,
        statusText: "Bad Gateway",
        text: "<html><body><h1>502 Bad Gateway</h1></body></html>",
      },
    });
    const error = await rejection(api.get("clusters"));
    expect(error.status).toBe(502);
    expect(error.code).toBe("http_502");
    expect(error.message).toBe("The server answered 502 Bad Gateway.");
  });

  it("accepts DRF's plain {detail} body", async () => {
    stubFetch({ "/api/v1/clusters": json({ detail: "CSRF Failed: CSRF token missing." }, 403) });
    const error = await rejection(api.post("clusters", {}));
    expect(error.status).toBe(403);
    expect(error.message).toBe("CSRF Failed: CSRF token missing.");
  });

  it("reports an unreachable server as status 0", async () => {
    vi.stubGlobal("fetch", vi.fn().mockRejectedValue(new TypeError("Failed to fetch")));
    const error = await rejection(api.get("clusters"));
    expect(error.status).toBe(0);
    expect(error.code).toBe("network_error");
  });

  it("redirects to the login page on 401, keeping the current path", async () => {
    const assign = stubLocation("/clusters/local?tab=brokers");
    stubFetch({
      "/api/v1/clusters/local": json(
        { error: { code: "not_authenticated", message: "Authentication credentials were not provided." } },
        401,
      ),
    });
    const error = await rejection(api.get("clusters/local"));
    expect(error.status).toBe(401);
    expect(error.code).toBe("not_authenticated");
    expect(assign).toHaveBeenCalledTimes(1);
    expect(assign).toHaveBeenCalledWith("/login/?next=%2Fclusters%2Flocal%3Ftab%3Dbrokers");

    // Concurrent polls that also get a 401 do not navigate again.
    await rejection(api.get("clusters/local"));
    expect(assign).toHaveBeenCalledTimes(1);
  });

  it("does not redirect on 403", async () => {
    const assign = stubLocation("/");
    stubFetch({ "/api/v1/clusters": json({ error: { code: "permission_denied", message: "No." } }, 403) });
    await rejection(api.get("clusters"));
    expect(assign).not.toHaveBeenCalled();
  });

  it("sends the CSRF token from the csrftoken cookie on unsafe methods only", async () => {
    document.cookie = "csrftoken=tok%3D123; path=/";
    const fetch = stubFetch({ "/api/v1/things": { status: 204 } });
    await expect(api.delete("things")).resolves.toBeUndefined();
    await api.get("things");
    const del = fetch.mock.calls[0]![1]!;
    const get = fetch.mock.calls[1]![1]!;
    expect(del.method).toBe("DELETE");
    expect((del.headers as Record<string, string>)["X-CSRFToken"]).toBe("tok=123");
    expect((get.headers as Record<string, string>)["X-CSRFToken"]).toBeUndefined();
  });

  it("builds URLs and login links", () => {
    expect(apiUrl("clusters/local/topics", { filter: "under_replicated", search: undefined })).toBe(
      "/api/v1/clusters/local/topics?filter=under_replicated",
    );
    expect(loginUrl("/clusters/a b")).toBe("/login/?next=%2Fclusters%2Fa%20b");
  });
});

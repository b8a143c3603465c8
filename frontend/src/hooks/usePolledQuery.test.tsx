import { act } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../api/client";
import { clustersQuery, topicQuery } from "../api/queries";
import { queryKeys } from "../api/queryKeys";
import { FakeWebSocket } from "../test/fakeWebSocket";
import { apiError, json, stubFetch } from "../test/fetchStub";
import { CLUSTERS, ORDERS } from "../test/fixtures";
import { metadataMessage } from "../test/liveFixtures";
import { renderHookWithQueryClient } from "../test/queryClient";
import { LIVE_FALLBACK_POLL_MS, pollInterval, useMetadataSocket } from "./useLiveSocket";
import { usePolledQuery, useRefetch } from "./usePolledQuery";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

const flush = () => act(() => vi.advanceTimersByTimeAsync(0));

/** A fetcher whose answers the test releases one by one; records the signals it was given. */
function controlledFetcher<T>(answers: () => T) {
  const pending: { resolve: () => void; reject: (error: unknown) => void; signal: AbortSignal }[] = [];
  const fn = vi.fn(
    ({ signal }: { signal: AbortSignal }) =>
      new Promise<T>((resolve, reject) => {
        const value = answers();
        pending.push({ resolve: () => resolve(value), reject, signal });
        signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
      }),
  );
  return {
    fn,
    /** Answer the oldest call still waiting (aborted ones are dropped). */
    release: async () => {
      while (pending[0]?.signal.aborted) pending.shift();
      const next = pending.shift();
      await act(async () => next?.resolve());
    },
    signals: () => pending.map((p) => p.signal),
  };
}

describe("usePolledQuery", () => {
  it("loads, then polls every interval ms after the answer; a changed interval reschedules and keeps the data", async () => {
    const fetch = stubFetch({ "/api/v1/clusters": json(CLUSTERS) });
    const { result, rerender } = renderHookWithQueryClient(({ ms }: { ms: number }) => usePolledQuery(clustersQuery(), ms), {
      initialProps: { ms: 5_000 },
    });
    expect(result.current.loading).toBe(true);
    expect(result.current.updatedAt).toBeNull();
    await flush();
    expect(result.current.loading).toBe(false);
    expect(result.current.data).toEqual(CLUSTERS);
    expect(result.current.updatedAt).toBeInstanceOf(Date);
    expect(fetch).toHaveBeenCalledTimes(1);

    await act(() => vi.advanceTimersByTimeAsync(4_999));
    expect(fetch).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(fetch).toHaveBeenCalledTimes(2);

    // Slow polling (a live socket pushes): the data stays, the next poll is 30 s away.
    rerender({ ms: 30_000 });
    expect(result.current.data).toEqual(CLUSTERS);
    await act(() => vi.advanceTimersByTimeAsync(29_000));
    expect(fetch).toHaveBeenCalledTimes(2);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it("does not retry a 4xx: the error shows at once and only the next poll asks again", async () => {
    const fetch = stubFetch({}); // every path: 404 not_found
    const { result } = renderHookWithQueryClient(() => usePolledQuery(topicQuery("local", "gone"), 5_000));
    await flush();
    expect(result.current.loading).toBe(false);
    expect(result.current.error).toBeInstanceOf(ApiError);
    expect((result.current.error as ApiError).status).toBe(404);
    await act(() => vi.advanceTimersByTimeAsync(4_999));
    expect(fetch).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("keeps the last good data on a 5xx (not retried either), and clears the error when a poll succeeds", async () => {
    let down = false;
    const fetch = stubFetch({
      "/api/v1/clusters": () =>
        down ? apiError(504, "kafka_timeout", "Kafka did not answer.") : json(CLUSTERS),
    });
    const { result } = renderHookWithQueryClient(() => usePolledQuery(clustersQuery(), 1_000));
    await flush();
    down = true;
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(result.current.error?.message).toBe("Kafka did not answer.");
    expect(result.current.data).toEqual(CLUSTERS);
    await act(() => vi.advanceTimersByTimeAsync(999));
    expect(fetch).toHaveBeenCalledTimes(2);

    down = false;
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(result.current.error).toBeNull();
  });

  it("replace() shows data at once and drops the answer of a poll already in flight", async () => {
    let answer = "first";
    const fetcher = controlledFetcher(() => answer);
    const { result } = renderHookWithQueryClient(() =>
      usePolledQuery({ queryKey: ["replace-test"], queryFn: fetcher.fn }, 1_000),
    );
    await fetcher.release();
    expect(result.current.data).toBe("first");
    const firstUpdate = result.current.updatedAt;

    // The next poll starts and is still waiting when a write answers.
    answer = "stale";
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(fetcher.fn).toHaveBeenCalledTimes(2);
    await act(async () => result.current.replace("written"));
    expect(result.current.data).toBe("written");
    expect(result.current.updatedAt!.getTime()).toBeGreaterThan(firstUpdate!.getTime());
    await fetcher.release();
    expect(result.current.data).toBe("written");

    // Later polls show again.
    answer = "later";
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    await fetcher.release();
    expect(result.current.data).toBe("later");
  });

  it("aborts the call in flight on unmount and when the key changes (the new key starts empty)", async () => {
    const fetcher = controlledFetcher(() => "answer");
    const { result, rerender, unmount } = renderHookWithQueryClient(
      ({ id }: { id: string }) => usePolledQuery({ queryKey: ["abort-test", id], queryFn: fetcher.fn }, 1_000),
      { initialProps: { id: "a" } },
    );
    await flush();
    const [first] = fetcher.signals();
    expect(first!.aborted).toBe(false);

    rerender({ id: "b" });
    await flush();
    expect(first!.aborted).toBe(true);
    expect(result.current.data).toBeUndefined();
    expect(result.current.loading).toBe(true);
    const second = fetcher.signals().at(-1)!;
    expect(second.aborted).toBe(false);

    unmount();
    expect(second.aborted).toBe(true);
  });

  it("refresh() during a poll asks again: the answer in flight may predate what prompted it", async () => {
    const fetcher = controlledFetcher(() => "x");
    const { result } = renderHookWithQueryClient(() =>
      usePolledQuery({ queryKey: ["refresh-test"], queryFn: fetcher.fn }, 60_000),
    );
    await flush();
    expect(fetcher.fn).toHaveBeenCalledTimes(1); // the first load, still waiting
    await act(async () => result.current.refresh());
    await flush();
    expect(fetcher.fn).toHaveBeenCalledTimes(2);
    expect(fetcher.signals()[0]!.aborted).toBe(true);
    await fetcher.release();
    expect(result.current.data).toBe("x");
  });

  it("skips polls while the tab is hidden and polls as soon as it is visible again", async () => {
    const fetch = stubFetch({ "/api/v1/clusters": json(CLUSTERS) });
    renderHookWithQueryClient(() => usePolledQuery(clustersQuery(), 1_000));
    await flush();
    const visibility = vi.spyOn(document, "visibilityState", "get").mockReturnValue("hidden");
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(fetch).toHaveBeenCalledTimes(1);
    visibility.mockReturnValue("visible");
    await act(async () => {
      document.dispatchEvent(new Event("visibilitychange", { bubbles: true }));
    });
    await flush();
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});

describe("push and slow polling", () => {
  it("polls slowly while the metadata socket is live and refetches at once on each push", async () => {
    const fetch = stubFetch({ "/api/v1/clusters/local/topics/orders": json(ORDERS) });
    const { result } = renderHookWithQueryClient(() => {
      const live = useMetadataSocket("local", useRefetch(queryKeys.topic("local", "orders")));
      return { live, topic: usePolledQuery(topicQuery("local", "orders"), pollInterval(live, 3_000)) };
    });
    await flush();
    expect(fetch).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(3_000));
    expect(fetch).toHaveBeenCalledTimes(2);

    // Live: every 30 s only, and at once when a change is pushed.
    const socket = FakeWebSocket.last("/metadata");
    act(() => {
      socket.open();
      socket.receive({ type: "status", live: true });
    });
    expect(result.current.live.live).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(fetch).toHaveBeenCalledTimes(2);
    act(() => socket.receive(metadataMessage()));
    await act(() => vi.advanceTimersByTimeAsync(100)); // the socket hands over its batch
    expect(fetch).toHaveBeenCalledTimes(3);
    // The safety poll is 30 s after that answer.
    await act(() => vi.advanceTimersByTimeAsync(LIVE_FALLBACK_POLL_MS - 1));
    expect(fetch).toHaveBeenCalledTimes(3);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(fetch).toHaveBeenCalledTimes(4);

    // Dropped: back to 3 s.
    act(() => socket.drop());
    await act(() => vi.advanceTimersByTimeAsync(3_000));
    expect(fetch).toHaveBeenCalledTimes(5);
  });
});

import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LagSocketMessage, LagSubscription, MetadataMessage } from "../api/live";
import { FakeWebSocket } from "../test/fakeWebSocket";
import { LIVE_FALLBACK_POLL_MS, pollInterval, useLagSocket, useMetadataSocket } from "./useLiveSocket";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

const lag = (group: string, ts = "2026-07-01T10:00:00.000+00:00") => ({
  type: "lag",
  group_id: group,
  ts,
  total_lag: 1,
  max_lag: 1,
  max_lag_seconds: 1,
  status: "OK",
  state: "Stable",
  member_count: 1,
  catch_up_seconds: 1,
  retention_risk: "none",
  retention_reason: null,
  topics: {},
  partitions: [],
});

describe("useLagSocket", () => {
  it("connects to this host's /ws/clusters/{cluster}/lag, subscribes, and is live once the server says so", async () => {
    const received: LagSocketMessage[][] = [];
    const sub: LagSubscription = { subscribe: { groups: ["orders-app"] } };
    const { result, unmount } = renderHook(() => useLagSocket("a/b c", sub, (m) => received.push(m)));
    expect(result.current).toMatchObject({ status: "connecting", live: false });

    const socket = FakeWebSocket.last();
    expect(socket.url).toBe(`ws://${window.location.host}/ws/clusters/a%2Fb%20c/lag`);
    act(() => socket.open());
    expect(socket.sent).toEqual([{ subscribe: { groups: ["orders-app"] } }]);
    act(() => socket.receive({ type: "status", live: true, sample_seconds: 5 }));
    expect(result.current).toMatchObject({ status: "live", live: true, sampleSeconds: 5 });

    act(() => {
      socket.receive(lag("orders-app"));
      socket.receive({ type: "group_state", group_id: "orders-app", ts: "2026-07-01T10:00:00Z", state: "Empty", member_count: 0, previous_state: "Stable" });
    });
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(received).toHaveLength(1);
    expect(received[0]!.map((m) => m.type)).toEqual(["lag", "group_state"]);

    unmount();
    expect(socket.closed).toBe(true);
  });

  it("reconnects by itself after a drop (paused meanwhile), then resubscribes", async () => {
    const sub: LagSubscription = { subscribe: { all: true } };
    const { result } = renderHook(() => useLagSocket("local", sub, () => {}));
    const first = FakeWebSocket.last();
    act(() => {
      first.open();
      first.receive({ type: "status", live: true });
    });
    act(() => first.drop());
    expect(result.current).toMatchObject({ status: "paused", live: false, wasLive: true });

    await act(() => vi.advanceTimersByTimeAsync(30_000));
    const second = FakeWebSocket.last();
    expect(second).not.toBe(first);
    act(() => {
      second.open();
      second.receive({ type: "status", live: true });
    });
    expect(second.sent).toEqual([{ subscribe: { all: true } }]);
    expect(result.current).toMatchObject({ status: "live", live: true });
  });

  it("sends a new subscription on the open socket instead of reconnecting", () => {
    let groups = ["a"];
    const { rerender } = renderHook(() => useLagSocket("local", { subscribe: { groups } }, () => {}));
    const socket = FakeWebSocket.last();
    act(() => socket.open());
    rerender(); // an equal subscription (new object): nothing sent
    groups = ["a", "b"];
    rerender();
    expect(socket.sent).toEqual([{ subscribe: { groups: ["a"] } }, { subscribe: { groups: ["a", "b"] } }]);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it("is idle after three samples without a message", async () => {
    const { result } = renderHook(() => useLagSocket("local", { subscribe: { all: true } }, () => {}));
    const socket = FakeWebSocket.last();
    act(() => {
      socket.open();
      socket.receive({ type: "status", live: true, sample_seconds: 10 });
    });
    await act(() => vi.advanceTimersByTimeAsync(29_000));
    expect(result.current.live).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(result.current).toMatchObject({ status: "idle", live: false });
    act(() => socket.receive(lag("x")));
    expect(result.current).toMatchObject({ status: "live", live: true });
  });

  it("opens no socket without a cluster or subscription", () => {
    const { result } = renderHook(() => useLagSocket("local", null, () => {}));
    expect(result.current.status).toBe("off");
    expect(FakeWebSocket.instances).toHaveLength(0);
  });
});

describe("useMetadataSocket", () => {
  it("hands over metadata messages only, with the latest callback", async () => {
    const seen: string[] = [];
    let label = "first";
    const { rerender } = renderHook(() =>
      useMetadataSocket("local", (messages: MetadataMessage[]) => seen.push(`${label}:${messages.length}`)),
    );
    const socket = FakeWebSocket.last();
    expect(socket.url).toMatch(/\/ws\/clusters\/local\/metadata$/);
    act(() => {
      socket.open();
      socket.receive({ type: "status", live: true });
    });
    expect(socket.sent).toEqual([]); // nothing to subscribe to
    label = "second";
    rerender();
    act(() => socket.receive({ type: "metadata", ts: "2026-07-01T10:00:00Z", brokers: [], changes: [] }));
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(seen).toEqual(["second:1"]);
  });
});

describe("pollInterval", () => {
  it("polls slowly while live, as before otherwise", () => {
    const base = { wasLive: true, reason: null, sampleSeconds: 5 };
    expect(pollInterval({ ...base, status: "live", live: true }, 5000)).toBe(LIVE_FALLBACK_POLL_MS);
    expect(pollInterval({ ...base, status: "paused", live: false }, 5000)).toBe(5000);
    expect(pollInterval({ ...base, status: "idle", live: false }, 3000)).toBe(3000);
  });
});

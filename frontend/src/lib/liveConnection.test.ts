import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LiveMessage } from "../api/live";
import { FakeWebSocket } from "../test/fakeWebSocket";
import { BACKOFF_MAX_MS, backoffDelay, LiveConnection, type LiveState } from "./liveConnection";

const LAG = (group: string, ts: string) => ({
  type: "lag",
  group_id: group,
  ts,
  total_lag: 5,
  max_lag: 5,
  max_lag_seconds: 1.5,
  status: "OK",
  state: "Stable",
  member_count: 1,
  catch_up_seconds: 2,
  retention_risk: "none",
  retention_reason: null,
  topics: {},
  partitions: [],
});

function setup(options: Partial<ConstructorParameters<typeof LiveConnection>[0]> = {}) {
  const states: LiveState[] = [];
  const batches: LiveMessage[][] = [];
  const conn = new LiveConnection({
    url: "ws://console.test/ws/clusters/local/lag",
    subscribe: JSON.stringify({ subscribe: { all: true } }),
    onState: (s) => states.push(s),
    onMessages: (m) => batches.push(m),
    createSocket: (url) => new FakeWebSocket(url),
    random: () => 1, // no jitter: the full backoff
    ...options,
  });
  const state = () => states[states.length - 1];
  const socket = () => FakeWebSocket.last();
  return { conn, states, batches, state, socket };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("backoffDelay", () => {
  it("doubles from 1 s up to 30 s, jittered between half and all of it", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => backoffDelay(n, () => 1))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
    expect(backoffDelay(1, () => 0)).toBe(500);
    expect(backoffDelay(10, () => 0)).toBe(BACKOFF_MAX_MS / 2);
    expect(backoffDelay(3, () => 0.5)).toBe(3000);
  });
});

describe("LiveConnection", () => {
  it("subscribes on open, is live once the server says so, and hands over messages in batches", () => {
    const { conn, batches, state, socket } = setup({ flushMs: 100 });
    conn.start();
    expect(state()).toBeUndefined(); // still "connecting": no state change yet
    expect(socket().url).toBe("ws://console.test/ws/clusters/local/lag");
    socket().open();
    expect(socket().sent).toEqual([{ subscribe: { all: true } }]);

    socket().receive({ type: "status", live: true, sample_seconds: 5 });
    expect(state()).toMatchObject({ status: "live", live: true, wasLive: true, sampleSeconds: 5 });

    socket().receive(LAG("a", "2026-07-01T10:00:00.000+00:00"));
    socket().receive("not json");
    socket().receive({ type: "unknown-kind" });
    socket().receive(LAG("b", "2026-07-01T10:00:00.000+00:00"));
    expect(batches).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.map((m) => (m as { group_id: string }).group_id)).toEqual(["a", "b"]);
    conn.stop();
  });

  it("sends a changed subscription at once when connected, and after each reconnect", () => {
    const { conn, socket } = setup();
    conn.start();
    conn.setSubscribe(JSON.stringify({ subscribe: { groups: ["x"] } })); // not open yet: sent on open
    socket().open();
    expect(socket().sent).toEqual([{ subscribe: { groups: ["x"] } }]);
    conn.setSubscribe(JSON.stringify({ subscribe: { groups: ["x", "y"] } }));
    expect(socket().sent).toEqual([{ subscribe: { groups: ["x"] } }, { subscribe: { groups: ["x", "y"] } }]);
    conn.setSubscribe(JSON.stringify({ subscribe: { groups: ["x", "y"] } })); // unchanged: nothing sent
    expect(socket().sent).toHaveLength(2);

    socket().drop();
    vi.advanceTimersByTime(1000);
    socket().open();
    expect(socket().sent).toEqual([{ subscribe: { groups: ["x", "y"] } }]);
    conn.stop();
  });

  it("reconnects with growing waits after drops, and from 1 s again once live", () => {
    const { conn, state, socket } = setup();
    conn.start();
    socket().drop(); // the first attempt fails
    expect(state()).toMatchObject({ status: "paused", live: false, wasLive: false });
    expect(FakeWebSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(999);
    expect(FakeWebSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(2);

    socket().drop(); // second failure: 2 s
    vi.advanceTimersByTime(1999);
    expect(FakeWebSocket.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(3);

    socket().open();
    socket().receive({ type: "status", live: true });
    expect(state()).toMatchObject({ status: "live", live: true });
    socket().drop(1011, "server error");
    expect(state()).toMatchObject({ status: "paused", live: false, wasLive: true, reason: "server error" });
    vi.advanceTimersByTime(1000); // reset: 1 s again
    expect(FakeWebSocket.instances).toHaveLength(4);
    conn.stop();
  });

  it("closes and retries later when the server says it cannot push (live: false)", () => {
    const { conn, state, socket } = setup();
    conn.start();
    const first = socket();
    first.open();
    first.receive({ type: "status", live: false, reason: "The lag store (Redis) is unavailable." });
    expect(first.closed).toBe(true);
    expect(state()).toMatchObject({ status: "paused", live: false, reason: "The lag store (Redis) is unavailable." });
    vi.advanceTimersByTime(1000);
    expect(socket()).not.toBe(first);
    conn.stop();
  });

  it("stops for good on 4401, 4403 and 4404", () => {
    for (const code of [4401, 4403, 4404]) {
      FakeWebSocket.instances = [];
      const { conn, state, socket } = setup();
      conn.start();
      socket().open();
      socket().drop(code);
      expect(state()).toMatchObject({ status: "off", live: false });
      vi.advanceTimersByTime(60_000);
      expect(FakeWebSocket.instances).toHaveLength(1);
      conn.stop();
    }
  });

  it("says the server's reason when it explains a final close (an origin refused)", () => {
    const { conn, state, socket } = setup();
    conn.start();
    socket().open();
    const words = "The origin 'http://evil.test' is not this console's; list it in CSRF_TRUSTED_ORIGINS.";
    socket().receive({ type: "error", error: { code: "origin_refused", message: words, details: {} } });
    socket().drop(4403);
    expect(state()).toMatchObject({ status: "off", live: false, reason: words });
    conn.stop();
  });

  it("is idle (not live) when data stops for longer than the watchdog, and live again with the next message", () => {
    const { conn, state, socket } = setup({ staleAfterMs: (s) => 3 * (s ?? 5) * 1000 });
    conn.start();
    socket().open();
    socket().receive({ type: "status", live: true, sample_seconds: 2 });
    socket().receive(LAG("a", "2026-07-01T10:00:00Z"));
    vi.advanceTimersByTime(5999);
    expect(state()).toMatchObject({ status: "live", live: true });
    vi.advanceTimersByTime(1);
    expect(state()).toMatchObject({ status: "idle", live: false });
    expect(socket().closed).toBe(false); // nothing to reconnect
    socket().receive(LAG("a", "2026-07-01T10:00:10Z"));
    expect(state()).toMatchObject({ status: "live", live: true });
    conn.stop();
  });

  it("stop() closes the socket, drops pending messages and never reconnects", () => {
    const { conn, batches, socket } = setup();
    conn.start();
    const s = socket();
    s.open();
    s.receive({ type: "status", live: true });
    s.receive(LAG("a", "2026-07-01T10:00:00Z"));
    conn.stop();
    expect(s.closedWith).toEqual({ code: 1000, reason: "page closed" });
    vi.advanceTimersByTime(60_000);
    expect(batches).toEqual([]);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it("is off without WebSocket support", () => {
    vi.stubGlobal("WebSocket", undefined);
    const states: LiveState[] = [];
    const conn = new LiveConnection({ url: "ws://x/ws", onState: (s) => states.push(s), onMessages: () => {} });
    conn.start();
    expect(states[states.length - 1]).toMatchObject({ status: "off", live: false });
    conn.stop();
  });
});

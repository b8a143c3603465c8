import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { MessageRecord } from "../api/messages";
import type { SocketLike } from "./liveConnection";
import { NO_ROWS, parseTailMessage, prependRecords, tailFrame, TailConnection, type TailState } from "./messageTail";

const rec = (partition: number, offset: number) => ({ partition, offset }) as MessageRecord;

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  closed: [number | undefined, string | undefined] | null = null;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  send(data: string) {
    this.sent.push(data);
  }
  close(code?: number, reason?: string) {
    this.closed = [code, reason];
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event("open"));
  }
  push(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) } as MessageEvent);
  }
  drop(code: number) {
    this.readyState = 3;
    this.onclose?.({ code, reason: "" } as CloseEvent);
  }
}

describe("the live tail's list", () => {
  it("puts arrivals on top, newest first, and keeps at most the limit", () => {
    let rows = prependRecords(NO_ROWS, [rec(0, 1), rec(0, 2)], 3);
    expect(rows.records.map((r) => r.offset)).toEqual([2, 1]);
    rows = prependRecords(rows, [rec(1, 7), rec(1, 8)], 3);
    expect(rows.records.map((r) => `${r.partition}:${r.offset}`)).toEqual(["1:8", "1:7", "0:2"]);
    expect(rows.trimmed).toBe(1);
    expect(prependRecords(rows, [], 3)).toBe(rows);
  });

  it("sends only what differs from the defaults in the tail frame", () => {
    expect(tailFrame({ partition: [], filter: "  ", key_format: "auto", value_format: "auto", isolation: "read_committed" })).toEqual({ tail: {} });
    expect(tailFrame({ partition: [1], filter: " value.a > 1 ", value_format: "json", isolation: "read_uncommitted" })).toEqual({
      tail: { partition: [1], filter: "value.a > 1", value_format: "json", isolation: "read_uncommitted" },
    });
  });

  it("reads the socket's messages and nothing else", () => {
    expect(parseTailMessage('{"type": "tailing", "partitions": [0, 1]}')).toEqual({ type: "tailing", partitions: [0, 1] });
    expect(parseTailMessage('{"type": "dropped", "count": 12}')).toEqual({ type: "dropped", count: 12 });
    expect(parseTailMessage('{"type": "records"}')).toBeNull();
    expect(parseTailMessage('{"type": "lag"}')).toBeNull();
    expect(parseTailMessage("not json")).toBeNull();
  });
});

describe("a tail's connection", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function connect() {
    const sockets: FakeSocket[] = [];
    const states: TailState[] = [];
    const batches: MessageRecord[][] = [];
    const connection = new TailConnection({
      url: "ws://x/ws/clusters/local/topics/t/messages",
      request: { filter: "offset > 1" },
      onState: (s) => states.push(s),
      onRecords: (r) => batches.push(r),
      createSocket: () => {
        const socket = new FakeSocket();
        sockets.push(socket);
        return socket;
      },
      random: () => 0,
    });
    connection.start();
    return { connection, sockets, states, batches, last: () => states[states.length - 1]! };
  }

  it("sends the tail frame, batches records, adds up dropped counts and cancels on stop", () => {
    const { connection, sockets, batches, last } = connect();
    const socket = sockets[0]!;
    socket.open();
    expect(socket.sent).toEqual(['{"tail":{"filter":"offset > 1"}}']);
    socket.push({ type: "tailing", partitions: [0, 1] });
    expect(last()).toMatchObject({ status: "tailing", partitions: [0, 1] });
    socket.push({ type: "records", records: [rec(0, 2)] });
    socket.push({ type: "records", records: [rec(1, 3)] });
    expect(batches).toEqual([]);
    vi.advanceTimersByTime(150);
    expect(batches).toEqual([[rec(0, 2), rec(1, 3)]]);
    socket.push({ type: "dropped", count: 5 });
    socket.push({ type: "dropped", count: 2 });
    expect(last().dropped).toBe(7);

    connection.stop();
    expect(socket.sent[socket.sent.length - 1]).toBe('{"cancel":true}');
    expect(socket.closed).toEqual([1000, "tail off"]);
    expect(last().status).toBe("off");
    socket.push({ type: "records", records: [rec(0, 9)] });
    vi.advanceTimersByTime(500);
    expect(batches).toHaveLength(1);
  });

  it("reconnects after a drop and stops for good on a refusal", () => {
    const { sockets, last } = connect();
    sockets[0]!.open();
    sockets[0]!.drop(1006);
    expect(last().status).toBe("paused");
    vi.advanceTimersByTime(1000);
    expect(sockets).toHaveLength(2);
    sockets[1]!.open();
    expect(sockets[1]!.sent).toHaveLength(1);
    sockets[1]!.drop(4403);
    expect(last()).toMatchObject({ status: "failed", reason: "Your role does not allow live updates." });
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(2);
  });

  it("shows the server's refusal of the tail with the field it names", () => {
    const { sockets, last } = connect();
    sockets[0]!.open();
    sockets[0]!.push({ type: "error", error: { code: "bad_input", message: "tail.filter: unknown name", details: { field: "tail.filter" } } });
    expect(last()).toMatchObject({ status: "failed", field: "tail.filter", reason: "tail.filter: unknown name" });
  });
});

// The Messages tab's live tail (docs/messages.md, "Streaming scans and the live tail"): the
// socket's messages read, the list of tailed records (newest first, bounded), and one tail's
// connection: open, send the `tail` frame, hand records over in batches, reconnect with backoff
// after a drop, and on stop send `cancel` and close. No React here: useMessageTail wraps it.
import type { MessageRecord, MessagesSocketMessage, TailRequest } from "../api/messages";
import { isRecord } from "./isRecord";
import { backoffDelay, FINAL_CLOSE_CODES, type SocketLike } from "./liveConnection";

/** The most tailed records kept (the oldest go first); the table is virtualized, memory is not free. */
export const MAX_TAIL_ROWS = 5_000;

/** A socket frame as a messages-socket message, or null when it is not one. */
export function parseTailMessage(text: unknown): MessagesSocketMessage | null {
  if (typeof text !== "string") return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  switch (value.type) {
    case "tailing":
      return Array.isArray(value.partitions) ? (value as unknown as MessagesSocketMessage) : null;
    case "records":
      return Array.isArray(value.records) ? (value as unknown as MessagesSocketMessage) : null;
    case "dropped":
      return typeof value.count === "number" ? (value as unknown as MessagesSocketMessage) : null;
    case "done":
      return value as unknown as MessagesSocketMessage;
    case "error":
      return isRecord(value.error) ? (value as unknown as MessagesSocketMessage) : null;
    default:
      return null;
  }
}

/** The tailed records, newest first, and how many were let go past MAX_TAIL_ROWS. */
export interface TailRows {
  records: MessageRecord[];
  /** Received, then let go as the list's oldest (not the server's `dropped`). */
  trimmed: number;
}

export const NO_ROWS: TailRows = { records: [], trimmed: 0 };

/** `arrived` (oldest first, as the server sends them) put on top of the list, at most `max` kept. */
export function prependRecords(rows: TailRows, arrived: readonly MessageRecord[], max = MAX_TAIL_ROWS): TailRows {
  if (arrived.length === 0) return rows;
  const all = [...arrived].reverse().concat(rows.records);
  if (all.length <= max) return { records: all, trimmed: rows.trimmed };
  return { records: all.slice(0, max), trimmed: rows.trimmed + all.length - max };
}

/** The `tail` frame of the tab's choices (nothing sent for a default). */
export function tailFrame(request: TailRequest): { tail: TailRequest } {
  const tail: TailRequest = {};
  if (request.partition?.length) tail.partition = request.partition;
  if (request.filter?.trim()) tail.filter = request.filter.trim();
  if (request.key_format && request.key_format !== "auto") tail.key_format = request.key_format;
  if (request.value_format && request.value_format !== "auto") tail.value_format = request.value_format;
  if (request.isolation && request.isolation !== "read_committed") tail.isolation = request.isolation;
  return { tail };
}

/**
 * - `connecting`: opening the socket (or sent `tail`, not answered yet).
 * - `tailing`: the server follows the partitions.
 * - `paused`: the socket dropped: a reconnect is scheduled (the tail starts at the end again).
 * - `failed`: the server refused the tail (an `error`: a bad filter, a partition) or the socket
 *   (not signed in, no role, unknown cluster): no reconnect.
 * - `off`: stopped.
 */
export type TailStatus = "connecting" | "tailing" | "paused" | "failed" | "off";

export interface TailState {
  status: TailStatus;
  partitions: number[];
  /** The server's `dropped` counts, added up since the tail started. */
  dropped: number;
  /** Why it is paused or failed. */
  reason: string | null;
  /** The field an `error` named (`tail.filter`, `tail.partition`). */
  field: string | null;
}

export const TAIL_OFF: TailState = { status: "off", partitions: [], dropped: 0, reason: null, field: null };

export interface TailConnectionOptions {
  url: string;
  request: TailRequest;
  onState: (state: TailState) => void;
  /** New records, oldest first, at most once per `flushMs`. */
  onRecords: (records: MessageRecord[]) => void;
  flushMs?: number;
  createSocket?: (url: string) => SocketLike;
  random?: () => number;
}

const OPEN = 1;

export class TailConnection {
  private readonly options: TailConnectionOptions;
  private socket: SocketLike | null = null;
  private state: TailState = { ...TAIL_OFF, status: "connecting" };
  private attempt = 0;
  private stopped = true;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private buffer: MessageRecord[] = [];

  constructor(options: TailConnectionOptions) {
    this.options = options;
  }

  start(): void {
    this.stopped = false;
    this.setState({ status: "connecting" });
    this.connect();
  }

  /** Cancel the tail and close the socket (1000); nothing more is handed over. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.buffer = [];
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
      try {
        if (socket.readyState === OPEN) socket.send(JSON.stringify({ cancel: true }));
        socket.close(1000, "tail off");
      } catch {
        // already closed
      }
    }
    this.setState({ status: "off" });
  }

  private setState(patch: Partial<TailState>): void {
    this.state = { ...this.state, ...patch };
    this.options.onState(this.state);
  }

  private connect(): void {
    if (this.stopped) return;
    const create = this.options.createSocket ?? (typeof WebSocket === "undefined" ? null : (url: string) => new WebSocket(url) as SocketLike);
    if (!create) {
      this.setState({ status: "failed", reason: "This browser has no WebSocket support." });
      return;
    }
    let socket: SocketLike;
    try {
      socket = create(this.options.url);
    } catch (error) {
      this.dropped(null, error instanceof Error ? error.message : String(error));
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket === socket) socket.send(JSON.stringify(tailFrame(this.options.request)));
    };
    socket.onmessage = (event) => {
      if (this.socket === socket) this.receive(event.data);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.dropped(event.code, event.reason);
    };
    socket.onerror = () => {
      // A close event follows; it decides what to do.
    };
  }

  private receive(data: unknown): void {
    const message = parseTailMessage(data);
    if (!message) return;
    switch (message.type) {
      case "tailing":
        this.attempt = 0;
        this.setState({ status: "tailing", partitions: message.partitions, reason: null, field: null });
        return;
      case "records":
        this.buffer.push(...message.records);
        if (this.flushTimer === undefined) this.flushTimer = setTimeout(() => this.flush(), this.options.flushMs ?? 100);
        return;
      case "dropped":
        this.setState({ dropped: this.state.dropped + message.count });
        return;
      case "error": {
        // The tail was refused (or ended on Kafka's error): the socket stays open, nothing comes.
        const field = typeof message.error.details?.field === "string" ? message.error.details.field : null;
        this.setState({ status: "failed", reason: message.error.message, field });
        return;
      }
      default:
        return;
    }
  }

  private flush(): void {
    this.flushTimer = undefined;
    const batch = this.buffer;
    this.buffer = [];
    if (batch.length > 0 && !this.stopped) this.options.onRecords(batch);
  }

  private dropped(code: number | null, reason: string): void {
    if (this.stopped) return;
    const final = code === null ? undefined : FINAL_CLOSE_CODES.get(code);
    if (final) {
      this.setState({ status: "failed", reason: this.state.status === "failed" && this.state.reason ? this.state.reason : final });
      return;
    }
    this.attempt += 1;
    this.setState({
      status: "paused",
      reason: reason || (code === null ? "Disconnected." : `The connection closed (code ${code}); reconnecting.`),
    });
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.connect(), backoffDelay(this.attempt, this.options.random));
  }
}

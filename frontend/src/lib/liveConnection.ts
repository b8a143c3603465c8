// One live WebSocket (docs/api.md, "WebSockets"): connect, (re)subscribe, reconnect with backoff,
// batch the pushed messages, and say whether the page is live. No React here: useLiveSocket wraps it.
import { parseLiveMessage, type LiveMessage } from "../api/live";

/**
 * - `connecting`: the first attempt is under way.
 * - `live`: connected, the server says it pushes, and (where a watchdog is set) data keeps coming.
 * - `idle`: connected, but no data for longer than the watchdog allows (e.g. no lag sampler runs);
 *   nothing to reconnect, the page polls as without a socket.
 * - `paused`: the socket dropped, could not connect, or the server cannot push (Redis down): a
 *   reconnect is scheduled.
 * - `off`: no reconnect (the server refused: not signed in, no role, unknown cluster; no WebSocket).
 */
export type LiveStatus = "connecting" | "live" | "idle" | "paused" | "off";

export interface LiveState {
  status: LiveStatus;
  /** Connected and receiving: pages may poll slowly. */
  live: boolean;
  /** Was live at least once since the page opened (a drop then shows the "paused" banner). */
  wasLive: boolean;
  /** Why it is not live (for a tooltip), or null. */
  reason: string | null;
  /** The sampler's interval as the lag socket announced it. */
  sampleSeconds: number | null;
}

export const CONNECTING: LiveState = {
  status: "connecting",
  live: false,
  wasLive: false,
  reason: null,
  sampleSeconds: null,
};

export const OFF: LiveState = { ...CONNECTING, status: "off", reason: "Live updates are off." };

/** Close codes after which reconnecting cannot help (docs/api.md): 4401 not signed in, 4403 no
 * viewer role, 4404 unknown cluster, job or path. */
export const FINAL_CLOSE_CODES: ReadonlyMap<number, string> = new Map([
  [4401, "Not signed in."],
  [4403, "Your role does not allow live updates."],
  [4404, "The server has no live updates for this cluster (or job)."],
]);

export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_MAX_MS = 30_000;

/**
 * The wait before reconnect number `attempt` (1, 2, …): doubling from 1 s up to 30 s, with "equal
 * jitter" (between half and all of it) so that many pages do not all come back at the same instant.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(base / 2 + (base / 2) * random());
}

/** The minimal WebSocket surface used (the browser's, or a test's fake). */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

const OPEN = 1;

export interface LiveConnectionOptions {
  url: string;
  /** Sent after each connect, and again when changed (JSON text); null: nothing to send. */
  subscribe?: string | null;
  onState: (state: LiveState) => void;
  /** The data messages (not `status` / `error`) received in the last `flushMs`, oldest first. */
  onMessages: (messages: LiveMessage[]) => void;
  /** Messages are handed over together at most this often (one render per burst). Default 100. */
  flushMs?: number;
  /** The watchdog: after this long without data the state is `idle` (null: no watchdog). Given
   * the sample interval the server announced. */
  staleAfterMs?: (sampleSeconds: number | null) => number | null;
  /** Default: `new WebSocket(url)`. */
  createSocket?: (url: string) => SocketLike;
  random?: () => number;
}

export class LiveConnection {
  private readonly options: LiveConnectionOptions;
  private socket: SocketLike | null = null;
  private subscribe: string | null;
  private state: LiveState = CONNECTING;
  private attempt = 0;
  private stopped = false;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private watchdog: ReturnType<typeof setTimeout> | undefined;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private buffer: LiveMessage[] = [];
  /** The server's own words for a refusal (an `error` message just before a final close). */
  private serverReason: string | null = null;

  constructor(options: LiveConnectionOptions) {
    this.options = options;
    this.subscribe = options.subscribe ?? null;
  }

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.watchdog);
    clearTimeout(this.flushTimer);
    this.buffer = [];
    this.detach(1000, "page closed");
  }

  /** Change what the socket is subscribed to (sent at once when connected). */
  setSubscribe(subscribe: string | null): void {
    if (subscribe === this.subscribe) return;
    this.subscribe = subscribe;
    if (subscribe !== null && this.socket?.readyState === OPEN) this.socket.send(subscribe);
  }

  private setState(patch: Partial<LiveState>): void {
    const next = { ...this.state, ...patch };
    next.wasLive = this.state.wasLive || next.live;
    const s = this.state;
    if (
      s.status === next.status &&
      s.live === next.live &&
      s.wasLive === next.wasLive &&
      s.reason === next.reason &&
      s.sampleSeconds === next.sampleSeconds
    ) {
      return;
    }
    this.state = next;
    this.options.onState(next);
  }

  private connect(): void {
    if (this.stopped) return;
    this.serverReason = null;
    const create =
      this.options.createSocket ??
      (typeof WebSocket === "undefined" ? null : (url: string) => new WebSocket(url) as SocketLike);
    if (!create) {
      this.setState({ status: "off", live: false, reason: "This browser has no WebSocket support." });
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
      if (this.socket === socket && this.subscribe !== null) socket.send(this.subscribe);
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
    const message = parseLiveMessage(data);
    if (!message) return;
    if (message.type === "status") {
      const sampleSeconds = typeof message.sample_seconds === "number" ? message.sample_seconds : this.state.sampleSeconds;
      if (message.live) {
        this.attempt = 0;
        this.setState({ status: "live", live: true, reason: null, sampleSeconds });
        this.armWatchdog();
      } else {
        // Connected, but the server cannot push (its Redis is down): try again later.
        this.restart(message.reason || "The server cannot push live updates now.");
      }
      return;
    }
    if (message.type === "error") {
      // A subscription the server refused: nothing live will come for it, the page polls.
      // The socket may also be closing for good (an origin refused): its words explain why.
      this.serverReason = message.error.message;
      this.setState({ status: "idle", live: false, reason: message.error.message });
      return;
    }
    this.attempt = 0;
    this.setState({ status: "live", live: true, reason: null });
    this.armWatchdog();
    this.buffer.push(message);
    if (this.flushTimer === undefined) {
      this.flushTimer = setTimeout(() => this.flush(), this.options.flushMs ?? 100);
    }
  }

  private flush(): void {
    this.flushTimer = undefined;
    const batch = this.buffer;
    this.buffer = [];
    if (batch.length > 0 && !this.stopped) this.options.onMessages(batch);
  }

  private armWatchdog(): void {
    clearTimeout(this.watchdog);
    const ms = this.options.staleAfterMs?.(this.state.sampleSeconds) ?? null;
    if (ms === null) return;
    this.watchdog = setTimeout(() => {
      this.setState({
        status: "idle",
        live: false,
        reason: `Connected, but nothing arrived for ${Math.round(ms / 1000)} s.`,
      });
    }, ms);
  }

  /** Close the current socket ourselves and reconnect after the backoff. */
  private restart(reason: string): void {
    this.detach(4000, "reconnecting");
    this.dropped(null, reason);
  }

  private detach(code: number, reason: string): void {
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
    try {
      socket.close(code, reason);
    } catch {
      // already closed
    }
  }

  private dropped(code: number | null, reason: string): void {
    clearTimeout(this.watchdog);
    if (this.stopped) return;
    const final = code === null ? undefined : FINAL_CLOSE_CODES.get(code);
    if (final) {
      this.setState({ status: "off", live: false, reason: this.serverReason ?? final });
      return;
    }
    this.serverReason = null;
    this.attempt += 1;
    this.setState({
      status: "paused",
      live: false,
      reason: reason || (code === null ? "Disconnected." : `The connection closed (code ${code}).`),
    });
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.connect(), backoffDelay(this.attempt, this.options.random));
  }
}

import { act } from "@testing-library/react";
import { vi } from "vitest";

/**
 * A WebSocket stand-in: records what the page sends, and lets a test open it, push frames and
 * close it from the "server" side. setup.ts installs it on globalThis before every test, so pages
 * never touch the network; `FakeWebSocket.instances` lists the sockets made, oldest first.
 */
export class FakeWebSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static instances: FakeWebSocket[] = [];

  readonly url: string;
  readyState = FakeWebSocket.CONNECTING;
  /** Frames the page sent, parsed. */
  sent: unknown[] = [];
  /** How the page closed it, if it did. */
  closedWith: { code?: number; reason?: string } | null = null;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;

  constructor(url: string | URL) {
    this.url = String(url);
    FakeWebSocket.instances.push(this);
  }

  send(data: string): void {
    if (this.readyState !== FakeWebSocket.OPEN) throw new Error("InvalidStateError: not open");
    this.sent.push(JSON.parse(data));
  }

  close(code?: number, reason?: string): void {
    if (this.readyState === FakeWebSocket.CLOSED) return;
    this.readyState = FakeWebSocket.CLOSED;
    this.closedWith = { code, reason };
    this.onclose?.({ code: code ?? 1000, reason: reason ?? "", wasClean: true } as CloseEvent);
  }

  // ---- the server's side ----

  /** The handshake succeeded. */
  open(): void {
    this.readyState = FakeWebSocket.OPEN;
    this.onopen?.(new Event("open"));
  }

  /** A frame from the server (objects as JSON). */
  receive(message: unknown): void {
    const data = typeof message === "string" ? message : JSON.stringify(message);
    this.onmessage?.({ data } as MessageEvent);
  }

  /** The connection is gone (default 1006: dropped without a close frame). */
  drop(code = 1006, reason = ""): void {
    this.readyState = FakeWebSocket.CLOSED;
    this.onerror?.(new Event("error"));
    this.onclose?.({ code, reason, wasClean: false } as CloseEvent);
  }

  get closed(): boolean {
    return this.readyState === FakeWebSocket.CLOSED;
  }

  /** The newest socket whose URL ends with `suffix` (e.g. "/lag"), or throw. */
  static last(suffix = ""): FakeWebSocket {
    const found = [...FakeWebSocket.instances].reverse().find((s) => s.url.endsWith(suffix));
    if (!found) throw new Error(`no WebSocket ending in ${suffix} (made: ${FakeWebSocket.instances.map((s) => s.url).join(", ")})`);
    return found;
  }
}

export function installFakeWebSocket(): void {
  FakeWebSocket.instances = [];
  vi.stubGlobal("WebSocket", FakeWebSocket);
}

/** Messages are handed to the page in batches (LiveConnection's flushMs, 100 ms): wait past one. */
export const FLUSH_WAIT_MS = 150;

/**
 * Open `socket` as the server does (a `status` frame saying it pushes), then push `messages`, and
 * wait for the page to have rendered them (real timers).
 */
export async function pushLive(socket: FakeWebSocket, ...messages: unknown[]): Promise<void> {
  await act(async () => {
    if (socket.readyState === FakeWebSocket.CONNECTING) {
      socket.open();
      socket.receive({ type: "status", live: true, sample_seconds: 5 });
    }
    for (const m of messages) socket.receive(m);
    await new Promise((resolve) => setTimeout(resolve, FLUSH_WAIT_MS));
  });
}

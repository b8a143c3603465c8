import { notifyManager, QueryClient, QueryClientProvider, timeoutManager, type TimeoutProvider } from "@tanstack/react-query";
import { render, renderHook, type RenderHookOptions } from "@testing-library/react";
import type { ReactElement, ReactNode } from "react";
import { afterEach } from "vitest";
import { createQueryClient } from "../api/queryClient";

// Clients made for the test that is running: emptied after it (no timer or query outlives it).
const clients = new Set<QueryClient>();

afterEach(() => {
  for (const client of clients) client.clear();
  clients.clear();
});

/** A fresh QueryClient with the app's defaults, for one test (cleared after it). */
export function createTestQueryClient(): QueryClient {
  const client = createQueryClient();
  clients.add(client);
  return client;
}

/** `children` with a QueryClient (a fresh one unless given). */
export function QueryWrapper({ client, children }: { client?: QueryClient; children: ReactNode }) {
  return <QueryClientProvider client={client ?? createTestQueryClient()}>{children}</QueryClientProvider>;
}

/** render() inside a fresh QueryClient (or `client`). */
export function renderWithQueryClient(ui: ReactElement, client: QueryClient = createTestQueryClient()) {
  return { client, ...render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>) };
}

/** renderHook() inside a fresh QueryClient (or `client`). */
export function renderHookWithQueryClient<Result, Props>(
  hook: (props: Props) => Result,
  options: Omit<RenderHookOptions<Props>, "wrapper"> & { client?: QueryClient } = {},
) {
  const { client = createTestQueryClient(), ...rest } = options;
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return { client, ...renderHook(hook, { ...rest, wrapper }) };
}

/**
 * TanStack Query's timers for the tests (installTestTimers, from setup.ts). The tests fake `setTimeout` (vi.useFakeTimers with
 * toFake: setTimeout, clearTimeout, Date), the timer the pages used before TanStack Query; its
 * `refetchInterval` runs on `setInterval`. Here an interval is a chain of timeouts, each looked up
 * on globalThis when it is set, so `vi.advanceTimersByTimeAsync` drives the polls as it drives
 * every other timer (with real timers, they run in real time as before).
 */
interface ChainedInterval {
  timer: ReturnType<typeof setTimeout> | undefined;
  [Symbol.toPrimitive]: () => number;
}

export const testTimeoutProvider: TimeoutProvider<ManagedId> = {
  setTimeout: (callback, delay) => globalThis.setTimeout(callback, delay) as unknown as ManagedId,
  clearTimeout: (id) => globalThis.clearTimeout(id as unknown as ReturnType<typeof setTimeout>),
  setInterval: (callback, delay) => {
    const handle: ChainedInterval = { timer: undefined, [Symbol.toPrimitive]: () => Number(handle.timer ?? 0) };
    const next = () => {
      handle.timer = globalThis.setTimeout(() => {
        next();
        callback();
      }, delay);
    };
    next();
    return handle;
  },
  clearInterval: (id) => {
    if (id !== undefined && typeof id === "object") globalThis.clearTimeout((id as ChainedInterval).timer);
  },
};
type ManagedId = number | ChainedInterval;

/**
 * Installs testTimeoutProvider (setup.ts, before any QueryClient exists), and delivers TanStack
 * Query's batched notifications in a microtask instead of a `setTimeout(0)`: the pages used to
 * set their state on the answer itself, and the tests expect a poll's answer on screen within the
 * `vi.advanceTimersByTimeAsync` that made the poll (a faked zero timeout scheduled after the
 * answer would wait for the next one).
 */
export function installTestTimers(): void {
  timeoutManager.setTimeoutProvider(testTimeoutProvider);
  notifyManager.setScheduler(queueMicrotask);
}

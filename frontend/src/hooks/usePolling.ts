import { useCallback, useEffect, useRef, useState } from "react";
import { isAbortError } from "../api/client";

export interface PollingState<T> {
  /** The last successful answer; kept when a later poll fails. */
  data: T | undefined;
  /** The error of the latest poll, or null once a poll succeeds again. */
  error: Error | null;
  /** True until the first poll has answered (with data or an error). */
  loading: boolean;
  /** When `data` was last fetched successfully. */
  updatedAt: Date | null;
  /** Poll now instead of waiting for the next tick. */
  refresh: () => void;
  /**
   * Show `data` now, as if a poll had just answered it (e.g. the fresh object a
   * write returned). The answer of a poll already in flight is dropped.
   */
  replace: (data: T) => void;
}

interface Snapshot<T> {
  data: T | undefined;
  error: Error | null;
  loading: boolean;
  updatedAt: Date | null;
}

const initial = { data: undefined, error: null, loading: true, updatedAt: null };

/**
 * Call `fetcher` now and then every `intervalMs` after each answer (never two at
 * once). A changed `fetcher` (wrap it in useCallback with its inputs) starts
 * over with empty state; unmounting aborts the call in flight. A changed
 * `intervalMs` keeps the data and only reschedules the next poll (pages poll
 * slowly while a live socket pushes, fast again when it drops). While the tab is
 * hidden polls are skipped, and one runs as soon as it is visible again.
 * `refresh()` during a poll runs another one right after it (its answer may
 * predate what prompted the refresh).
 */
export function usePolling<T>(
  fetcher: (signal: AbortSignal) => Promise<T>,
  intervalMs: number,
): PollingState<T> {
  const [snapshot, setSnapshot] = useState<Snapshot<T>>(initial);
  const pollNow = useRef<() => void>(() => {});
  const interval = useRef(intervalMs);
  const reschedule = useRef<() => void>(() => {});
  // Bumped by replace(): a poll that started before is stale when it answers.
  const generation = useRef(0);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let controller: AbortController | null = null;
    // refresh() while a poll is in flight: poll again as soon as it answers.
    let again = false;
    setSnapshot(initial);

    const schedule = () => {
      clearTimeout(timer);
      if (!stopped) timer = setTimeout(poll, interval.current);
    };

    async function poll(): Promise<void> {
      clearTimeout(timer);
      if (controller) return; // one call at a time; its completion schedules the next
      if (typeof document !== "undefined" && document.hidden) {
        schedule();
        return;
      }
      const current = new AbortController();
      controller = current;
      const startedAt = generation.current;
      try {
        const data = await fetcher(current.signal);
        if (stopped) return;
        if (startedAt === generation.current) {
          setSnapshot({ data, error: null, loading: false, updatedAt: new Date() });
        }
      } catch (error) {
        if (stopped || isAbortError(error)) return;
        const err = error instanceof Error ? error : new Error(String(error));
        if (startedAt === generation.current) {
          setSnapshot((prev) => ({ ...prev, error: err, loading: false }));
        }
      } finally {
        if (controller === current) controller = null;
      }
      if (again && !stopped) {
        again = false;
        void poll();
      } else {
        schedule();
      }
    }

    const onVisible = () => {
      if (!document.hidden) void poll();
    };
    pollNow.current = () => {
      if (controller) again = true;
      else void poll();
    };
    // A new interval applies from now on; a poll in flight schedules with it when it answers.
    reschedule.current = () => {
      if (!controller) schedule();
    };
    document.addEventListener("visibilitychange", onVisible);
    void poll();

    return () => {
      stopped = true;
      clearTimeout(timer);
      controller?.abort();
      document.removeEventListener("visibilitychange", onVisible);
      pollNow.current = () => {};
      reschedule.current = () => {};
    };
  }, [fetcher]);

  useEffect(() => {
    if (interval.current === intervalMs) return;
    interval.current = intervalMs;
    reschedule.current();
  }, [intervalMs]);

  const refresh = useCallback(() => pollNow.current(), []);
  const replace = useCallback((data: T) => {
    generation.current += 1;
    setSnapshot({ data, error: null, loading: false, updatedAt: new Date() });
  }, []);
  return { ...snapshot, refresh, replace };
}

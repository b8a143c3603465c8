import { hashKey, useQuery, useQueryClient, type Query, type QueryKey, type UseQueryOptions } from "@tanstack/react-query";
import { useCallback, useMemo, useRef } from "react";
import { refetchNow, replaceQueryData } from "../api/queryClient";

/** What a page shows of one polled query (PageShell takes most of it as it is). */
export interface PolledQuery<T> {
  /** The last successful answer (or replacement); kept when a later poll fails. */
  data: T | undefined;
  /** The error of the latest poll, or null once a poll succeeds again. */
  error: Error | null;
  /** True until the first poll has answered (with data or an error). */
  loading: boolean;
  /** When `data` was last fetched or replaced. */
  updatedAt: Date | null;
  /** Poll now instead of waiting for the next tick (a poll in flight is made again). */
  refresh: () => void;
  /**
   * Show `data` now, as if a poll had just answered it (e.g. the fresh object a write returned).
   * The answer of a poll already in flight is dropped.
   */
  replace: (data: T) => void;
}

/** Milliseconds between polls, or a function of the data on screen (e.g. slower once a job ended). */
export type PollInterval<T> = number | ((data: T | undefined) => number);

type PolledQueryOptions<T, K extends QueryKey> = Omit<UseQueryOptions<T, Error, T, K>, "refetchInterval" | "select"> & {
  queryKey: K;
};

/**
 * One query of `options` (api/queries.ts) kept current by polling: fetched when the page opens
 * (or the key changes: another topic, filter…), then again `interval` ms after each answer (a
 * changed interval only reschedules; the data stays). Pages with a live socket poll slowly while
 * it pushes (`pollInterval(live, ms)`) and refetch at once on a push (`useRefetch(key)`, or `refresh`).
 */
export function usePolledQuery<T, K extends QueryKey>(
  options: PolledQueryOptions<T, K>,
  interval: PollInterval<T>,
): PolledQuery<T> {
  const client = useQueryClient();
  // TanStack Query reschedules with the interval of the latest render after each answer.
  const refetchInterval =
    typeof interval === "number" ? interval : (query: Query<T, Error, T, K>) => interval(query.state.data);
  const result = useQuery({ ...options, refetchInterval });

  const { queryKey } = options;
  const keyRef = useRef(queryKey);
  keyRef.current = queryKey;
  const hash = hashKey(queryKey);
  // Stable for one key (its hash): pages pass them to effects and socket callbacks.
  const refresh = useCallback(() => void refetchNow(client, keyRef.current), [client, hash]);
  const replace = useCallback((data: T) => replaceQueryData(client, keyRef.current, data), [client, hash]);
  const { dataUpdatedAt } = result;
  const updatedAt = useMemo(() => (dataUpdatedAt ? new Date(dataUpdatedAt) : null), [dataUpdatedAt]);

  return {
    data: result.data,
    error: result.error,
    loading: result.isPending,
    updatedAt,
    refresh,
    replace,
  };
}

/**
 * A stable callback that fetches the shown queries under `queryKey` again now: what a socket push
 * (a change the page shows) calls.
 */
export function useRefetch(queryKey: QueryKey): () => void {
  const client = useQueryClient();
  const keyRef = useRef(queryKey);
  keyRef.current = queryKey;
  const hash = hashKey(queryKey);
  return useCallback(() => void refetchNow(client, keyRef.current), [client, hash]);
}

// The one QueryClient of the app (created in main.tsx, provided by App) and the two cache writes
// the pages make: refetch now (a socket pushed a change) and replace (a write answered with fresh
// data). Its defaults keep what the pages did before TanStack Query:
//
// * no automatic retry: a failed call shows its error at once (over the last good data, dimmed),
//   and the page's next poll is the retry. A 4xx would fail the same way again anyway (a 401 has
//   already sent the browser to the login page, client.ts).
// * staleTime 0: every page that opens asks the server again (a cached answer shows meanwhile).
// * a tab that becomes visible again polls at once (TanStack Query's "window focus" is the
//   `visibilitychange` event), and no poll runs while it is hidden (refetchIntervalInBackground).
// * no refetch on the browser's `online` event, and no pausing while `navigator.onLine` is false:
//   the call is made and its failure ("Could not reach the Kafka Console server.") shown.
import { focusManager, QueryClient, type DefaultOptions, type QueryKey } from "@tanstack/react-query";

export const QUERY_DEFAULTS = {
  queries: {
    retry: false,
    staleTime: 0,
    refetchOnWindowFocus: true,
    refetchIntervalInBackground: false,
    refetchOnReconnect: false,
    networkMode: "always",
  },
  mutations: {
    retry: false,
    networkMode: "always",
  },
} satisfies DefaultOptions;

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: QUERY_DEFAULTS });
}

/**
 * Fetch the queries under `queryKey` that a page shows again, now (a socket pushed a change, or a
 * write elsewhere changed them). A fetch already in flight is cancelled first and made again: its
 * answer may predate the change. While the tab is hidden nothing is fetched: the poll when it is
 * visible again catches up.
 */
export async function refetchNow(client: QueryClient, queryKey: QueryKey): Promise<void> {
  if (!focusManager.isFocused()) return;
  const filters = { queryKey, type: "active" } as const;
  await client.cancelQueries(filters);
  await client.refetchQueries(filters);
}

/**
 * Show `data` for `queryKey` now, as if a poll had just answered it (a write answered with the
 * fresh object, or a socket pushed it). The answer of a poll already in flight is dropped: it was
 * asked for before the write.
 */
export function replaceQueryData<T>(client: QueryClient, queryKey: QueryKey, data: T): void {
  void client.cancelQueries({ queryKey, exact: true });
  client.setQueryData(queryKey, data);
}

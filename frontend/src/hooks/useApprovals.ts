import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { approvalSocketPath, socketUrl, type ApprovalMessage } from "../api/live";
import { approvalListQuery } from "../api/queries";
import { replaceQueryData } from "../api/queryClient";
import { queryKeys } from "../api/queryKeys";
import type { Approval, ApprovalState } from "../api/types";
import { hasRole, useCurrentUser } from "../components/CurrentUser";
import { combineLive, isExpired, mergeApproval } from "../lib/approvals";
import { CONNECTING, LiveConnection, type LiveState } from "../lib/liveConnection";

/** The approval list is polled this often while a socket is not live (and the top bar's count always). */
export const APPROVALS_POLL_MS = 30_000;
/** …and this often while every socket pushes (a safety net; an expiry is only seen on a read). */
export const APPROVALS_LIVE_POLL_MS = 120_000;

/**
 * `approval` as it is now (a push, or a decision's answer) in every cached approval list (added,
 * replaced, or dropped from a list of another state) and as the cached request itself. A poll in
 * flight is dropped: it was asked before this change.
 */
export function storeApproval(client: QueryClient, approval: Approval): void {
  for (const [key, data] of client.getQueriesData<Approval[]>({ queryKey: queryKeys.approvalLists() })) {
    if (!data) continue;
    const filter = (key[2] as { state: ApprovalState | null } | undefined)?.state ?? null;
    const next = mergeApproval(data, approval, filter);
    if (next !== data) replaceQueryData(client, key, next);
  }
  replaceQueryData(client, queryKeys.approval(approval.id), approval);
}

/**
 * One approvals socket per cluster (`/ws/clusters/{cluster}/approvals`), each pushing the
 * requests of its cluster as they are asked for and decided; the pushed requests go to the cache
 * (storeApproval). The state is live only while every socket is (lib/approvals combineLive).
 */
export function useApprovalSockets(clusters: readonly string[]): LiveState {
  const client = useQueryClient();
  const key = clusters.join("\n");
  const [states, setStates] = useState<Record<string, LiveState>>({});
  const onApprovals = useRef((messages: ApprovalMessage[]) => {
    for (const { type: _type, ...approval } of messages) storeApproval(client, approval);
  });

  useEffect(() => {
    const names = key ? key.split("\n") : [];
    setStates(Object.fromEntries(names.map((name) => [name, CONNECTING])));
    const connections = names.map((name) => {
      const connection = new LiveConnection({
        url: socketUrl(approvalSocketPath(name)),
        onState: (state) => setStates((prev) => ({ ...prev, [name]: state })),
        onMessages: (messages) => {
          const approvals = messages.filter((m): m is ApprovalMessage => m.type === "approval");
          if (approvals.length > 0) onApprovals.current(approvals);
        },
      });
      connection.start();
      return connection;
    });
    return () => {
      for (const connection of connections) connection.stop();
    };
  }, [key]);

  return useMemo(() => {
    const names = key ? key.split("\n") : [];
    return combineLive(names.map((name) => [name, states[name] ?? CONNECTING] as const));
  }, [key, states]);
}

/**
 * The number of pending requests the user may see (the top bar's count), polled every 30 s; the
 * approvals page's pushes update the same list. Null while unknown (loading, failed, or no role).
 */
export function usePendingApprovalCount(): number | null {
  const { user } = useCurrentUser();
  const enabled = hasRole(user, "viewer");
  const { data } = useQuery({ ...approvalListQuery("pending"), enabled, refetchInterval: APPROVALS_POLL_MS });
  const now = useNow(APPROVALS_POLL_MS);
  if (!enabled || !data) return null;
  return data.filter((a) => !isExpired(a, now)).length;
}

/** Date.now(), again every `ms` (for "expires in" and ages). */
export function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  const tick = useCallback(() => setNow(Date.now()), []);
  useEffect(() => {
    const timer = setTimeout(tick, ms);
    return () => clearTimeout(timer);
  }, [now, ms, tick]);
  return now;
}

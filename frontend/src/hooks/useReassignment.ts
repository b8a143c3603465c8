import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { reassignmentSocketPath, type ReassignmentMessage } from "../api/live";
import { reassignmentQuery } from "../api/queries";
import { replaceQueryData } from "../api/queryClient";
import { queryKeys } from "../api/queryKeys";
import type { Reassignment } from "../api/types";
import { LIVE_FALLBACK_POLL_MS, useLiveSocket, type LiveState } from "./useLiveSocket";
import { usePolledQuery, type PolledQuery } from "./usePolledQuery";

/** Without a live socket a running reassignment is polled this often (the server's pace). */
export const REASSIGNMENT_POLL_MS = 2_000;

/**
 * One reassignment's socket (admins): the reassignment on connect, then every ~2 s while it runs
 * and once when it ends. Only the newest of a batch is handed on (each is the whole object).
 */
export function useReassignmentSocket(
  cluster: string,
  id: number,
  onReassignment: (message: ReassignmentMessage) => void,
): LiveState {
  return useLiveSocket(cluster ? reassignmentSocketPath(cluster, id) : null, {
    onMessages: (messages) => {
      const pushed = messages.filter((m): m is ReassignmentMessage => m.type === "reassignment" && m.id === id);
      const newest = pushed[pushed.length - 1];
      if (newest) onReassignment(newest);
    },
  });
}

/**
 * One reassignment kept current, as useSparkJob keeps a job: each push replaces the cached object
 * (queryKeys.reassignment); GET every 2 s while it runs and the socket is not live (connecting,
 * the server cannot push), every 30 s while it is live or once the reassignment has ended.
 */
export function useReassignment(cluster: string, id: number): PolledQuery<Reassignment> & { live: LiveState } {
  const client = useQueryClient();
  const onReassignment = useCallback(
    (message: ReassignmentMessage) => {
      const { type: _type, ...reassignment } = message;
      replaceQueryData<Reassignment>(client, queryKeys.reassignment(cluster, id), reassignment);
    },
    [client, cluster, id],
  );
  const live = useReassignmentSocket(cluster, id, onReassignment);
  const polling = usePolledQuery(reassignmentQuery(cluster, id), (r) =>
    live.live || (r !== undefined && r.state !== "running") ? LIVE_FALLBACK_POLL_MS : REASSIGNMENT_POLL_MS,
  );
  return { ...polling, live };
}

import { useEffect, useRef, useState } from "react";
import {
  lagSocketPath,
  metadataSocketPath,
  socketUrl,
  sparkJobSocketPath,
  type JobMessage,
  type LagSocketMessage,
  type LagSubscription,
  type LiveMessage,
  type MetadataMessage,
} from "../api/live";
import { CONNECTING, LiveConnection, OFF, type LiveConnectionOptions, type LiveState } from "../lib/liveConnection";

export type { LiveState } from "../lib/liveConnection";

/** While a socket is live, pages still poll this often (in case a push is lost). */
export const LIVE_FALLBACK_POLL_MS = 30_000;

/** Lag messages come every sample: after 3 missed samples (at least 15 s) the socket counts as idle. */
export function lagStaleAfterMs(sampleSeconds: number | null): number {
  return Math.max(15_000, 3 * (sampleSeconds ?? 5) * 1000);
}

export interface LiveSocketOptions {
  /** Sent after every (re)connect and whenever it changes (compared as JSON). */
  subscribe?: unknown;
  /** The pushed data messages, in batches (at most one call per `flushMs`). */
  onMessages?: (messages: LiveMessage[]) => void;
  staleAfterMs?: LiveConnectionOptions["staleAfterMs"];
  flushMs?: number;
}

/**
 * A WebSocket to `path` on this host (the session cookie authenticates), reconnecting by itself
 * with backoff while the page is open. The state says whether the page is live (connected and
 * receiving); null `path`: no socket (state `off`).
 */
export function useLiveSocket(path: string | null, options: LiveSocketOptions = {}): LiveState {
  const [state, setState] = useState<LiveState>(path === null ? OFF : CONNECTING);
  const subscribe = options.subscribe === undefined || options.subscribe === null ? null : JSON.stringify(options.subscribe);

  // The latest callbacks and subscription, read by the connection without restarting it.
  const latest = useRef(options);
  latest.current = options;
  const subscribeRef = useRef(subscribe);
  subscribeRef.current = subscribe;
  const connection = useRef<LiveConnection | null>(null);

  useEffect(() => {
    if (path === null) {
      setState(OFF);
      return;
    }
    setState(CONNECTING);
    const conn = new LiveConnection({
      url: socketUrl(path),
      subscribe: subscribeRef.current,
      onState: setState,
      onMessages: (messages) => latest.current.onMessages?.(messages),
      staleAfterMs: (sampleSeconds) => latest.current.staleAfterMs?.(sampleSeconds) ?? null,
      flushMs: latest.current.flushMs,
    });
    connection.current = conn;
    conn.start();
    return () => {
      conn.stop();
      if (connection.current === conn) connection.current = null;
    };
  }, [path]);

  useEffect(() => {
    connection.current?.setSubscribe(subscribe);
  }, [subscribe]);

  return state;
}

/**
 * Live lag of some groups (`{"subscribe": {"groups": [...]}}`) or of every group of the cluster
 * (`{"subscribe": {"all": true}}`): `lag` and `group_state` messages, batched. Idle after three
 * samples without a message.
 */
export function useLagSocket(
  cluster: string,
  subscription: LagSubscription | null,
  onMessages: (messages: LagSocketMessage[]) => void,
): LiveState {
  return useLiveSocket(cluster && subscription ? lagSocketPath(cluster) : null, {
    subscribe: subscription,
    onMessages: (messages) =>
      onMessages(messages.filter((m): m is LagSocketMessage => m.type === "lag" || m.type === "group_state")),
    staleAfterMs: lagStaleAfterMs,
  });
}

/** `metadata` messages of a cluster: pushed only when brokers, leaders, ISR or topics change. */
export function useMetadataSocket(cluster: string, onMetadata: (messages: MetadataMessage[]) => void): LiveState {
  return useLiveSocket(cluster ? metadataSocketPath(cluster) : null, {
    onMessages: (messages) => {
      const metadata = messages.filter((m): m is MetadataMessage => m.type === "metadata");
      if (metadata.length > 0) onMetadata(metadata);
    },
  });
}

/**
 * One Spark job (`/ws/spark/jobs/{id}`): the job on connect, then after every change. Only the
 * newest of a batch is handed on (each message is the whole job). Null `jobId`: no socket.
 */
export function useSparkJobSocket(jobId: number | null, onJob: (job: JobMessage) => void): LiveState {
  return useLiveSocket(jobId === null ? null : sparkJobSocketPath(jobId), {
    onMessages: (messages) => {
      const jobs = messages.filter((m): m is JobMessage => m.type === "job" && m.id === jobId);
      const newest = jobs[jobs.length - 1];
      if (newest) onJob(newest);
    },
  });
}

/** The polling interval of a page (usePolledQuery's): its own without live updates, the slow fallback with them. */
export function pollInterval(live: LiveState, withoutLiveMs: number): number {
  return live.live ? Math.max(withoutLiveMs, LIVE_FALLBACK_POLL_MS) : withoutLiveMs;
}

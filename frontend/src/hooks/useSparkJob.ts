import { useCallback, useEffect, useRef, useState } from "react";
import { getSparkJob } from "../api/endpoints";
import type { JobMessage } from "../api/live";
import type { SparkJob } from "../api/types";
import { isActive } from "../lib/sparkJobs";
import { LIVE_FALLBACK_POLL_MS, useSparkJobSocket, type LiveState } from "./useLiveSocket";
import { usePolling, type PollingState } from "./usePolling";

/** Without a live socket an active job is polled this often. */
export const JOB_POLL_MS = 2_000;

/**
 * One job, kept current: the job socket's pushes (the whole job on every change) replace it at
 * once; while the socket is not live (connecting, Redis down, no such socket on the server) GET
 * spark/jobs/{id} is polled every 2 s. With a live socket, or once the job has ended, it is
 * polled every 30 s only, as a safety net.
 */
export function useSparkJob(jobId: number): PollingState<SparkJob> & { live: LiveState } {
  const fetcher = useCallback((signal: AbortSignal) => getSparkJob(jobId, signal), [jobId]);
  const replaceRef = useRef<(job: SparkJob) => void>(() => {});
  const onJob = useCallback((message: JobMessage) => {
    const { type: _type, ...job } = message;
    replaceRef.current(job);
  }, []);
  const live = useSparkJobSocket(jobId, onJob);

  const [ended, setEnded] = useState(false);
  const polling = usePolling(fetcher, live.live || ended ? LIVE_FALLBACK_POLL_MS : JOB_POLL_MS);
  replaceRef.current = polling.replace;
  const endedNow = polling.data !== undefined && !isActive(polling.data.state);
  useEffect(() => setEnded(endedNow), [endedNow]);

  return { ...polling, live };
}

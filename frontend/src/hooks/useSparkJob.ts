import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import type { JobMessage } from "../api/live";
import { sparkJobQuery } from "../api/queries";
import { replaceQueryData } from "../api/queryClient";
import { queryKeys } from "../api/queryKeys";
import type { SparkJob } from "../api/types";
import { isActive } from "../lib/sparkJobs";
import { LIVE_FALLBACK_POLL_MS, useSparkJobSocket, type LiveState } from "./useLiveSocket";
import { usePolledQuery, type PolledQuery } from "./usePolledQuery";

/** Without a live socket an active job is polled this often. */
export const JOB_POLL_MS = 2_000;

/**
 * One job, kept current: the job socket's pushes (the whole job on every change) replace the
 * cached job at once (queryKeys.sparkJob); while the socket is not live (connecting, Redis down,
 * no such socket on the server) GET spark/jobs/{id} is polled every 2 s. With a live socket, or
 * once the job has ended, it is polled every 30 s only, as a safety net.
 */
export function useSparkJob(jobId: number): PolledQuery<SparkJob> & { live: LiveState } {
  const client = useQueryClient();
  const onJob = useCallback(
    (message: JobMessage) => {
      const { type: _type, ...job } = message;
      replaceQueryData<SparkJob>(client, queryKeys.sparkJob(jobId), job);
    },
    [client, jobId],
  );
  const live = useSparkJobSocket(jobId, onJob);
  const polling = usePolledQuery(sparkJobQuery(jobId), (job) =>
    live.live || (job !== undefined && !isActive(job.state)) ? LIVE_FALLBACK_POLL_MS : JOB_POLL_MS,
  );
  return { ...polling, live };
}

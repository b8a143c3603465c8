import { useCallback, useEffect, useMemo, useState } from "react";
import type { LagSocketMessage, LagSubscription } from "../../api/live";
import { groupDetailQuery } from "../../api/queries";
import { queryKeys } from "../../api/queryKeys";
import { pollInterval, useLagSocket } from "../../hooks/useLiveSocket";
import { usePolledQuery, useRefetch } from "../../hooks/usePolledQuery";
import { applyGroupMessages, EMPTY_LIVE_GROUP, membershipChanged } from "../../lib/liveGroup";
import { latestOf, overlayDetail } from "../../lib/liveGroups";

/** Without live samples the group's detail is polled this often (every 30 s with them). */
export const GROUP_POLL_MS = 5_000;

/**
 * One consumer group as the group page shows it: the REST detail (GET …/groups/{group}, polled
 * every 5 s, every 30 s while the lag socket is live) with the newer live samples of the group
 * overlaid (numbers, statuses, offsets), the live points and per-partition series for the charts,
 * and when the last answer or sample arrived. A `group_state` message saying members joined or
 * left refetches the detail at once (members and assignments come from REST only).
 */
export function useLiveGroup(cluster: string, group: string) {
  // Live samples of this group (reset when another group opens in the same page).
  const [liveView, setLiveView] = useState(EMPTY_LIVE_GROUP);
  // When the last live sample of the group arrived (the title's "updated" time).
  const [liveAt, setLiveAt] = useState<Date | null>(null);
  useEffect(() => {
    setLiveView(EMPTY_LIVE_GROUP);
    setLiveAt(null);
  }, [cluster, group]);

  const refetchDetail = useRefetch(queryKeys.groupDetail(cluster, group));
  const subscription = useMemo<LagSubscription | null>(() => (group ? { subscribe: { groups: [group] } } : null), [group]);
  const onMessages = useCallback(
    (messages: LagSocketMessage[]) => {
      setLiveView((prev) => applyGroupMessages(prev, messages, group));
      if (messages.some((m) => m.type === "lag" && m.group_id === group)) setLiveAt(new Date());
      // Members joined or left: the members and assignments come from the REST detail.
      if (membershipChanged(messages, group)) refetchDetail();
    },
    [group, refetchDetail],
  );
  const live = useLagSocket(cluster, subscription, onMessages);

  const { data: fetched, error, loading, updatedAt, refresh } = usePolledQuery(
    groupDetailQuery(cluster, group),
    pollInterval(live, GROUP_POLL_MS),
  );
  const data = useMemo(() => (fetched ? overlayDetail(fetched, liveView.latest) : undefined), [fetched, liveView.latest]);

  return {
    /** The detail with the live samples overlaid; undefined until the first answer. */
    data,
    error,
    loading,
    /** The data on screen is from an earlier answer (the latest poll failed). */
    stale: !!error && data !== undefined,
    /** The latest of the last answer and the last live sample. */
    updatedAt: latestOf(updatedAt, liveAt),
    refresh,
    live,
    /** Live points and per-partition series received since the page opened. */
    liveView,
  };
}

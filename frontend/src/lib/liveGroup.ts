// What the group page keeps from its lag socket: the newest sample (overlaid on the REST detail),
// the live points appended to the lag history, and the per-partition series since the page opened.
import type { LagMessage, LagSocketMessage } from "../api/live";
import type { LagPoint } from "../api/types";
import {
  appendLivePoints,
  appendPartitionSample,
  EMPTY_PARTITION_SERIES,
  livePointsOf,
  type PartitionSeries,
} from "./lagHistory";
import { timeOf } from "./liveGroups";

export interface LiveGroupView {
  /** The newest `lag` message of the group. */
  latest: LagMessage | null;
  /** Per topic and sample, for the lag-over-time chart. */
  points: LagPoint[];
  /** Per partition and sample, since the page opened. */
  partitions: PartitionSeries;
}

export const EMPTY_LIVE_GROUP: LiveGroupView = { latest: null, points: [], partitions: EMPTY_PARTITION_SERIES };

/** The view with a batch of socket messages applied (other groups' ignored); the same object when
 * nothing changed. */
export function applyGroupMessages(view: LiveGroupView, messages: readonly LagSocketMessage[], group: string): LiveGroupView {
  let next = view;
  for (const message of messages) {
    if (message.type !== "lag" || message.group_id !== group) continue;
    const ts = timeOf(message.ts);
    if (ts === null) continue;
    const latestTs = timeOf(next.latest?.ts);
    next = {
      latest: latestTs === null || ts >= latestTs ? message : next.latest,
      points: appendLivePoints(next.points, livePointsOf(message)),
      partitions: appendPartitionSample(next.partitions, message),
    };
  }
  return next;
}

/** Whether the batch says the group's membership or state changed (the page refetches members). */
export function membershipChanged(messages: readonly LagSocketMessage[], group: string): boolean {
  return messages.some((m) => m.type === "group_state" && m.group_id === group);
}

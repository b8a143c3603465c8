// Consumer group states: tones and help for badges, topics of a group, the 409 group_active check.
import { ApiError } from "../api/client";
import type { GroupDetail, GroupState } from "../api/types";
import type { Tone } from "../components/StatusBadge";

/** States in which the group is moving partitions between members. */
export const REBALANCING_STATES = new Set([
  "PreparingRebalance",
  "CompletingRebalance",
  "Assigning",
  "Reconciling",
]);

/** Stable green, Empty grey, rebalancing amber, Dead red, anything else grey. */
export function groupStateTone(state: GroupState): Tone {
  if (state === "Stable") return "ok";
  if (state === "Dead") return "error";
  if (REBALANCING_STATES.has(state)) return "warn";
  return "neutral";
}

/** What the state means for an operator. */
export function groupStateHelp(state: GroupState): string {
  switch (state) {
    case "Stable":
      return "Members are consuming; offsets cannot be reset or the group deleted until they stop.";
    case "Empty":
      return "No member is connected; offsets are kept and can be reset.";
    case "Dead":
      return "The group has no members and no metadata left (or does not exist).";
    default:
      return REBALANCING_STATES.has(state)
        ? "Partitions are being reassigned between members."
        : "State reported by the group coordinator.";
  }
}

/** The group's topics: those with committed offsets and those assigned to members, sorted. */
export function groupTopics(group: Pick<GroupDetail, "offsets" | "members">): string[] {
  const names = new Set<string>();
  for (const o of group.offsets) names.add(o.topic);
  for (const m of group.members) for (const a of m.assignments) names.add(a.topic);
  return [...names].sort();
}

/** "orders: 0, 1, 2; payments: 4" for a member's assignments. */
export function formatAssignments(assignments: { topic: string; partition: number }[]): string {
  const byTopic = new Map<string, number[]>();
  for (const a of assignments) {
    const list = byTopic.get(a.topic) ?? [];
    list.push(a.partition);
    byTopic.set(a.topic, list);
  }
  return [...byTopic.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([topic, parts]) => `${topic}: ${parts.sort((x, y) => x - y).join(", ")}`)
    .join("; ");
}

/** The 409 Kafka's rule gives: offsets of a group with members cannot change. */
export function isGroupActive(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409 && error.code === "group_active";
}

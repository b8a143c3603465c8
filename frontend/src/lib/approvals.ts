// The approvals page's pieces that are not React (docs/governance.md, "Two-person approval on
// protected clusters"; docs/api.md, "Approvals"): the role each held change needs, who may decide
// a request, states and their tones, a pushed request merged into a list, the page's URL query,
// where a request's target is, and the live state of one socket per cluster taken together.
import { ApiError, ApprovalRequested } from "../api/client";
import type { Approval, ApprovalState, CurrentUser, Role } from "../api/types";
import { hasRole } from "../components/CurrentUser";
import type { Tone } from "../components/StatusBadge";
import type { LiveState } from "./liveConnection";
import { OFF } from "./liveConnection";
import { isRecord } from "./isRecord";
import { aclsPath, clusterPath, groupPath, topicPath } from "../navigation";

/** The changes a protected cluster holds (the audit log's action names): what they are called
 * here and the role that asks for them and approves them (approvals/actions.py registers the same). */
export const APPROVAL_ACTIONS: Readonly<Record<string, { label: string; role: Role }>> = {
  "offsets.reset.execute": { label: "Offset reset", role: "operator" },
  "offsets.reset.undo": { label: "Offset reset undo", role: "operator" },
  "topic.delete": { label: "Topic delete", role: "admin" },
  "topic.configs": { label: "Topic configs", role: "admin" },
  "topic.partitions": { label: "Add partitions", role: "admin" },
  "leaders.elect": { label: "Leader election", role: "admin" },
  "acl.delete": { label: "ACL delete", role: "admin" },
};

/** The role a request's change needs on its cluster to be approved or rejected: operator for the
 * offset resets (`offsets.reset.*`), admin for the rest (topic.*, acl.delete, leaders.elect, and
 * any action this SPA does not know yet: the server decides anyway). */
export function approvalRole(action: string): Role {
  const known = APPROVAL_ACTIONS[action];
  if (known) return known.role;
  return action.startsWith("offsets.reset.") ? "operator" : "admin";
}

/** "Offset reset", or the action itself when unknown. */
export function actionLabel(action: string): string {
  return APPROVAL_ACTIONS[action]?.label ?? action;
}

/** True for the error a change on a protected cluster throws when it became a request (202). */
export function isApprovalRequested(error: unknown): error is ApprovalRequested {
  return error instanceof ApprovalRequested;
}

/** A pending request whose expiry has passed (the server says `expired` on its next read). */
export function isExpired(approval: Pick<Approval, "state" | "expires_at">, now: number): boolean {
  if (approval.state !== "pending") return false;
  const expires = Date.parse(approval.expires_at);
  return !Number.isNaN(expires) && expires <= now;
}

/** The state to show: `expired` for a pending request past its expiry, else the server's. */
export function shownState(approval: Pick<Approval, "state" | "expires_at">, now: number): ApprovalState {
  return isExpired(approval, now) ? "expired" : approval.state;
}

export const APPROVAL_STATE_TONE: Record<ApprovalState, Tone> = {
  pending: "warn",
  running: "info",
  executed: "ok",
  failed: "error",
  rejected: "neutral",
  expired: "neutral",
};

export const APPROVAL_STATE_HELP: Record<ApprovalState, string> = {
  pending: "Waiting for someone else with the role to approve or reject it: nothing changed yet",
  running: "Approved: the change is being made now",
  executed: "Approved and done, exactly as planned",
  failed: "Approved, but refused or failed (what it was planned on had moved): nothing changed, or see the error",
  rejected: "Rejected: it never runs",
  expired: "Nobody decided in time: it never runs; ask again",
};

/** Why `user` cannot approve or reject `approval` now (a sentence), or null when they may. The
 * server refuses the requester and anyone without the change's role on its cluster (403). */
export function decideBlock(user: CurrentUser | null, approval: Approval, now: number): string | null {
  const state = shownState(approval, now);
  if (state !== "pending") return null; // nothing to decide: no buttons and no note
  const role = approvalRole(approval.action);
  if (user !== null && user.username === approval.requested_by) {
    return `You asked for this change: someone else with the ${role} role on ${approval.cluster} approves or rejects it.`;
  }
  if (!hasRole(user, role, approval.cluster)) {
    return `Deciding this request needs the ${role} role on cluster ${approval.cluster}.`;
  }
  return null;
}

/** Whether `user` sees the Approve and Reject buttons of `approval`. */
export function canDecide(user: CurrentUser | null, approval: Approval, now: number): boolean {
  return user !== null && shownState(approval, now) === "pending" && decideBlock(user, approval, now) === null;
}

/** Newest first, as the API lists them. */
const newestFirst = (a: Approval, b: Approval) => b.id - a.id;

/**
 * `list` with `approval` as it is now (a push, or a decision's answer): replaced in place, added
 * when new, dropped from a list of one state (`filter`) it no longer is in. The same array when
 * nothing changes.
 */
export function mergeApproval(list: readonly Approval[], approval: Approval, filter: ApprovalState | null): Approval[] {
  const belongs = filter === null || approval.state === filter;
  const index = list.findIndex((a) => a.id === approval.id);
  if (index < 0) return belongs ? [...list, approval].sort(newestFirst) : (list as Approval[]);
  if (!belongs) return list.filter((a) => a.id !== approval.id);
  const next = [...list];
  next[index] = approval;
  return next;
}

/** The clusters whose approval sockets a user opens: every cluster they hold a role on, sorted. */
export function readableClusters(user: CurrentUser | null): string[] {
  if (!user) return [];
  return Object.keys(user.cluster_roles)
    .filter((cluster) => hasRole(user, "viewer", cluster))
    .sort();
}

/** What the page's URL query holds: `state=all` (else the pending requests) and `id` (the request open). */
export interface ApprovalsQuery {
  all: boolean;
  id: number | null;
}

export function readApprovalsQuery(params: URLSearchParams): ApprovalsQuery {
  const raw = params.get("id");
  const id = raw !== null && /^\d+$/.test(raw) ? Number(raw) : null;
  return { all: params.get("state") === "all", id };
}

/** The offset reset a request runs (`offsets.reset.*`: its plan holds `reset_id`), or null. */
export function resetIdOf(approval: Pick<Approval, "action" | "plan">): number | null {
  if (!approval.action.startsWith("offsets.reset.") || !isRecord(approval.plan)) return null;
  const id = approval.plan.reset_id;
  return typeof id === "number" && Number.isInteger(id) ? id : null;
}

/** Where what a request changes can be seen: the group of a reset, the topic, the ACLs tab
 * (filtered to the resource), or the topic of an election of one topic's partitions; else null. */
export function approvalTargetLink(approval: Pick<Approval, "action" | "cluster" | "target" | "plan">): { to: string; label: string } | null {
  const { action, cluster, target, plan } = approval;
  if (action.startsWith("offsets.") && target) return { to: groupPath(cluster, target), label: `group ${target}` };
  if (action.startsWith("topic.") && target) return { to: topicPath(cluster, target), label: `topic ${target}` };
  if (action === "acl.delete") {
    const filter = isRecord(plan) && isRecord(plan.filter) ? plan.filter : {};
    const text = (key: string) => (typeof filter[key] === "string" ? (filter[key] as string) : undefined);
    return {
      to: aclsPath(cluster, { resource_type: text("resource_type"), resource_name: text("resource_name") }),
      label: "the ACLs",
    };
  }
  if (action === "leaders.elect" && isRecord(plan) && Array.isArray(plan.partitions)) {
    const topics = new Set(plan.partitions.map((p) => (isRecord(p) ? p.topic : undefined)));
    const [only] = [...topics];
    if (topics.size === 1 && typeof only === "string") return { to: topicPath(cluster, only), label: `topic ${only}` };
  }
  if (action === "leaders.elect") return { to: clusterPath(cluster), label: `cluster ${cluster}` };
  return null;
}

/** A failed request's stored error as the API error it was (code, message, details), or null. */
export function approvalError(approval: Pick<Approval, "error">): ApiError | null {
  const error = approval.error;
  if (!isRecord(error)) return null;
  const code = typeof error.code === "string" ? error.code : "failed";
  const message = typeof error.message === "string" ? error.message : "The change failed.";
  return new ApiError(409, code, message, isRecord(error.details) ? error.details : {});
}

const LIVE_ORDER: LiveState["status"][] = ["paused", "connecting", "idle", "off"];

/**
 * One socket per cluster taken together: live only while every one is; otherwise the state of the
 * first that is not (paused before connecting before idle before off), its reason naming the
 * cluster. No cluster: off.
 */
export function combineLive(states: readonly (readonly [string, LiveState])[]): LiveState {
  if (states.length === 0) return OFF;
  const wasLive = states.some(([, s]) => s.wasLive);
  if (states.every(([, s]) => s.live)) return { ...states[0]![1], wasLive, reason: null, sampleSeconds: null };
  for (const status of LIVE_ORDER) {
    const found = states.find(([, s]) => !s.live && s.status === status);
    if (found) {
      const [cluster, state] = found;
      const reason = states.length > 1 && state.reason ? `${cluster}: ${state.reason}` : state.reason;
      return { ...state, live: false, wasLive, reason, sampleSeconds: null };
    }
  }
  const [cluster, state] = states.find(([, s]) => !s.live)!;
  return { ...state, live: false, wasLive, reason: state.reason ? `${cluster}: ${state.reason}` : null, sampleSeconds: null };
}

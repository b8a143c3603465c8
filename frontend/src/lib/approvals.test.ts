import { describe, expect, it } from "vitest";
import { ApiError, ApprovalRequested } from "../api/client";
import type { CurrentUser } from "../api/types";
import { approvalOf, ME, OLGA, TOPIC_DELETE_REQUEST, VIEWER } from "../test/fixtures";
import {
  approvalError,
  approvalRole,
  approvalTargetLink,
  canDecide,
  combineLive,
  decideBlock,
  isApprovalRequested,
  mergeApproval,
  readableClusters,
  readApprovalsQuery,
  resetIdOf,
  shownState,
} from "./approvals";
import { CONNECTING, OFF, type LiveState } from "./liveConnection";

const NOW = Date.parse("2026-07-01T14:10:00Z");
const ADMIN_OF_STAGING: CurrentUser = { username: "sam", role: "admin", cluster_roles: { local: "viewer", staging: "admin" } };

describe("approvalRole: the role that approves a change", () => {
  it("is operator for the offset resets, admin for topic, ACL and election changes", () => {
    expect(approvalRole("offsets.reset.execute")).toBe("operator");
    expect(approvalRole("offsets.reset.undo")).toBe("operator");
    for (const action of ["topic.delete", "topic.configs", "topic.partitions", "acl.delete", "leaders.elect"]) {
      expect(approvalRole(action)).toBe("admin");
    }
  });

  it("reads an unknown offset-reset action as operator and anything else unknown as admin", () => {
    expect(approvalRole("offsets.reset.replay")).toBe("operator");
    expect(approvalRole("quota.alter")).toBe("admin");
  });
});

describe("who may decide a request", () => {
  const request = approvalOf(); // alice's reset on local: operators decide it

  it("never its requester", () => {
    expect(decideBlock(ME, request, NOW)).toBe(
      "You asked for this change: someone else with the operator role on local approves or rejects it.",
    );
    expect(canDecide(ME, request, NOW)).toBe(false);
  });

  it("another user with the change's role on its cluster", () => {
    expect(decideBlock(OLGA, request, NOW)).toBeNull();
    expect(canDecide(OLGA, request, NOW)).toBe(true);
    // An admin of staging is only a viewer on local; a viewer everywhere decides nothing.
    expect(decideBlock(ADMIN_OF_STAGING, request, NOW)).toBe("Deciding this request needs the operator role on cluster local.");
    expect(canDecide(VIEWER, request, NOW)).toBe(false);
    // A topic delete needs an admin: an operator is not enough, an admin of its cluster is.
    expect(decideBlock(OLGA, TOPIC_DELETE_REQUEST, NOW)).toBe("Deciding this request needs the admin role on cluster staging.");
    expect(canDecide(ADMIN_OF_STAGING, TOPIC_DELETE_REQUEST, Date.parse("2026-07-01T14:00:00Z"))).toBe(true);
  });

  it("nobody once it is decided or past its expiry", () => {
    expect(canDecide(OLGA, approvalOf({ state: "executed" }), NOW)).toBe(false);
    expect(decideBlock(OLGA, approvalOf({ state: "rejected" }), NOW)).toBeNull();
    const late = Date.parse("2026-07-01T15:00:00Z");
    expect(shownState(request, late)).toBe("expired");
    expect(shownState(request, late - 1)).toBe("pending");
    expect(canDecide(OLGA, request, late)).toBe(false);
    expect(canDecide(null, request, NOW)).toBe(false);
  });
});

describe("mergeApproval: a pushed request in a list", () => {
  const a10 = approvalOf({ id: 10 });
  const a12 = approvalOf({ id: 12 });

  it("adds a new one in its place (newest first), replaces a known one", () => {
    const a11 = approvalOf({ id: 11 });
    expect(mergeApproval([a12, a10], a11, null).map((a) => a.id)).toEqual([12, 11, 10]);
    const executed = approvalOf({ id: 10, state: "executed" });
    expect(mergeApproval([a12, a10], executed, null)).toEqual([a12, executed]);
  });

  it("drops one from the pending list once decided, and never adds a decided one to it", () => {
    const rejected = approvalOf({ id: 12, state: "rejected" });
    expect(mergeApproval([a12, a10], rejected, "pending")).toEqual([a10]);
    const list = [a10];
    expect(mergeApproval(list, rejected, "pending")).toBe(list);
  });
});

describe("the page's query, clusters and links", () => {
  it("reads ?state=all and ?id=N", () => {
    expect(readApprovalsQuery(new URLSearchParams(""))).toEqual({ all: false, id: null });
    expect(readApprovalsQuery(new URLSearchParams("state=all&id=12"))).toEqual({ all: true, id: 12 });
    expect(readApprovalsQuery(new URLSearchParams("id=12x"))).toEqual({ all: false, id: null });
  });

  it("opens a socket for each cluster the user holds a role on", () => {
    expect(readableClusters(ADMIN_OF_STAGING)).toEqual(["local", "staging"]);
    expect(readableClusters({ username: "x", role: "viewer", cluster_roles: {} })).toEqual([]);
    expect(readableClusters(null)).toEqual([]);
  });

  it("finds the reset a request runs and where its target is", () => {
    expect(resetIdOf(approvalOf())).toBe(7);
    expect(resetIdOf(TOPIC_DELETE_REQUEST)).toBeNull();
    expect(approvalTargetLink(approvalOf())).toEqual({ to: "/clusters/local/groups/orders-app", label: "group orders-app" });
    expect(approvalTargetLink(TOPIC_DELETE_REQUEST)).toEqual({ to: "/clusters/staging/topics/ledger", label: "topic ledger" });
    const acl = approvalOf({
      action: "acl.delete",
      target: "TOPIC orders (LITERAL)",
      plan: { filter: { resource_type: "TOPIC", resource_name: "orders", pattern_type: "LITERAL" }, bindings: [] },
    });
    expect(approvalTargetLink(acl)?.to).toBe("/clusters/local/acls?resource_type=TOPIC&resource_name=orders");
    const election = approvalOf({
      action: "leaders.elect",
      target: "preferred",
      plan: { election: "preferred", partitions: [{ topic: "orders", partition: 0 }, { topic: "orders", partition: 1 }] },
    });
    expect(approvalTargetLink(election)?.to).toBe("/clusters/local/topics/orders");
  });

  it("turns a failed request's stored error back into the API error", () => {
    const failed = approvalOf({ state: "failed", error: { code: "plan_stale", message: "Moved.", details: { changes: [] } } });
    const error = approvalError(failed)!;
    expect(error).toBeInstanceOf(ApiError);
    expect([error.code, error.message, error.details]).toEqual(["plan_stale", "Moved.", { changes: [] }]);
    expect(approvalError(approvalOf())).toBeNull();
  });
});

describe("isApprovalRequested", () => {
  it("is true only for the 202 of a change held for approval", () => {
    const held = new ApprovalRequested({ id: 3, summary: "Delete topic t.", expires_at: "2026-07-01T15:00:00Z" });
    expect(isApprovalRequested(held)).toBe(true);
    expect(isApprovalRequested(new ApiError(409, "plan_stale", "x"))).toBe(false);
    expect(isApprovalRequested(new Error("approval_requested"))).toBe(false);
    expect(isApprovalRequested(null)).toBe(false);
  });
});

describe("combineLive: one socket per cluster", () => {
  const live: LiveState = { status: "live", live: true, wasLive: true, reason: null, sampleSeconds: null };
  const paused: LiveState = { status: "paused", live: false, wasLive: true, reason: "Live updates are unavailable (Redis).", sampleSeconds: null };

  it("is live only while every socket is", () => {
    expect(combineLive([["local", live], ["staging", live]]).live).toBe(true);
    const one = combineLive([["local", live], ["staging", paused]]);
    expect(one).toMatchObject({ status: "paused", live: false, wasLive: true, reason: "staging: Live updates are unavailable (Redis)." });
    expect(combineLive([["local", CONNECTING]])).toMatchObject({ status: "connecting", live: false });
    expect(combineLive([])).toBe(OFF);
  });
});

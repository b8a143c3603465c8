import { describe, expect, it } from "vitest";
import { readReassignPreset } from "./lib/reassign";
import { aclsPath, approvalPath, auditPath, CLUSTER_TABS, NAV_ITEMS, reassignNewPath, userPath } from "./navigation";

describe("reassignNewPath", () => {
  it("is the Reassign tab without a preset", () => {
    expect(reassignNewPath("local")).toBe("/clusters/local/reassignments");
  });

  it("drains a broker, chooses topics, or changes a topic's replication factor", () => {
    expect(reassignNewPath("local", { drain: 2 })).toBe("/clusters/local/reassignments?drain=2");
    expect(reassignNewPath("local", { topics: ["orders", "payments"] })).toBe("/clusters/local/reassignments?topics=orders,payments");
    expect(reassignNewPath("local", { rfTopic: "orders" })).toBe("/clusters/local/reassignments?mode=rf&topic=orders");
  });

  it("encodes the cluster and topic names, and the page reads them back", () => {
    const topics = reassignNewPath("eu west", { topics: ["a&b", "c=d"] });
    expect(topics).toBe("/clusters/eu%20west/reassignments?topics=a%26b,c%3Dd");
    const rf = reassignNewPath("local", { rfTopic: "x?y#z" });
    expect(rf).toBe("/clusters/local/reassignments?mode=rf&topic=x%3Fy%23z");
    const query = (path: string) => new URLSearchParams(path.slice(path.indexOf("?")));
    expect(readReassignPreset(query(topics)).preset).toEqual({ topics: ["a&b", "c=d"] });
    expect(readReassignPreset(query(rf)).preset).toEqual({ rfTopic: "x?y#z" });
    expect(readReassignPreset(query(reassignNewPath("local", { drain: 3 }))).preset).toEqual({ drain: 3 });
  });
});

describe("aclsPath", () => {
  it("is the ACLs tab, with the filter bar's fields as its query (empty ones left out)", () => {
    expect(aclsPath("local")).toBe("/clusters/local/acls");
    expect(aclsPath("local", { resource_type: "TOPIC", resource_name: "orders", pattern_type: "match", principal: "" })).toBe(
      "/clusters/local/acls?resource_type=TOPIC&resource_name=orders&pattern_type=match",
    );
    expect(aclsPath("eu west", { principal: "User:alice" })).toBe("/clusters/eu%20west/acls?principal=User%3Aalice");
  });

  it("is a cluster tab every role sees", () => {
    expect(CLUSTER_TABS.find((tab) => tab.path === "acls")).toEqual({ path: "acls", label: "ACLs" });
  });
});

describe("CLUSTER_TABS", () => {
  it("ends with ACLs, then the admins' Quotas and SCRAM users", () => {
    expect(CLUSTER_TABS.map((tab) => tab.path)).toEqual(["", "topics", "groups", "reassignments", "acls", "quotas", "scram-users"]);
    expect(CLUSTER_TABS.slice(-2)).toEqual([
      { path: "quotas", label: "Quotas", role: "admin" },
      { path: "scram-users", label: "SCRAM users", role: "admin" },
    ]);
  });
});

describe("the Users and Audit entries", () => {
  it("are in the top bar for admins (Users) and operators (Audit)", () => {
    expect(NAV_ITEMS.find((item) => item.label === "Users")).toEqual({ to: "/users", label: "Users", role: "admin" });
    expect(NAV_ITEMS.find((item) => item.label === "Audit")).toEqual({ to: "/audit", label: "Audit", role: "operator" });
  });

  it("lead to a user's page and to the audit log with a filter (empty fields left out)", () => {
    expect(userPath(7)).toBe("/users/7");
    expect(auditPath()).toBe("/audit");
    expect(auditPath({ action: "user.", target: "bob smith", actor: "" })).toBe("/audit?action=user.&target=bob+smith");
    expect(auditPath({ since: "2026-07-01T09:30:00.000+02:00" })).toBe("/audit?since=2026-07-01T09%3A30%3A00.000%2B02%3A00");
  });
});

describe("the Approvals entry", () => {
  it("is in the top bar for every role, with the count of pending requests, and opens a request by id", () => {
    expect(NAV_ITEMS.find((item) => item.label === "Approvals")).toEqual({
      to: "/approvals",
      label: "Approvals",
      role: "viewer",
      count: "approvals",
    });
    expect(approvalPath(12)).toBe("/approvals?id=12");
  });
});

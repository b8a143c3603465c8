import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import type { Acl } from "../api/types";
import {
  ACL_REACH_LABELS,
  aclReach,
  grantLabel,
  isSecurityDisabled,
  resourceNoun,
  sortApplying,
  summarizeByResource,
  whyAclApplies,
} from "./acls";

function acl(fields: Partial<Acl> & Pick<Acl, "resource_name" | "principal" | "operation">): Acl {
  return { resource_type: "TOPIC", pattern_type: "LITERAL", host: "*", permission: "ALLOW", ...fields };
}

const LITERAL = acl({ resource_name: "orders-eu", principal: "User:alice", operation: "READ" });
const PREFIX = acl({ resource_name: "orders-", pattern_type: "PREFIXED", principal: "User:alice", operation: "DESCRIBE" });
const SHORT_PREFIX = acl({ resource_name: "or", pattern_type: "PREFIXED", principal: "User:bob", operation: "READ" });
const WILDCARD = acl({ resource_name: "*", principal: "User:*", operation: "DESCRIBE" });
const DENY = acl({ resource_name: "orders-eu", principal: "User:mallory", operation: "WRITE", permission: "DENY", host: "10.0.0.7" });

describe("aclReach and whyAclApplies", () => {
  it("tells a literal name, the literal * and a prefix apart", () => {
    expect(aclReach(LITERAL)).toBe("literal");
    expect(aclReach(WILDCARD)).toBe("wildcard");
    expect(aclReach(PREFIX)).toBe("prefixed");
    // A prefixed "*" is a prefix like any other: names starting with a star.
    expect(aclReach({ resource_name: "*", pattern_type: "PREFIXED" })).toBe("prefixed");
    expect(aclReach({ resource_name: "x", pattern_type: "prefixed" })).toBe("prefixed");
    expect(ACL_REACH_LABELS.wildcard).toBe("*");
  });

  it("says in one sentence why a binding applies to the resource", () => {
    expect(whyAclApplies(LITERAL, "orders-eu")).toBe("Set on this topic by name.");
    expect(whyAclApplies(WILDCARD, "orders-eu")).toBe("The wildcard * applies to every topic.");
    expect(whyAclApplies(PREFIX, "orders-eu")).toBe(
      "Prefixed on “orders-”: applies to every topic whose name starts with it, as “orders-eu” does.",
    );
    expect(whyAclApplies({ ...PREFIX, resource_name: "orders-eu" }, "orders-eu")).toBe(
      "Prefixed on “orders-eu”: its whole name, and every topic whose name starts with it.",
    );
    expect(whyAclApplies({ ...WILDCARD, resource_type: "GROUP" }, "app")).toBe("The wildcard * applies to every group.");
    expect(whyAclApplies({ ...LITERAL, resource_type: "GROUP", resource_name: "app" }, "app")).toBe("Set on this group by name.");
    expect(resourceNoun("TRANSACTIONAL_ID", true)).toBe("transactional ids");
    expect(resourceNoun("SOMETHING_NEW")).toBe("resource");
  });
});

describe("sortApplying", () => {
  it("puts the most specific first: literal, longer prefixes, then *; DENY before ALLOW", () => {
    const allowWrite = acl({ resource_name: "orders-eu", principal: "User:mallory", operation: "WRITE", host: "10.0.0.7" });
    const sorted = sortApplying([WILDCARD, SHORT_PREFIX, allowWrite, PREFIX, DENY, LITERAL]);
    expect(sorted).toEqual([LITERAL, DENY, allowWrite, PREFIX, SHORT_PREFIX, WILDCARD]);
  });
});

describe("summarizeByResource", () => {
  it("groups bindings by resource pattern, allowed and denied operations in kafka-acls.sh's order", () => {
    const rows = [
      acl({ resource_name: "orders", principal: "User:alice", operation: "WRITE" }),
      acl({ resource_name: "orders", principal: "User:alice", operation: "READ" }),
      acl({ resource_name: "orders", principal: "User:alice", operation: "READ", host: "10.0.0.1" }),
      acl({ resource_name: "orders", principal: "User:alice", operation: "WRITE", permission: "DENY", host: "10.0.0.9" }),
      acl({ resource_name: "orders", pattern_type: "PREFIXED", principal: "User:alice", operation: "DESCRIBE" }),
      acl({ resource_type: "GROUP", resource_name: "app", principal: "User:alice", operation: "READ" }),
      acl({ resource_type: "CLUSTER", resource_name: "kafka-cluster", principal: "User:alice", operation: "IDEMPOTENT_WRITE" }),
      acl({ resource_name: "*", principal: "User:alice", operation: "DESCRIBE" }),
    ];
    const summary = summarizeByResource(rows);
    expect(summary.map((r) => [r.resource_type, r.resource_name, r.pattern_type, r.reach, r.bindings])).toEqual([
      ["TOPIC", "*", "LITERAL", "wildcard", 1],
      ["TOPIC", "orders", "LITERAL", "literal", 4],
      ["TOPIC", "orders", "PREFIXED", "prefixed", 1],
      ["GROUP", "app", "LITERAL", "literal", 1],
      ["CLUSTER", "kafka-cluster", "LITERAL", "literal", 1],
    ]);
    const orders = summary[1]!;
    expect(orders.allowed.map(grantLabel)).toEqual(["READ", "READ from 10.0.0.1", "WRITE"]);
    expect(orders.denied.map(grantLabel)).toEqual(["WRITE from 10.0.0.9"]);
    // A deny from one host takes back nothing granted from any host.
    expect(orders.allowed.map((g) => g.overridden)).toEqual([false, false, false]);
    expect(summary[2]!.denied).toEqual([]);
  });

  it("marks an ALLOW that a DENY of the same operation (or ALL) from any host takes back", () => {
    const summary = summarizeByResource([
      acl({ resource_name: "t", principal: "User:a", operation: "READ" }),
      acl({ resource_name: "t", principal: "User:a", operation: "WRITE", host: "10.0.0.1" }),
      acl({ resource_name: "t", principal: "User:a", operation: "DESCRIBE" }),
      acl({ resource_name: "t", principal: "User:a", operation: "READ", permission: "DENY" }),
      acl({ resource_name: "u", principal: "User:a", operation: "READ" }),
      acl({ resource_name: "u", principal: "User:a", operation: "ALL", permission: "DENY", host: "10.0.0.2" }),
      acl({ resource_name: "u", principal: "User:a", operation: "WRITE", host: "10.0.0.2" }),
      // The same binding twice (two hosts listing it) counts once in the operations.
      acl({ resource_name: "u", principal: "User:a", operation: "WRITE", host: "10.0.0.2" }),
    ]);
    const [t, u] = summary;
    expect(t!.allowed.map((g) => [grantLabel(g), g.overridden])).toEqual([
      ["READ", true],
      ["WRITE from 10.0.0.1", false],
      ["DESCRIBE", false],
    ]);
    expect(u!.allowed.map((g) => [grantLabel(g), g.overridden])).toEqual([
      ["READ", false],
      ["WRITE from 10.0.0.2", true],
    ]);
    expect(u!.bindings).toBe(4);
  });

  it("is empty for no bindings", () => {
    expect(summarizeByResource([])).toEqual([]);
  });
});

describe("isSecurityDisabled", () => {
  it("knows Kafka's SECURITY_DISABLED answer from any other error", () => {
    const disabled = new ApiError(502, "kafka_error", "Kafka refused DescribeAcls: SECURITY_DISABLED.", {
      kafka_error: "SECURITY_DISABLED",
    });
    expect(isSecurityDisabled(disabled)).toBe(true);
    expect(isSecurityDisabled(new ApiError(502, "kafka_error", "timeout", { kafka_error: "REQUEST_TIMED_OUT" }))).toBe(false);
    expect(isSecurityDisabled(new ApiError(502, "kafka_unavailable", "down"))).toBe(false);
    expect(isSecurityDisabled(new Error("SECURITY_DISABLED"))).toBe(false);
    expect(isSecurityDisabled(null)).toBe(false);
  });
});

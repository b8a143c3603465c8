import { describe, expect, it } from "vitest";
import type { AuditEntry } from "../api/types";
import {
  actionFilterMeaning,
  auditEntryLink,
  auditQueryOf,
  beforeAfterRows,
  changeValueText,
  EMPTY_AUDIT_FILTER,
  formatJson,
  isFiltered,
  isoToLocalInput,
  localInputToIso,
  mergeNewest,
  mergeOlder,
  olderCursor,
  outcomeTone,
  readAuditFilter,
} from "./audit";

function entry(id: number, overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id,
    at: "2026-07-01T09:30:00Z",
    actor: "alice",
    action: "topic.create",
    cluster: "local",
    target: "orders",
    outcome: "ok",
    request: {},
    details: {},
    ...overrides,
  };
}

/** Entries `from` down to `to` (ids), newest first. */
function range(from: number, to: number): AuditEntry[] {
  const out: AuditEntry[] = [];
  for (let id = from; id >= to; id--) out.push(entry(id));
  return out;
}

const ids = (entries: readonly AuditEntry[]) => entries.map((e) => e.id);

describe("the audit filter", () => {
  it("reads the URL query, absent keys empty", () => {
    const filter = readAuditFilter(new URLSearchParams("action=offsets.&target=orders&since=2026-07-01T09:30:00.000%2B02:00"));
    expect(filter).toEqual({ ...EMPTY_AUDIT_FILTER, action: "offsets.", target: "orders", since: "2026-07-01T09:30:00.000+02:00" });
    expect(isFiltered(filter)).toBe(true);
    expect(isFiltered(readAuditFilter(new URLSearchParams("")))).toBe(false);
    expect(isFiltered({ ...EMPTY_AUDIT_FILTER, actor: "  " })).toBe(false);
  });

  it("is the API query: trimmed, empty ones left out, the target's text as typed, an unknown outcome dropped", () => {
    expect(
      auditQueryOf({ actor: " bob ", action: "user.", cluster: "local", target: " a b", outcome: "refused", since: "", until: "2026-07-02T00:00:00.000Z" }),
    ).toEqual({ actor: "bob", action: "user.", cluster: "local", target: " a b", outcome: "refused", until: "2026-07-02T00:00:00.000Z" });
    expect(auditQueryOf({ ...EMPTY_AUDIT_FILTER, outcome: "maybe", target: "  " })).toEqual({});
  });

  it("says what an action filter selects", () => {
    expect(actionFilterMeaning("offsets.")).toBe("every action starting with “offsets.”");
    expect(actionFilterMeaning("topic.delete")).toContain("exactly the action “topic.delete”");
    expect(actionFilterMeaning(" ")).toBeNull();
  });
});

describe("the time range inputs", () => {
  it("send the browser's wall time as ISO-8601 with its offset at that date", () => {
    expect(localInputToIso("2026-07-01T09:30", "Europe/Paris")).toBe("2026-07-01T09:30:00.000+02:00");
    expect(localInputToIso("2026-01-15T09:30", "Europe/Paris")).toBe("2026-01-15T09:30:00.000+01:00");
    expect(localInputToIso("2026-07-01T09:30", "America/New_York")).toBe("2026-07-01T09:30:00.000-04:00");
    expect(localInputToIso("2026-07-01T09:30", "UTC")).toBe("2026-07-01T09:30:00.000Z");
    // An input still being typed (the browser gives "") or nonsense: no filter.
    expect(localInputToIso("", "UTC")).toBeNull();
    expect(localInputToIso("2026-02-30T10:00", "UTC")).toBeNull();
  });

  it("show an ISO instant as the browser's wall time, to the minute (seconds when it has some)", () => {
    expect(isoToLocalInput("2026-07-01T09:30:00.000+02:00", "Europe/Paris")).toBe("2026-07-01T09:30");
    expect(isoToLocalInput("2026-07-01T07:30:00Z", "Europe/Paris")).toBe("2026-07-01T09:30");
    expect(isoToLocalInput("2026-07-01T07:30:15Z", "America/New_York")).toBe("2026-07-01T03:30:15");
    expect(isoToLocalInput("", "UTC")).toBe("");
    expect(isoToLocalInput("soon", "UTC")).toBe("");
    // What is typed comes back unchanged.
    for (const zone of ["UTC", "Europe/Paris", "Asia/Kolkata", "America/Los_Angeles"]) {
      expect(isoToLocalInput(localInputToIso("2026-03-29T01:15", zone)!, zone)).toBe("2026-03-29T01:15");
    }
  });
});

describe("auditEntryLink", () => {
  it("leads an offset reset with a reset id to its group's page", () => {
    expect(auditEntryLink(entry(1, { action: "offsets.reset.execute", target: "orders-app", details: { reset_id: 7, state: "succeeded" } }))).toEqual({
      to: "/clusters/local/groups/orders-app",
      label: "Group orders-app",
    });
    expect(auditEntryLink(entry(1, { action: "offsets.reset.preview", cluster: "eu west", target: "a/b", details: { reset_id: 8 } }))?.to).toBe(
      "/clusters/eu%20west/groups/a%2Fb",
    );
    // Refused before a reset existed: no id, no link.
    expect(auditEntryLink(entry(1, { action: "offsets.reset", target: "orders-app", outcome: "refused", details: { error: "…" } }))).toBeNull();
  });

  it("leads a topic change to the topic's page, but not a delete or a create that did not happen", () => {
    expect(auditEntryLink(entry(1, { action: "topic.configs", target: "orders" }))).toEqual({ to: "/clusters/local/topics/orders", label: "Topic orders" });
    expect(auditEntryLink(entry(1, { action: "topic.create", target: "orders" }))?.to).toBe("/clusters/local/topics/orders");
    expect(auditEntryLink(entry(1, { action: "topic.create", target: "orders", outcome: "refused" }))).toBeNull();
    expect(auditEntryLink(entry(1, { action: "topic.delete", target: "orders" }))).toBeNull();
    expect(auditEntryLink(entry(1, { action: "message.produce", target: "orders" }))?.to).toBe("/clusters/local/topics/orders");
    expect(auditEntryLink(entry(1, { action: "topic.partitions", target: "" }))).toBeNull();
  });

  it("leads an ACL change to the cluster's ACLs", () => {
    expect(auditEntryLink(entry(1, { action: "acl.delete", target: "" }))).toEqual({ to: "/clusters/local/acls", label: "ACLs of local" });
    expect(auditEntryLink(entry(1, { action: "acl.create", cluster: "" }))).toBeNull();
  });

  it("leads a Spark job to its page when the details (or a cancel's target) name it", () => {
    expect(auditEntryLink(entry(1, { action: "spark.job.submit", target: "topic-profile", details: { job_id: 42 } }))).toEqual({
      to: "/spark/jobs/42",
      label: "Spark job #42",
    });
    expect(auditEntryLink(entry(1, { action: "spark.job.cancel", target: "43", details: { state: "cancelled" } }))?.to).toBe("/spark/jobs/43");
    expect(auditEntryLink(entry(1, { action: "spark.job.submit", target: "topic-profile", outcome: "refused", details: {} }))).toBeNull();
    expect(auditEntryLink(entry(1, { action: "spark.schedule.create", details: { schedule_id: 3 } }))).toBeNull();
  });

  it("leads quotas, SCRAM credentials and broker configs to their pages; nothing else", () => {
    expect(auditEntryLink(entry(1, { action: "quota.alter", target: "user alice" }))?.to).toBe("/clusters/local/quotas");
    expect(auditEntryLink(entry(1, { action: "scram.upsert", target: "alice" }))?.to).toBe("/clusters/local/scram-users");
    expect(auditEntryLink(entry(1, { action: "broker.configs", target: "broker 2" }))?.to).toBe("/clusters/local/brokers/2");
    expect(auditEntryLink(entry(1, { action: "broker.defaults", target: "all brokers" }))).toBeNull();
    expect(auditEntryLink(entry(1, { action: "user.create", cluster: "", target: "bob" }))).toBeNull();
    expect(auditEntryLink(entry(1, { action: "token.create", cluster: "", target: "bob", details: { token_id: 3 } }))).toBeNull();
  });
});

describe("beforeAfterRows", () => {
  it("lists a user change's values by path, nested roles as cluster_roles.<cluster>", () => {
    const rows = beforeAfterRows({
      before: { is_active: true, role: "viewer", cluster_roles: { local: "operator", prod: "viewer" } },
      after: { is_active: true, role: null, cluster_roles: { local: "admin", staging: "viewer" } },
    });
    expect(rows).toEqual([
      { key: "is_active", before: true, after: true, changed: false },
      { key: "role", before: "viewer", after: null, changed: true },
      { key: "cluster_roles.local", before: "operator", after: "admin", changed: true },
      { key: "cluster_roles.prod", before: "viewer", after: undefined, changed: true },
      { key: "cluster_roles.staging", before: undefined, after: "viewer", changed: true },
    ]);
  });

  it("lists a quota change's keys, set and removed", () => {
    expect(beforeAfterRows({ before: { producer_byte_rate: 1024 }, after: { producer_byte_rate: 2048, request_percentage: 12.5 } })).toEqual([
      { key: "producer_byte_rate", before: 1024, after: 2048, changed: true },
      { key: "request_percentage", before: undefined, after: 12.5, changed: true },
    ]);
    expect(beforeAfterRows({ before: { a: 1 }, after: {} })).toEqual([{ key: "a", before: 1, after: undefined, changed: true }]);
  });

  it("takes plain values as one row, and is null without both sides", () => {
    expect(beforeAfterRows({ before: 3, after: 5 })).toEqual([{ key: "", before: 3, after: 5, changed: true }]);
    expect(beforeAfterRows({ before: { a: 1 } })).toBeNull();
    expect(beforeAfterRows({ reset_id: 1 })).toBeNull();
    expect(beforeAfterRows(null)).toBeNull();
    expect(beforeAfterRows("before after")).toBeNull();
  });

  it("says values as text: strings as they are, absent as a dash, the rest as JSON", () => {
    expect(changeValueText("admin")).toBe("admin");
    expect(changeValueText(undefined)).toBe("—");
    expect(changeValueText(null)).toBe("null");
    expect(changeValueText(12.5)).toBe("12.5");
    expect(changeValueText({})).toBe("{}");
  });
});

describe("formatJson and outcomeTone", () => {
  it("indents JSON, nothing for an empty object or none", () => {
    expect(formatJson({ name: "orders", partitions: 3 })).toBe('{\n  "name": "orders",\n  "partitions": 3\n}');
    expect(formatJson({})).toBeNull();
    expect(formatJson(null)).toBeNull();
    expect(formatJson(undefined)).toBeNull();
    expect(formatJson([])).toBe("[]");
  });

  it("gives each outcome a tone", () => {
    expect(["ok", "refused", "failed", "preview", "requested", "other"].map(outcomeTone)).toEqual(["ok", "warn", "error", "info", "neutral", "neutral"]);
  });
});

describe("paging", () => {
  const LIMIT = 5;

  it("shows the first page; a short one is the whole log", () => {
    expect(mergeNewest(null, range(10, 6), LIMIT)).toEqual({ entries: range(10, 6), end: false });
    expect(mergeNewest(null, range(3, 1), LIMIT)).toEqual({ entries: range(3, 1), end: true });
    expect(mergeNewest(null, [], LIMIT)).toEqual({ entries: [], end: true });
  });

  it("adds older pages below, and knows the end", () => {
    let log = mergeNewest(null, range(20, 16), LIMIT);
    expect(olderCursor(log)).toBe(16);
    log = mergeOlder(log, range(15, 11), LIMIT);
    expect(ids(log.entries)).toEqual(ids(range(20, 11)));
    expect(log.end).toBe(false);
    log = mergeOlder(log, range(10, 8), LIMIT);
    expect(ids(log.entries)).toEqual(ids(range(20, 8)));
    expect(log.end).toBe(true);
    expect(olderCursor(null)).toBeNull();
  });

  it("keeps the older pages under a newer newest page that overlaps them", () => {
    let log = mergeNewest(null, range(20, 16), LIMIT);
    log = mergeOlder(log, range(15, 11), LIMIT);
    // Three new entries: the newest page is 23..19.
    log = mergeNewest(log, range(23, 19), LIMIT);
    expect(ids(log.entries)).toEqual(ids(range(23, 11)));
    expect(log.end).toBe(false);
    // The same page again changes nothing.
    expect(ids(mergeNewest(log, range(23, 19), LIMIT).entries)).toEqual(ids(range(23, 11)));
  });

  it("starts again from the newest page when more entries came than a page holds (a gap)", () => {
    let log = mergeNewest(null, range(20, 16), LIMIT);
    log = mergeOlder(log, range(15, 11), LIMIT);
    log = mergeNewest(log, range(40, 36), LIMIT);
    expect(ids(log.entries)).toEqual(ids(range(40, 36)));
    expect(log.end).toBe(false);
  });

  it("keeps the end reached under an overlapping newest page", () => {
    let log = mergeNewest(null, range(20, 16), LIMIT);
    log = mergeOlder(log, range(15, 14), LIMIT);
    log = mergeNewest(log, range(21, 17), LIMIT);
    expect(ids(log.entries)).toEqual(ids(range(21, 14)));
    expect(log.end).toBe(true);
  });
});

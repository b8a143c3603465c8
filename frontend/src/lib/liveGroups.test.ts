import { describe, expect, it } from "vitest";
import { parseLiveMessage } from "../api/live";
import type { GroupDetail, GroupSummary } from "../api/types";
import { BILLING, GROUPS, ORDERS_APP } from "../test/fixtures";
import { at, groupStateMessage, lagMessage, partitionLag, T0, topicLag } from "../test/liveFixtures";
import {
  createRowOverlay,
  mergeLiveMessages,
  NO_LIVE_GROUPS,
  overlayDetail,
  overlayRow,
  sumRates,
  unknownGroups,
} from "./liveGroups";

const row = (id: string): GroupSummary => GROUPS.find((g) => g.group_id === id)!;

describe("mergeLiveMessages", () => {
  it("keys the samples by group id, replacing only the groups that got a message", () => {
    const first = mergeLiveMessages(NO_LIVE_GROUPS, [
      lagMessage("a", { total_lag: 10, status: "WARN" }),
      lagMessage("b", { total_lag: 0 }),
    ]);
    expect([...first.keys()]).toEqual(["a", "b"]);
    expect(first.get("a")).toMatchObject({ ts: T0, state: "Stable", member_count: 1, lag: { total_lag: 10, status: "WARN" } });

    const second = mergeLiveMessages(first, [lagMessage("a", { ts: at(5), total_lag: 12, status: "WARN" })]);
    expect(second).not.toBe(first);
    expect(second.get("a")!.lag!.total_lag).toBe(12);
    expect(second.get("b")).toBe(first.get("b")); // untouched entry: same object
  });

  it("returns the same map when nothing is new, and ignores late messages", () => {
    const map = mergeLiveMessages(NO_LIVE_GROUPS, [lagMessage("a", { ts: at(10), total_lag: 3 })]);
    expect(mergeLiveMessages(map, [])).toBe(map);
    expect(mergeLiveMessages(map, [lagMessage("a", { ts: at(10), total_lag: 3 })])).toBe(map); // same sample again
    expect(mergeLiveMessages(map, [lagMessage("a", { ts: at(5), total_lag: 99 })])).toBe(map); // older
    expect(mergeLiveMessages(map, [lagMessage("a", { ts: null })])).toBe(map); // no time
  });

  it("merges group_state messages (state and members) into the entry, keeping the lag", () => {
    let map = mergeLiveMessages(NO_LIVE_GROUPS, [lagMessage("a", { ts: at(0), total_lag: 7 })]);
    map = mergeLiveMessages(map, [groupStateMessage("a", { ts: at(5), state: "PreparingRebalance", member_count: 2 })]);
    expect(map.get("a")).toMatchObject({ state: "PreparingRebalance", member_count: 2, lag: { total_lag: 7 } });
    // Only a group_state so far: no lag fields.
    map = mergeLiveMessages(map, [groupStateMessage("new", { previous_state: null })]);
    expect(map.get("new")!.lag).toBeUndefined();
  });

  it("sums the topics' rates as the server does (null when one is unknown)", () => {
    expect(sumRates({ t: topicLag({ write_per_s: 1.5, consume_per_s: 2 }), u: topicLag({ write_per_s: 2, consume_per_s: 1 }) })).toEqual({
      write_per_s: 3.5,
      consume_per_s: 3,
    });
    expect(sumRates({ t: topicLag({ write_per_s: null }), u: topicLag() })).toEqual({ write_per_s: null, consume_per_s: 20 });
    expect(sumRates({})).toEqual({ write_per_s: null, consume_per_s: null });
  });
});

describe("overlayRow", () => {
  it("applies a sample newer than the one the row was served with, else keeps the row", () => {
    const base: GroupSummary = { ...row("billing"), sampled_at: at(10) };
    const newer = mergeLiveMessages(NO_LIVE_GROUPS, [
      lagMessage("billing", {
        ts: at(15),
        total_lag: 50,
        max_lag: 40,
        max_lag_seconds: 65,
        status: "STALL",
        state: "Stable",
        member_count: 3,
        catch_up_seconds: null,
        retention_risk: "near",
        retention_reason: "orders-0: unread records can be deleted in 3 h",
        topics: { orders: topicLag({ write_per_s: 5, consume_per_s: 0 }) },
      }),
    ]).get("billing");
    expect(overlayRow(base, newer)).toEqual({
      ...base,
      total_lag: 50,
      max_lag: 40,
      max_lag_seconds: 65,
      status: "STALL",
      member_count: 3,
      catch_up_seconds: null,
      retention_risk: "near",
      retention_reason: "orders-0: unread records can be deleted in 3 h",
      rates: { write_per_s: 5, consume_per_s: 0 },
      sampled_at: at(15),
    });
    const older = mergeLiveMessages(NO_LIVE_GROUPS, [lagMessage("billing", { ts: at(10), total_lag: 1 })]).get("billing");
    expect(overlayRow(base, older)).toBe(base);
    expect(overlayRow(base, undefined)).toBe(base);
    // A row never sampled takes any sample.
    expect(overlayRow(row("billing"), older).total_lag).toBe(1);
  });
});

describe("createRowOverlay", () => {
  it("keeps the objects of rows whose shown fields did not change", () => {
    const overlay = createRowOverlay();
    let live = mergeLiveMessages(NO_LIVE_GROUPS, [lagMessage("billing", { ts: at(0), total_lag: 5 })]);
    const first = overlay(GROUPS, live);
    const billing = first.find((r) => r.group_id === "billing")!;
    expect(billing.status).toBe("OK");
    // Rows without live data are the REST rows themselves.
    expect(first.find((r) => r.group_id === "orders-app")).toBe(row("orders-app"));

    // A new sample with the same numbers (only the time moved): same object, no re-render.
    live = mergeLiveMessages(live, [lagMessage("billing", { ts: at(5), total_lag: 5 })]);
    const second = overlay(GROUPS, live);
    expect(second.find((r) => r.group_id === "billing")).toBe(billing);

    // The lag moved: a new object for that row only.
    live = mergeLiveMessages(live, [lagMessage("billing", { ts: at(10), total_lag: 9 })]);
    const third = overlay(GROUPS, live);
    expect(third.find((r) => r.group_id === "billing")!.total_lag).toBe(9);
    expect(third.find((r) => r.group_id === "search-indexer")).toBe(second.find((r) => r.group_id === "search-indexer"));

    // Only the reason moved (same risk): a new object too, so the tooltip is current.
    live = mergeLiveMessages(live, [lagMessage("billing", { ts: at(15), total_lag: 9, retention_risk: "near", retention_reason: "in 3 h" })]);
    const fourth = overlay(GROUPS, live);
    live = mergeLiveMessages(live, [lagMessage("billing", { ts: at(20), total_lag: 9, retention_risk: "near", retention_reason: "in 2 h" })]);
    const fifth = overlay(GROUPS, live).find((r) => r.group_id === "billing")!;
    expect(fifth).not.toBe(fourth.find((r) => r.group_id === "billing"));
    expect(fifth.retention_reason).toBe("in 2 h");
  });

  it("handles thousands of groups in one batch", () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({ ...row("billing"), group_id: `g${i}` }));
    const messages = rows.map((r, i) => lagMessage(r.group_id, { total_lag: i }));
    const live = mergeLiveMessages(NO_LIVE_GROUPS, messages);
    const out = createRowOverlay()(rows, live);
    expect(out[4999]!.total_lag).toBe(4999);
    expect(live.size).toBe(5000);
  });
});

describe("unknownGroups", () => {
  it("lists groups the list lacks, not those reported gone", () => {
    const known = new Set(["a"]);
    expect(
      unknownGroups(
        [lagMessage("a"), lagMessage("b"), groupStateMessage("c", { previous_state: null }), groupStateMessage("d", { state: "Dead" })],
        known,
      ),
    ).toEqual(["b", "c"]);
  });
});

describe("overlayDetail", () => {
  it("applies a newer sample to the group and its partitions, keeping log start and members", () => {
    const message = lagMessage("billing", {
      ts: at(30),
      total_lag: 30,
      max_lag_seconds: 12.5,
      status: "WARN",
      catch_up_seconds: null,
      retention_risk: "near",
      retention_reason: "orders-0: unread records can be deleted in 3 h",
      topics: {
        orders: topicLag({
          lag: 30,
          max_lag_seconds: 12.5,
          write_per_s: 4,
          consume_per_s: 3,
          retention_risk: "near",
          retention_reason: "orders-0: unread records can be deleted in 3 h",
        }),
      },
      partitions: [
        partitionLag("orders", 0, { committed_offset: 100, log_end_offset: 120, lag: 20, lag_seconds: 12.5, status: "WARN", retention_risk: "near" }),
        partitionLag("orders", 1, { committed_offset: 200, log_end_offset: 210, lag: 10, lag_seconds: 3, status: "OK" }),
        partitionLag("orders", 9, { committed_offset: 1, log_end_offset: 1, lag: 0 }),
      ],
    });
    const out = overlayDetail(BILLING, message);
    expect(out).toMatchObject({
      total_lag: 30,
      max_lag_seconds: 12.5,
      status: "WARN",
      retention_risk: "near",
      retention_reason: "orders-0: unread records can be deleted in 3 h",
      rates: { write_per_s: 4, consume_per_s: 3 },
      sampled_at: at(30),
      topics: [
        {
          topic: "orders",
          lag: 30,
          rates: { write_per_s: 4, consume_per_s: 3 },
          retention_risk: "near",
          retention_reason: "orders-0: unread records can be deleted in 3 h",
        },
      ],
      members: BILLING.members,
    });
    const p0 = out.offsets.find((o) => o.topic === "orders" && o.partition === 0)!;
    expect(p0).toEqual({
      ...BILLING.offsets[0],
      committed_offset: 100,
      log_end_offset: 120,
      lag: 20,
      lag_seconds: 12.5,
      status: "WARN",
      retention_risk: "near",
      retention_reason: null, // the message has no partition reasons; the detail's risk was none
    });
    expect(out.offsets.find((o) => o.topic === "payments")).toBe(BILLING.offsets[2]); // not in the sample
    expect(out.offsets.find((o) => o.partition === 9)).toMatchObject({ log_start_offset: null, member_id: null, retention_reason: null });

    expect(overlayDetail(BILLING, null)).toBe(BILLING);
    expect(overlayDetail(ORDERS_APP, message)).toBe(ORDERS_APP); // another group's
    expect(overlayDetail({ ...BILLING, sampled_at: at(30) }, message).total_lag).toBe(BILLING.total_lag); // not newer
  });
});

describe("overlayDetail, partition reasons", () => {
  it("keeps the detail's reason of a partition while the sample says the same risk, else drops it", () => {
    const detail: GroupDetail = {
      ...BILLING,
      retention_risk: "near",
      retention_reason: "orders-0: in 5 h",
      offsets: BILLING.offsets.map((o) =>
        o.topic === "orders" ? { ...o, retention_risk: "near" as const, retention_reason: `in ${5 - o.partition} h` } : o,
      ),
    };
    const out = overlayDetail(
      detail,
      lagMessage("billing", {
        ts: at(30),
        retention_risk: "lost",
        retention_reason: "orders-1: retention deleted 3 records the group had not read",
        partitions: [partitionLag("orders", 0, { retention_risk: "near" }), partitionLag("orders", 1, { retention_risk: "lost" })],
      }),
    );
    const reasonOf = (partition: number) => out.offsets.find((o) => o.topic === "orders" && o.partition === partition)!.retention_reason;
    expect(reasonOf(0)).toBe("in 5 h"); // still near
    expect(reasonOf(1)).toBeNull(); // near -> lost: the detail's reason no longer holds
    expect(out.retention_reason).toBe("orders-1: retention deleted 3 records the group had not read");
  });
});

describe("parseLiveMessage", () => {
  it("accepts the known message types and drops anything else", () => {
    expect(parseLiveMessage(JSON.stringify(lagMessage("a")))).toMatchObject({ type: "lag", group_id: "a" });
    expect(parseLiveMessage(JSON.stringify({ type: "lag", group_id: "a", ts: T0 }))).toMatchObject({ topics: {}, partitions: [] });
    expect(parseLiveMessage(JSON.stringify({ type: "lag" }))).toBeNull();
    expect(parseLiveMessage(JSON.stringify({ type: "status", live: true }))).toEqual({ type: "status", live: true });
    expect(parseLiveMessage(JSON.stringify({ type: "metadata", ts: T0 }))).toMatchObject({ brokers: [], changes: [] });
    expect(parseLiveMessage(JSON.stringify({ type: "error", error: { code: "bad_request", message: "no" } }))).toMatchObject({
      type: "error",
    });
    expect(parseLiveMessage("{")).toBeNull();
    expect(parseLiveMessage("[1]")).toBeNull();
    expect(parseLiveMessage(JSON.stringify({ type: "other" }))).toBeNull();
    expect(parseLiveMessage(new ArrayBuffer(2))).toBeNull();
  });
});

describe("overlayDetail, a pass older than the detail's read", () => {
  // The detail read the committed offsets at 20 s (after a reset to 2 of orders-0, say); the
  // partition's committed offset in the detail is what the reset left.
  const readAt = at(20);
  const detail: GroupDetail = {
    ...BILLING,
    sampled_at: at(0),
    read_at: readAt,
    max_lag_seconds: null, // the server found its own sample stale
    offsets: BILLING.offsets.map((o) => (o.topic === "orders" && o.partition === 0 ? { ...o, committed_offset: 2, lag_seconds: null } : o)),
  };
  const sample = (ts: string, committed: number) =>
    lagMessage("billing", {
      ts,
      max_lag_seconds: 64.5,
      partitions: [partitionLag("orders", 0, { committed_offset: committed, lag_seconds: 64.5 })],
    });

  it("is not applied when it began before the read and saw another committed offset", () => {
    expect(overlayDetail(detail, sample(at(10), 15))).toBe(detail);
  });

  it("is applied when it saw the same offsets, or began after the read", () => {
    expect(overlayDetail(detail, sample(at(10), 2)).max_lag_seconds).toBe(64.5);
    const after = overlayDetail(detail, sample(at(25), 3));
    expect(after.max_lag_seconds).toBe(64.5);
    expect(after.offsets.find((o) => o.topic === "orders" && o.partition === 0)!.committed_offset).toBe(3);
    // An answer without read_at (an older server): samples newer than its sample are applied.
    const { read_at: _, ...older } = detail;
    expect(overlayDetail(older as GroupDetail, sample(at(10), 15)).max_lag_seconds).toBe(64.5);
  });
});

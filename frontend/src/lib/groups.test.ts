import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import type { ResetForm } from "./groups";
import {
  buildResetRequest,
  errorPlace,
  groupStateTone,
  parsePartitions,
  planChanges,
  planTotals,
  scopeSummary,
  strategySummary,
  undoableIds,
} from "./groups";
import { resetOf } from "../test/fixtures";

const FORM: ResetForm = {
  topics: [
    { topic: "orders", selected: true, partitions: "", partitionCount: 6, ofGroup: true },
    { topic: "payments", selected: false, partitions: "", partitionCount: 3, ofGroup: true },
  ],
  strategy: "earliest",
  offset: "",
  shift: "",
  datetime: "",
  zone: "UTC",
  duration: "",
  csv: "",
  reason: " why ",
};

describe("parsePartitions", () => {
  it("reads lists and ranges, empty meaning every partition", () => {
    expect(parsePartitions("")).toBeNull();
    expect(parsePartitions(" 4, 0,1 ,1")).toEqual([0, 1, 4]);
    expect(parsePartitions("0-2 5")).toEqual([0, 1, 2, 5]);
  });

  it("refuses what is not a partition of the topic", () => {
    expect(() => parsePartitions("a")).toThrow("“a” is not a partition number");
    expect(() => parsePartitions("3-1")).toThrow("backwards");
    expect(() => parsePartitions("0,6,7", 6)).toThrow("No partition 6, 7: the topic has 6 (0–5).");
  });
});

describe("buildResetRequest", () => {
  it("sends the selected topics and the trimmed reason", () => {
    const built = buildResetRequest({ ...FORM, topics: [{ ...FORM.topics[0]!, partitions: "0,2" }, FORM.topics[1]!] }, true);
    expect(built).toEqual({
      ok: true,
      body: {
        scope: { topics: [{ topic: "orders", partitions: [0, 2] }] },
        strategy: { type: "earliest" },
        dry_run: true,
        reason: "why",
      },
    });
  });

  it("reports local problems instead of a body", () => {
    const none = buildResetRequest({ ...FORM, topics: FORM.topics.map((t) => ({ ...t, selected: false })) }, true);
    expect(none).toEqual({ ok: false, errors: { scope: "Choose at least one topic." } });
    const offset = buildResetRequest({ ...FORM, strategy: "to_offset", offset: "1.5" }, true);
    expect(offset.ok || offset.errors.strategy).toBe("Give the offset as a whole number.");
    const duration = buildResetRequest({ ...FORM, strategy: "by_duration", duration: "P1W" }, true);
    expect(duration.ok || duration.errors.strategy).toMatch(/not a duration Kafka accepts/);
  });

  it("omits the scope for from_file and upper-cases durations", () => {
    expect(buildResetRequest({ ...FORM, strategy: "from_file", csv: "orders,0,5\n" }, false)).toEqual({
      ok: true,
      body: { strategy: { type: "from_file", csv: "orders,0,5\n" }, dry_run: false, reason: "why" },
    });
    const built = buildResetRequest({ ...FORM, strategy: "by_duration", duration: "pt15m" }, true);
    expect(built.ok && built.body.strategy).toEqual({ type: "by_duration", duration: "PT15M" });
  });
});

describe("errorPlace", () => {
  const body = buildResetRequest(FORM, true);
  const bad = (field: string) => new ApiError(400, "invalid", `${field}: bad`, { field });
  it("maps details.field to the wizard's parts", () => {
    const b = body.ok ? body.body : null;
    expect(errorPlace(bad("strategy.offset"), b)).toEqual({ area: "strategy", field: "strategy.offset" });
    expect(errorPlace(bad("scope.topics[0].partitions.0"), b)).toEqual({
      area: "scope",
      topic: "orders",
      field: "scope.topics[0].partitions.0",
    });
    expect(errorPlace(bad("scope"), b)).toEqual({ area: "scope", field: "scope" });
    expect(errorPlace(bad("reason"), b)).toEqual({ area: "reason", field: "reason" });
    expect(errorPlace(bad("body"), b)).toEqual({ area: null });
    expect(errorPlace(new ApiError(409, "group_active", "active"), b)).toEqual({ area: null });
  });
});

describe("plans and history", () => {
  it("totals a plan", () => {
    expect(planTotals(resetOf().plan)).toEqual({
      partitions: 4,
      lagBefore: 120,
      lagAfter: 150,
      clamped: 1,
      rewound: 1,
      replayed: 80,
      advanced: 1,
      skipped: 50,
      unchanged: 1,
      uncommitted: 1,
    });
  });

  it("summarizes strategies and scopes", () => {
    expect(strategySummary({ type: "shift_by", shift: -1500 })).toBe("Shift by -1,500");
    expect(strategySummary({ type: "by_duration", duration: "PT15M" })).toBe("Back PT15M (15 minutes)");
    expect(strategySummary({ type: "undo", undo_of: 3 })).toBe("Undo of #3");
    expect(strategySummary({ type: "latest" })).toBe("Latest (log end)");
    expect(strategySummary({ type: "to_datetime", datetime: "2026-07-01T09:30:00.000-04:00" })).toBe(
      "To date-time 2026-07-01T09:30:00.000-04:00 (2026-07-01 13:30:00.000 UTC)",
    );
    expect(scopeSummary(resetOf({ scope: { topics: [{ topic: "orders", partitions: [0, 1] }, { topic: "b", partitions: null }] } }))).toBe(
      "orders [0, 1], b (all)",
    );
  });

  it("offers undo only on executed resets nothing undid", () => {
    const resets = [
      resetOf({ id: 4, dry_run: false, executed: true, state: "succeeded", undo_of: 2 }),
      resetOf({ id: 3, dry_run: false, executed: true, state: "failed" }),
      resetOf({ id: 2, dry_run: false, executed: true, state: "succeeded" }),
      resetOf({ id: 1, dry_run: false, executed: true, state: "partially_failed" }),
      resetOf({ id: 0 }),
    ];
    expect([...undoableIds(resets)].sort()).toEqual([1, 4]);
  });

  it("colours group states", () => {
    expect(groupStateTone("Stable")).toBe("ok");
    expect(groupStateTone("Empty")).toBe("neutral");
    expect(groupStateTone("CompletingRebalance")).toBe("warn");
    expect(groupStateTone("Reconciling")).toBe("warn");
    expect(groupStateTone("Dead")).toBe("error");
  });

  it("reads what changed from a 409 plan_stale, ignoring malformed entries", () => {
    const stale = new ApiError(409, "plan_stale", "No longer holds.", {
      changes: [
        { topic: "payments", partition: 0, planned_current_offset: 7, current_offset: 9 },
        { topic: "orders", partition: 3, planned_current_offset: null, current_offset: 4, log_start_offset: 0, log_end_offset: 8 },
        { topic: "orders" },
        "orders-1",
      ],
    });
    expect(planChanges(stale)).toEqual([
      { topic: "orders", partition: 3, planned_current_offset: null, current_offset: 4, new_offset: undefined, log_start_offset: 0, log_end_offset: 8 },
      { topic: "payments", partition: 0, planned_current_offset: 7, current_offset: 9, new_offset: undefined, log_start_offset: undefined, log_end_offset: undefined },
    ]);
    expect(planChanges(new ApiError(409, "plan_stale", "x", {}))).toEqual([]);
    expect(planChanges(new ApiError(409, "group_active", "x", { state: "Stable", member_count: 2 }))).toBeNull();
    expect(planChanges(new Error("plan_stale"))).toBeNull();
  });
});

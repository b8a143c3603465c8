import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import { alertRule } from "../test/alertFixtures";
import {
  activeSilence,
  conditionWords,
  isoToWall,
  placeRuleErrors,
  repeatWords,
  ruleValues,
  shortSeconds,
  splitSeconds,
  toSeconds,
} from "./alertRules";

describe("alert rules in words", () => {
  it("says the conditions in the statuses' order, the lag in its largest whole unit", () => {
    expect(conditionWords({ statuses: ["STOP", "ERR"], lag_seconds_over: 120, retention_risk: true })).toBe(
      "status ERR or STOP · lag > 2 m · retention risk",
    );
    expect(conditionWords({ statuses: ["STALL", "WARN", "ERR"], lag_seconds_over: null, retention_risk: false })).toBe(
      "status WARN, ERR or STALL",
    );
    expect(conditionWords({ statuses: [], lag_seconds_over: 0, retention_risk: false })).toBe("lag > 0 s");
    expect(conditionWords({ statuses: [], lag_seconds_over: null, retention_risk: false })).toBe("no condition");
    expect(shortSeconds(45)).toBe("45 s");
    expect(shortSeconds(7200)).toBe("2 h");
    expect(shortSeconds(172_800)).toBe("2 d");
    expect(shortSeconds(90)).toBe("1 m 30 s");
  });

  it("says how often a firing rule tells again", () => {
    expect(repeatWords(0)).toBe("once");
    expect(repeatWords(3600)).toBe("every hour");
    expect(repeatWords(1800)).toBe("every 30 minutes");
    expect(repeatWords(90)).toBe("every 90 seconds");
    expect(repeatWords(172_800)).toBe("every 2 days");
  });

  it("finds the silence window in force", () => {
    const silences = [{ starts_at: "2026-12-24T18:00:00+01:00", ends_at: "2026-12-26T08:00:00-05:00" }];
    expect(activeSilence(silences, Date.parse("2026-12-25T00:00:00Z"))).toBe(silences[0]);
    expect(activeSilence(silences, Date.parse("2026-12-26T13:00:00Z"))).toBeNull(); // the end is out
  });
});

describe("the rule form's values", () => {
  it("converts amounts and units to seconds and back", () => {
    expect(toSeconds("2", "m")).toBe(120);
    expect(toSeconds("0.1", "h")).toBe(360);
    expect(toSeconds("-1", "s")).toBeNull();
    expect(toSeconds("", "s")).toBeNull();
    expect(splitSeconds(7200)).toEqual({ amount: "2", unit: "h" });
    expect(splitSeconds(120)).toEqual({ amount: "2", unit: "m" });
    expect(splitSeconds(90)).toEqual({ amount: "90", unit: "s" });
    expect(splitSeconds(0)).toEqual({ amount: "0", unit: "s" });
  });

  it("shows a stored window in its own offset", () => {
    expect(isoToWall("2026-12-24T18:00:00+01:00")).toEqual({ datetime: "2026-12-24 18:00:00", zone: "+01:00" });
    expect(isoToWall("2026-12-24T18:00:00.250Z")).toEqual({ datetime: "2026-12-24 18:00:00.250", zone: "UTC" });
    expect(isoToWall("2026-12-24T18:00:00+00:00")).toEqual({ datetime: "2026-12-24 18:00:00", zone: "UTC" });
  });

  it("fills the form of a rule, its target left empty (shown masked)", () => {
    let id = 0;
    const values = ruleValues(alertRule({ lag_seconds_over: null, repeat_interval_s: 0 }), () => ++id);
    expect(values).toMatchObject({ lagAmount: "", repeatAmount: "0", repeatUnit: "s", target: "", statuses: ["ERR", "STOP"] });
  });
});

describe("placeRuleErrors", () => {
  it("puts a window's problems at its row, whichever way the path is written", () => {
    const error = new ApiError(400, "invalid", "silences[1].ends_at: This field is required.", {
      field: "silences[1].ends_at",
      errors: {
        silences: [{}, { ends_at: ["This field is required."] }],
        "silences.2": "silences.2: give exactly starts_at and ends_at.",
        repeat_interval_s: ["Ensure this value is less than or equal to 604800."],
      },
    });
    expect(placeRuleErrors(error)).toEqual({
      fields: {
        "silence-1": ["End: this field is required."],
        "silence-2": ["Give exactly the start and the end."],
        repeat_interval_s: ["Ensure this value is less than or equal to 604800."],
      },
      banner: null,
    });
  });

  it("leaves what names no field of the form, and other failures, to the banner", () => {
    const other = new ApiError(409, "conflict", "Busy.");
    expect(placeRuleErrors(other)).toEqual({ fields: {}, banner: other });
    const placed = placeRuleErrors(new ApiError(400, "invalid", "body: expected a JSON object.", { field: "body" }));
    expect(placed.fields).toEqual({});
    expect(placed.banner?.message).toBe("Expected a JSON object.");
  });
});

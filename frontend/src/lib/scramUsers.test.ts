import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import { checkScramForm, EMPTY_SCRAM_FORM, hasCredential, placeScramErrors, scramRows, scramUpsertBody } from "./scramUsers";

const USERS = [
  {
    user: "alice",
    credentials: [
      { mechanism: "SCRAM-SHA-512", iterations: 8192 },
      { mechanism: "SCRAM-SHA-256", iterations: 4096 },
    ],
  },
  { user: "bob", credentials: [{ mechanism: "SCRAM-SHA-512", iterations: 4096 }] },
];

describe("the SCRAM form", () => {
  it("starts at SCRAM-SHA-512 and 4096 iterations, and sends the password as typed", () => {
    expect(EMPTY_SCRAM_FORM).toEqual({ user: "", mechanism: "SCRAM-SHA-512", iterations: "4096" });
    const values = { user: " carol ", mechanism: "SCRAM-SHA-256" as const, iterations: "8192" };
    expect(checkScramForm(values, " pass word ")).toEqual({});
    expect(scramUpsertBody(values, " pass word ")).toEqual({ mechanism: "SCRAM-SHA-256", password: " pass word ", iterations: 8192 });
  });

  it("says what is missing before sending", () => {
    expect(checkScramForm({ ...EMPTY_SCRAM_FORM, iterations: "100" }, "")).toEqual({
      user: ["Give the user name."],
      password: ["Give the password."],
      iterations: ["A whole number from 4,096 to 16,384."],
    });
    expect(checkScramForm({ ...EMPTY_SCRAM_FORM, user: "a/b", iterations: "16385" }, "x")).toEqual({
      user: ["A user name cannot hold “/” here."],
      iterations: ["A whole number from 4,096 to 16,384."],
    });
    expect(checkScramForm({ ...EMPTY_SCRAM_FORM, user: "a", iterations: "4096.5" }, "x").iterations).toHaveLength(1);
  });

  it("puts a 400 beside its field, the rest in the banner", () => {
    const bad = new ApiError(400, "invalid", "iterations: Ensure this value is less than or equal to 16384.", { field: "iterations" });
    expect(placeScramErrors(bad)).toEqual({ fields: { iterations: ["Ensure this value is less than or equal to 16384."] }, banner: null });
    const gone = new ApiError(404, "not_found", "User bob has no SCRAM-SHA-256 credential on local.");
    expect(placeScramErrors(gone)).toEqual({ fields: {}, banner: gone });
  });
});

describe("the table", () => {
  it("has one row per credential, mechanisms sorted, the user named on its first", () => {
    expect(scramRows(USERS)).toEqual([
      { user: "alice", mechanism: "SCRAM-SHA-256", iterations: 4096, first: true },
      { user: "alice", mechanism: "SCRAM-SHA-512", iterations: 8192, first: false },
      { user: "bob", mechanism: "SCRAM-SHA-512", iterations: 4096, first: true },
    ]);
    expect(hasCredential(USERS, "bob", "SCRAM-SHA-512")).toBe(true);
    expect(hasCredential(USERS, "bob", "SCRAM-SHA-256")).toBe(false);
    expect(hasCredential(undefined, "bob", "SCRAM-SHA-512")).toBe(false);
  });
});

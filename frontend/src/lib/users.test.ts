import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import { BOB } from "../test/userFixtures";
import {
  checkNewUser,
  checkRoleRows,
  checkTokenForm,
  clusterRoleChips,
  clusterRolesOf,
  EMPTY_TOKEN_FORM,
  NEW_USER_FIELDS,
  newRoleRow,
  placeUserErrors,
  rolesFormOf,
  rolesPatch,
  sameRoles,
  TOKEN_FIELDS,
  tokenCreateBody,
  userCreateBody,
  userErrorHint,
  type RolesForm,
} from "./users";

/** The form's rows without their keys. */
const rowsOf = (form: RolesForm) => form.rows.map(({ cluster, role }) => ({ cluster, role }));

describe("roles as shown and edited", () => {
  it("chips the roles on single clusters by cluster name", () => {
    expect(clusterRoleChips(BOB)).toEqual([
      { cluster: "local", role: "operator" },
      { cluster: "staging", role: "admin" },
    ]);
    expect(clusterRoleChips({ cluster_roles: { x: "owner" as never } })).toEqual([]);
  });

  it("starts the editor from the user's roles (a new user: none), each row with its own key", () => {
    const form = rolesFormOf(BOB);
    expect(form.role).toBe("viewer");
    expect(rowsOf(form)).toEqual([
      { cluster: "local", role: "operator" },
      { cluster: "staging", role: "admin" },
    ]);
    expect(new Set(form.rows.map((r) => r.key)).size).toBe(2);
    expect(rolesFormOf({ ...BOB, role: null, cluster_roles: {} })).toEqual({ role: "", rows: [] });
    expect(rolesFormOf(null)).toEqual({ role: "", rows: [] });
  });

  it("checks the rows: a cluster and a role each, one row per cluster", () => {
    const a = newRoleRow("local", "viewer");
    const b = newRoleRow("", "viewer");
    const c = newRoleRow("local", "admin");
    const d = newRoleRow("staging", "");
    expect(checkRoleRows([a, b, c, d])).toEqual({
      [b.key]: "Choose the cluster.",
      [c.key]: "local has a row already: one role per cluster.",
      [d.key]: "Choose its role.",
    });
    expect(checkRoleRows([a])).toEqual({});
    expect(clusterRolesOf([a, b, d])).toEqual({ local: "viewer" });
  });
});

describe("sameRoles", () => {
  it("compares the role and the rows in any order, unfinished rows too", () => {
    const form = rolesFormOf(BOB);
    expect(sameRoles(form, { ...form, rows: [...form.rows].reverse() })).toBe(true);
    expect(sameRoles(form, rolesFormOf(BOB))).toBe(true);
    expect(sameRoles(form, { ...form, role: "" })).toBe(false);
    expect(sameRoles(form, { ...form, rows: [...form.rows, newRoleRow()] })).toBe(false);
  });
});

describe("rolesPatch", () => {
  it("is null when nothing changed", () => {
    expect(rolesPatch(BOB, rolesFormOf(BOB))).toBeNull();
  });

  it("sends the role on every cluster when it changed, null for none", () => {
    expect(rolesPatch(BOB, { ...rolesFormOf(BOB), role: "operator" })).toEqual({ role: "operator" });
    expect(rolesPatch(BOB, { ...rolesFormOf(BOB), role: "" })).toEqual({ role: null });
    expect(rolesPatch({ ...BOB, role: null }, { ...rolesFormOf({ ...BOB, role: null }), role: "" })).toBeNull();
  });

  it("sends a cluster's new or changed role, and null for a row removed", () => {
    const form = rolesFormOf(BOB);
    const edited: RolesForm = {
      role: "viewer",
      rows: [
        // local: now admin; staging removed; prod added.
        { ...form.rows[0]!, role: "admin" },
        newRoleRow("prod", "viewer"),
      ],
    };
    expect(rolesPatch(BOB, edited)).toEqual({ cluster_roles: { local: "admin", staging: null, prod: "viewer" } });
    expect(rolesPatch(BOB, { role: "", rows: [] })).toEqual({ role: null, cluster_roles: { staging: null, local: null } });
  });
});

describe("the new user form", () => {
  const roles: RolesForm = { role: "viewer", rows: [newRoleRow("local", "operator")] };

  it("checks the name and the rows before sending", () => {
    expect(checkNewUser({ username: " ", roles }).fields).toEqual({ username: ["Give the user name."] });
    expect(checkNewUser({ username: "a b", roles }).fields.username).toEqual(["Use only letters, digits and @ . + - _"]);
    expect(checkNewUser({ username: "x".repeat(151), roles }).fields.username).toEqual(["At most 150 characters."]);
    expect(checkNewUser({ username: "ci.bot+eu@example_1-ü", roles })).toEqual({ fields: {}, rows: {} });
    const bad = newRoleRow("", "admin");
    expect(checkNewUser({ username: "bob", roles: { role: "", rows: [bad] } }).rows).toEqual({ [bad.key]: "Choose the cluster." });
  });

  it("sends the password only when typed, the role only when chosen, the rows' roles", () => {
    expect(userCreateBody({ username: " bob ", roles }, "")).toEqual({ username: "bob", role: "viewer", cluster_roles: { local: "operator" } });
    expect(userCreateBody({ username: "bob", roles: { role: "", rows: [] } }, " s3cret ")).toEqual({ username: "bob", password: " s3cret " });
  });
});

describe("placeUserErrors", () => {
  it("puts each problem beside its field, a cluster's beside its row (names with dots too)", () => {
    const error = new ApiError(400, "invalid", "password: This password is too short.", {
      field: "password",
      errors: { password: ["This password is too short.", "This password is too common."], cluster_roles: { "eu.prod": ['"owner" is not a valid choice.'] } },
    });
    const placed = placeUserErrors(error, NEW_USER_FIELDS);
    expect(placed.fields).toEqual({ password: ["This password is too short.", "This password is too common."] });
    expect(placed.clusters).toEqual({ "eu.prod": ['"owner" is not a valid choice.'] });
    expect(placed.banner).toBeNull();
  });

  it("takes the one field a BadInput names", () => {
    const error = new ApiError(400, "invalid", "cluster_roles.nope: there is no cluster named 'nope'.", { field: "cluster_roles.nope" });
    expect(placeUserErrors(error, NEW_USER_FIELDS).clusters).toEqual({ nope: ["There is no cluster named 'nope'."] });
    const name = new ApiError(400, "invalid", "name: bob has a token named 'ci' already.", { field: "name" });
    expect(placeUserErrors(name, TOKEN_FIELDS).fields).toEqual({ name: ["Bob has a token named 'ci' already."] });
  });

  it("leaves a 409 and unknown fields to the banner", () => {
    const conflict = new ApiError(409, "user_exists", "A user named 'bob' exists.", {});
    expect(placeUserErrors(conflict, NEW_USER_FIELDS)).toEqual({ fields: {}, clusters: {}, banner: conflict });
    const other = new ApiError(400, "invalid", "body: unknown field", { field: "body" });
    const placed = placeUserErrors(other, NEW_USER_FIELDS);
    expect(placed.banner?.message).toBe("Unknown field");
    expect(placeUserErrors(null, NEW_USER_FIELDS)).toEqual({ fields: {}, clusters: {}, banner: null });
  });

  it("says what to do about last_admin, user_exists and disabling yourself", () => {
    expect(userErrorHint(new ApiError(409, "last_admin", "…", {}))).toContain("at least one active user who is admin on every cluster");
    expect(userErrorHint(new ApiError(409, "user_exists", "…", {}))).toContain("Choose another name");
    expect(userErrorHint(new ApiError(400, "invalid", "is_active: you cannot disable yourself.", { field: "is_active" }))).toContain("you cannot");
    expect(userErrorHint(new ApiError(500, "error", "…", {}))).toBeNull();
    expect(userErrorHint(new Error("x"))).toBeNull();
  });
});

describe("the token form", () => {
  it("needs a name (new for the user) and 1 to 3650 days", () => {
    expect(checkTokenForm(EMPTY_TOKEN_FORM)).toEqual({ name: ["Say what the token is for."] });
    expect(checkTokenForm({ name: "ci", days: "0" })).toEqual({ expires_in_days: ["A whole number of days from 1 to 3650."] });
    expect(checkTokenForm({ name: "ci", days: "3651" }).expires_in_days).toBeDefined();
    expect(checkTokenForm({ name: "ci", days: "1.5" }).expires_in_days).toBeDefined();
    expect(checkTokenForm({ name: "ci", days: "" }).expires_in_days).toBeDefined();
    expect(checkTokenForm({ name: "ci", days: "30" }, [{ name: "ci" }])).toEqual({ name: ["The user has a token of this name already."] });
    expect(checkTokenForm({ name: "x".repeat(101), days: "30" }).name).toEqual(["At most 100 characters."]);
    expect(checkTokenForm({ name: " ci ", days: "3650" })).toEqual({});
  });

  it("sends the name trimmed and the days as a number (90 by default)", () => {
    expect(EMPTY_TOKEN_FORM.days).toBe("90");
    expect(tokenCreateBody({ name: " ci ", days: " 30 " })).toEqual({ name: "ci", expires_in_days: 30 });
  });
});

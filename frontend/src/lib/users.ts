// The Users pages' pieces that are not React (docs/governance.md, "Console users and API tokens";
// docs/roles.md): the roles, a user's roles as the table shows them, the role editor's rows (one
// per cluster with its own role) → the create body or the PATCH that gets there (a removed row sent
// as null), the new user form's checks (the password read from its input when sent, never kept),
// where a refusal's problems belong (`cluster_roles.<cluster>` beside that cluster's row), the
// token form's checks and the 409s in words.
import { ApiError } from "../api/client";
import type { ApiTokenCreate, ConsoleUser, ConsoleUserChange, ConsoleUserCreate, Role } from "../api/types";
import { fieldProblems } from "./fieldErrors";

/** The roles, lowest first (docs/roles.md: each includes the ones before it). */
export const ROLES: readonly Role[] = ["viewer", "operator", "admin"];

export const ROLE_HELP: Record<Role, string> = {
  viewer: "Reads everything on the cluster",
  operator: "Also resets offsets, deletes idle groups, runs Spark jobs, reads the audit log",
  admin: "Also creates, deletes and configures topics, ACLs, quotas; manages users",
};

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** One cluster with its own role, as the chips of the table show it. */
export interface ClusterRoleChip {
  cluster: string;
  role: Role;
}

/** A user's roles on single clusters, by cluster name. */
export function clusterRoleChips(user: Pick<ConsoleUser, "cluster_roles">): ClusterRoleChip[] {
  return Object.entries(user.cluster_roles)
    .filter((entry): entry is [string, Role] => isRole(entry[1]))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([cluster, role]) => ({ cluster, role }));
}

/** One row of the role editor: a cluster and its own role ("" while not chosen). */
export interface RoleRow {
  /** React's key: stable while rows are added and removed. */
  key: number;
  cluster: string;
  role: Role | "";
}

/** The role editor: the role on every cluster ("" for none) and the rows of single clusters. */
export interface RolesForm {
  role: Role | "";
  rows: RoleRow[];
}

let rowKeys = 0;

/** A new row of the editor (the cluster and role to choose, unless given). */
export function newRoleRow(cluster = "", role: Role | "" = ""): RoleRow {
  rowKeys += 1;
  return { key: rowKeys, cluster, role };
}

/** The editor holding a user's roles now (a new user: none). */
export function rolesFormOf(user: Pick<ConsoleUser, "role" | "cluster_roles"> | null): RolesForm {
  if (!user) return { role: "", rows: [] };
  return {
    role: isRole(user.role) ? user.role : "",
    rows: clusterRoleChips(user).map((chip) => newRoleRow(chip.cluster, chip.role)),
  };
}

/** Whether two editors hold the same roles (rows in any order, unfinished rows too). */
export function sameRoles(a: RolesForm, b: RolesForm): boolean {
  const rows = (form: RolesForm) =>
    form.rows
      .map((row) => `${row.cluster}\u0000${row.role}`)
      .sort()
      .join("\u0001");
  return a.role === b.role && rows(a) === rows(b);
}

/** What is wrong with the editor's rows, by row key, before anything is sent; {} when nothing. */
export function checkRoleRows(rows: readonly RoleRow[]): Record<number, string> {
  const errors: Record<number, string> = {};
  const seen = new Set<string>();
  for (const row of rows) {
    if (!row.cluster) errors[row.key] = "Choose the cluster.";
    else if (seen.has(row.cluster)) errors[row.key] = `${row.cluster} has a row already: one role per cluster.`;
    else if (!row.role) errors[row.key] = "Choose its role.";
    seen.add(row.cluster);
  }
  return errors;
}

/** The editor's rows as `cluster_roles` (rows not filled in left out). */
export function clusterRolesOf(rows: readonly RoleRow[]): Record<string, Role> {
  const out: Record<string, Role> = {};
  for (const row of rows) if (row.cluster && row.role) out[row.cluster] = row.role;
  return out;
}

/**
 * The PATCH that takes `user` to the editor's roles: `role` when it changed (null: none), and in
 * `cluster_roles` each cluster whose own role is new or changed, and null for each one whose row was
 * removed. null when nothing changed.
 */
export function rolesPatch(user: Pick<ConsoleUser, "role" | "cluster_roles">, form: RolesForm): ConsoleUserChange | null {
  const patch: ConsoleUserChange = {};
  const wanted = form.role === "" ? null : form.role;
  const held = isRole(user.role) ? user.role : null;
  if (wanted !== held) patch.role = wanted;
  const rows = clusterRolesOf(form.rows);
  const changes: Record<string, Role | null> = {};
  for (const cluster of Object.keys(user.cluster_roles)) {
    if (!(cluster in rows)) changes[cluster] = null;
  }
  for (const [cluster, role] of Object.entries(rows)) {
    if (user.cluster_roles[cluster] !== role) changes[cluster] = role;
  }
  if (Object.keys(changes).length > 0) patch.cluster_roles = changes;
  return Object.keys(patch).length > 0 ? patch : null;
}

/** The new user form as typed, but for the password (read from its input when sent). */
export interface NewUserValues {
  username: string;
  roles: RolesForm;
}

export const NEW_USER_FIELDS = ["username", "password", "role", "cluster_roles"] as const;
export type NewUserField = (typeof NEW_USER_FIELDS)[number];
export type UserFormErrors = Partial<Record<NewUserField, string[]>>;

/** Django's user names: letters, digits and @ . + - _ (at most 150). */
const USERNAME = /^[\p{L}\p{N}@.+_-]+$/u;

/** The new user form's problems before anything is sent: fields and rows; none: both {}. */
export function checkNewUser(values: NewUserValues): { fields: UserFormErrors; rows: Record<number, string> } {
  const fields: UserFormErrors = {};
  const username = values.username.trim();
  if (!username) fields.username = ["Give the user name."];
  else if (username.length > 150) fields.username = ["At most 150 characters."];
  else if (!USERNAME.test(username)) fields.username = ["Use only letters, digits and @ . + - _"];
  return { fields, rows: checkRoleRows(values.roles.rows) };
}

/** The POST body of a checked form: the password only when one is typed (none: API tokens only),
 * the role on every cluster only when chosen, the rows' roles. */
export function userCreateBody(values: NewUserValues, password: string): ConsoleUserCreate {
  const body: ConsoleUserCreate = { username: values.username.trim() };
  if (password) body.password = password;
  if (values.roles.role) body.role = values.roles.role;
  const clusterRoles = clusterRolesOf(values.roles.rows);
  if (Object.keys(clusterRoles).length > 0) body.cluster_roles = clusterRoles;
  return body;
}

/** A refusal's problems: beside the form's fields, beside a cluster's row (`cluster_roles.<cluster>`:
 * a cluster name may hold dots), the rest (and every error that is not a 400 naming a field) in the
 * banner. */
export interface PlacedUserErrors<F extends string> {
  fields: Partial<Record<F, string[]>>;
  clusters: Record<string, string[]>;
  banner: Error | null;
}

export function placeUserErrors<F extends string>(error: unknown, fields: readonly F[]): PlacedUserErrors<F> {
  if (!error) return { fields: {}, clusters: {}, banner: null };
  const asError = error instanceof Error ? error : new Error(String(error));
  const problems = fieldProblems(error);
  if (problems.length === 0) return { fields: {}, clusters: {}, banner: asError };
  const placed: PlacedUserErrors<F> = { fields: {}, clusters: {}, banner: null };
  const unplaced: string[] = [];
  for (const { path, message } of problems) {
    if (path.startsWith("cluster_roles.")) {
      (placed.clusters[path.slice("cluster_roles.".length)] ??= []).push(message);
      continue;
    }
    const field = fields.find((f) => f === path);
    if (field) (placed.fields[field] ??= []).push(message);
    else unplaced.push(message);
  }
  if (unplaced.length > 0) {
    const api = error as ApiError;
    placed.banner = new ApiError(api.status, api.code, unplaced.join(" "), api.details);
  }
  return placed;
}

/** What to do about a refusal the server explains with a code, in a sentence (null: nothing more
 * to say than its message). */
export function userErrorHint(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 409 && error.code === "last_admin") {
    return "The console must keep at least one active user who is admin on every cluster: give another user the admin role on every cluster first.";
  }
  if (error.status === 409 && error.code === "user_exists") return "Choose another name, or open that user to change its roles.";
  if (error.status === 400 && error.details.field === "is_active") return "Another admin can disable you; you cannot.";
  return null;
}

// ---- API tokens ----

export const TOKEN_DAYS_DEFAULT = 90;
export const TOKEN_DAYS_MIN = 1;
export const TOKEN_DAYS_MAX = 3650;
/** The server's limit on a token's name. */
export const TOKEN_NAME_MAX = 100;

export interface TokenFormValues {
  name: string;
  days: string;
}

export const EMPTY_TOKEN_FORM: TokenFormValues = { name: "", days: String(TOKEN_DAYS_DEFAULT) };

export const TOKEN_FIELDS = ["name", "expires_in_days"] as const;
export type TokenField = (typeof TOKEN_FIELDS)[number];
export type TokenFormErrors = Partial<Record<TokenField, string[]>>;

/** The token form's problems before sending; {} when none. */
export function checkTokenForm(values: TokenFormValues, existing: readonly { name: string }[] = []): TokenFormErrors {
  const errors: TokenFormErrors = {};
  const name = values.name.trim();
  if (!name) errors.name = ["Say what the token is for."];
  else if (name.length > TOKEN_NAME_MAX) errors.name = [`At most ${TOKEN_NAME_MAX} characters.`];
  else if (existing.some((t) => t.name === name)) errors.name = ["The user has a token of this name already."];
  const days = Number(values.days.trim());
  if (!values.days.trim() || !Number.isInteger(days) || days < TOKEN_DAYS_MIN || days > TOKEN_DAYS_MAX) {
    errors.expires_in_days = [`A whole number of days from ${TOKEN_DAYS_MIN} to ${TOKEN_DAYS_MAX}.`];
  }
  return errors;
}

/** The POST body of a checked token form. */
export function tokenCreateBody(values: TokenFormValues): ApiTokenCreate {
  return { name: values.name.trim(), expires_in_days: Number(values.days.trim()) };
}

/** The header the key goes in. */
export function tokenHeader(key: string): string {
  return `Authorization: Token ${key}`;
}

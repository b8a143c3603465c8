// The SCRAM users tab's pieces that are not React (docs/governance.md, "SCRAM users"): the
// mechanisms and iteration bounds, the create / rotate form → PUT body (the password goes from the
// input straight into the body, never into state), where a refused request's problems belong,
// and the table's rows (one per credential).
import { ApiError } from "../api/client";
import type { ScramMechanism, ScramUpsert, ScramUser } from "../api/types";
import { formatCount } from "./format";
import { fieldProblems, parsePath } from "./fieldErrors";

export const SCRAM_MECHANISMS: readonly ScramMechanism[] = ["SCRAM-SHA-256", "SCRAM-SHA-512"];

/** The client refuses fewer iterations, the controller more (the server's bounds). */
export const MIN_ITERATIONS = 4096;
export const MAX_ITERATIONS = 16384;

/** The form as typed, but for the password (read from its input when sent). */
export interface ScramFormValues {
  user: string;
  mechanism: ScramMechanism;
  iterations: string;
}

export const EMPTY_SCRAM_FORM: ScramFormValues = { user: "", mechanism: "SCRAM-SHA-512", iterations: String(MIN_ITERATIONS) };

export const SCRAM_FORM_FIELDS = ["user", "mechanism", "password", "iterations"] as const;
export type ScramFormField = (typeof SCRAM_FORM_FIELDS)[number];
export type ScramFormErrors = Partial<Record<ScramFormField, string[]>>;

function add(errors: ScramFormErrors, field: ScramFormField, message: string) {
  (errors[field] ??= []).push(message);
}

/** What the form lacks before anything is sent; {} when nothing. The password is not trimmed:
 * its spaces are part of it. */
export function checkScramForm(values: ScramFormValues, password: string): ScramFormErrors {
  const errors: ScramFormErrors = {};
  const user = values.user.trim();
  if (!user) add(errors, "user", "Give the user name.");
  else if (user.includes("/")) add(errors, "user", "A user name cannot hold “/” here.");
  if (!password) add(errors, "password", "Give the password.");
  const iterations = Number(values.iterations.trim());
  if (!values.iterations.trim() || !Number.isInteger(iterations) || iterations < MIN_ITERATIONS || iterations > MAX_ITERATIONS) {
    add(errors, "iterations", `A whole number from ${formatCount(MIN_ITERATIONS)} to ${formatCount(MAX_ITERATIONS)}.`);
  }
  return errors;
}

/** The PUT body of a checked form. */
export function scramUpsertBody(values: ScramFormValues, password: string): ScramUpsert {
  return { mechanism: values.mechanism, password, iterations: Number(values.iterations.trim()) };
}

export interface PlacedScramErrors {
  fields: ScramFormErrors;
  banner: Error | null;
}

/** A refusal's problems beside their field (`password`, `iterations`, `mechanism`, `user`); the
 * rest (and every error that is not a 400 with a field) in the banner. */
export function placeScramErrors(error: unknown): PlacedScramErrors {
  if (!error) return { fields: {}, banner: null };
  const problems = fieldProblems(error);
  const asError = error instanceof Error ? error : new Error(String(error));
  if (problems.length === 0) return { fields: {}, banner: asError };
  const fields: ScramFormErrors = {};
  const unplaced: string[] = [];
  for (const { path, message } of problems) {
    const first = parsePath(path)[0];
    const field = SCRAM_FORM_FIELDS.find((f) => f === first);
    if (field) add(fields, field, message);
    else unplaced.push(message);
  }
  if (unplaced.length === 0) return { fields, banner: null };
  const api = error as ApiError;
  return { fields, banner: new ApiError(api.status, api.code, unplaced.join(" "), api.details) };
}

/** One credential of a user: a row of the table. */
export interface ScramRow {
  user: string;
  mechanism: string;
  iterations: number;
  /** The user's first row (the others leave the name out). */
  first: boolean;
}

/** One row per credential, users in the server's order (sorted), mechanisms sorted. */
export function scramRows(users: readonly ScramUser[]): ScramRow[] {
  return users.flatMap((u) =>
    [...u.credentials]
      .sort((a, b) => (a.mechanism < b.mechanism ? -1 : a.mechanism > b.mechanism ? 1 : 0))
      .map((c, index) => ({ user: u.user, mechanism: c.mechanism, iterations: c.iterations, first: index === 0 })),
  );
}

/** Whether `user` holds a credential of `mechanism` in `users` (a PUT then rotates its password). */
export function hasCredential(users: readonly ScramUser[] | undefined, user: string, mechanism: string): boolean {
  return !!users?.some((u) => u.user === user && u.credentials.some((c) => c.mechanism === mechanism));
}

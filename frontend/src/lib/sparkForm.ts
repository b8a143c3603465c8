// The Spark job form: a job type's params JSON Schema (GET spark/job-types) turned into what the
// form library (@rjsf) renders well, the form's data turned back into `params`, and where a
// refused submit's 400 belongs (details.field: `cluster`, `params.<name>`, or something else).
import type { ErrorSchema, RJSFSchema, UiSchema } from "@rjsf/utils";
import { ApiError } from "../api/client";
import type { JsonSchema } from "../api/types";
import { fieldProblems, parsePath } from "./fieldErrors";
import { isRecord } from "./isRecord";

/** The form's data: the params being edited (any JSON the schema allows). */
export type ParamsFormData = Record<string, unknown>;

/** "start_offset" → "Start offset". */
export function humanize(name: string): string {
  const words = name.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What each alternative of an `anyOf` is called in the form's chooser. */
function optionTitle(option: JsonSchema): string {
  if (typeof option.title === "string") return option.title;
  if (option.type === "integer" || option.type === "number") return "Same for every partition";
  if (option.type === "object") return "Per partition";
  if (typeof option.type === "string") return humanize(option.type);
  return "Other";
}

/**
 * One property for the form. In the server's schemas `null` (the default) means "not given":
 * the form leaves the field empty instead, and `cleanParams` drops it, so the null alternatives
 * (`type: [x, "null"]`, an `anyOf` branch) and null defaults go. An optional list's `minItems`
 * goes too: an empty list is dropped like an empty field (the form would otherwise start with an
 * empty, invalid item).
 */
function formProperty(name: string, property: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...property };
  if (out.title === undefined) out.title = humanize(name);
  if (out.default === null) delete out.default;
  if (Array.isArray(out.type)) {
    const types = out.type.filter((t) => t !== "null");
    out.type = types.length === 1 ? types[0] : types;
    if (types.length < (property.type as unknown[]).length && out.type === "array") delete out.minItems;
  }
  if (Array.isArray(out.anyOf)) {
    const options = out.anyOf.filter((o): o is JsonSchema => isRecord(o) && o.type !== "null");
    if (options.length === 1) {
      delete out.anyOf;
      Object.assign(out, options[0], { title: out.title, description: out.description });
    } else {
      out.anyOf = options.map((o) => ({ ...o, title: optionTitle(o) }));
    }
  }
  return out;
}

/** The params schema as the form shows it (titles, no null alternatives); the server still
 * checks what is sent against its own schema. */
export function formSchema(paramsSchema: JsonSchema): RJSFSchema {
  const properties = isRecord(paramsSchema.properties) ? paramsSchema.properties : {};
  return {
    ...paramsSchema,
    type: "object",
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, p]) => [name, isRecord(p) ? formProperty(name, p) : p]),
    ),
  } as RJSFSchema;
}

/** The params' names, in the schema's order. */
export function paramNames(paramsSchema: JsonSchema): string[] {
  return isRecord(paramsSchema.properties) ? Object.keys(paramsSchema.properties) : [];
}

/** The widget of the form's topic fields (a text input offering the cluster's topics). */
export const TOPIC_WIDGET = "topic";

/** The widget of the form's date-time fields (`*_time`: a wall-clock time in a zone chosen beside
 * it, sent as ISO-8601 with that zone's offset). */
export const DATETIME_WIDGET = "zonedDateTime";

function fieldsUi(properties: Record<string, unknown>): UiSchema {
  const ui: UiSchema = {};
  for (const [name, property] of Object.entries(properties)) {
    if (!isRecord(property)) continue;
    const types = Array.isArray(property.type) ? property.type : [property.type];
    if (name === "topic" || name.endsWith("_topic")) {
      ui[name] = { "ui:widget": TOPIC_WIDGET };
    } else if (name.endsWith("_time") && types.includes("string")) {
      ui[name] = { "ui:widget": DATETIME_WIDGET };
    } else if (types.includes("array")) {
      // Items need no label of their own ("Partitions-1"): the list's title says what they are.
      ui[name] = { "ui:options": { orderable: false }, items: { "ui:options": { label: false } } };
    } else if (types.includes("object") && isRecord(property.properties)) {
      // A group of params (the pipeline's steps): its fields as the top level's.
      ui[name] = fieldsUi(property.properties);
    }
  }
  return ui;
}

/** How each field is shown, at every depth: topics offer the cluster's topics, times are typed in
 * a zone chosen beside them, lists are not reorderable (the order means nothing to the server). */
export function formUiSchema(paramsSchema: JsonSchema): UiSchema {
  const properties = isRecord(paramsSchema.properties) ? paramsSchema.properties : {};
  return { "ui:submitButtonOptions": { norender: true }, ...fieldsUi(properties) };
}

function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === "" ||
    (Array.isArray(value) && value.length === 0) ||
    (isRecord(value) && Object.keys(value).length === 0)
  );
}

/** The form's data as the `params` to send: fields left empty are left out (the server fills in
 * its defaults), so is an empty list or per-partition map. */
export function cleanParams(data: ParamsFormData | undefined): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(data ?? {})) {
    if (!isEmpty(value)) params[name] = value;
  }
  return params;
}

/** A server error shown beside a param: the field's path in the form's data, the message. */
export interface ParamError {
  path: string[];
  message: string;
}

/** Where a refused submit's errors are shown: beside the cluster, beside the params (each at its
 * field), in the banner (what names no field of the form, and every non-400 answer). */
export interface SubmitErrors {
  cluster: string[];
  params: ParamError[];
  banner: Error | null;
}

export const NO_SUBMIT_ERRORS: SubmitErrors = { cluster: [], params: [], banner: null };

/**
 * The deepest field of the form's `schema` along `parts` (["features", "alarms_topic"]): object
 * properties are followed; a list's item or a per-partition map's key is not a field of its own,
 * so the message goes to the list or map, the rest of the path said in front of it.
 */
function fieldAt(schema: RJSFSchema, parts: (string | number)[]): { path: string[]; rest: (string | number)[] } {
  const path: string[] = [];
  let node: unknown = schema;
  for (const part of parts) {
    const properties = isRecord(node) && isRecord(node.properties) ? node.properties : null;
    if (typeof part !== "string" || !properties || !isRecord(properties[part])) break;
    path.push(part);
    node = properties[part];
  }
  return { path, rest: parts.slice(path.length) };
}

function restWords(rest: (string | number)[]): string {
  return rest.map((part) => (typeof part === "number" ? `item ${part + 1}` : `“${part}”`)).join(", ");
}

/**
 * Where a refusal's problem with `path` ("params.features.alarms_topic") shows in the params form
 * of `schema`: beside the deepest field of the form along it (a list item at its list, the rest of
 * the path said in front of the message); null for a path outside the params or naming no field
 * of the form (an unknown param).
 */
export function paramErrorAt(path: string, message: string, schema: RJSFSchema): ParamError | null {
  const parts = parsePath(path);
  if (parts[0] !== "params") return null;
  const { path: field, rest } = fieldAt(schema, parts.slice(1));
  if (field.length === 0) return null;
  return { path: field, message: rest.length ? `${restWords(rest)}: ${message}` : message };
}

/**
 * Every problem of a refusal at its place (`schema`: the form's params schema): `own` takes those
 * of the form's own fields (true when it placed one), the params form those beside a field of it
 * (`params.<name>`, `params.<step>.<name>`, a list item at its list, in plain words), and the
 * banner what is left (an unknown param, `job_type`) and any other answer (403, 5xx).
 */
export function placeErrors(
  error: unknown,
  schema: RJSFSchema,
  own: (path: string, message: string) => boolean,
): { params: ParamError[]; banner: Error | null } {
  const problems = fieldProblems(error);
  if (problems.length === 0) return { params: [], banner: error instanceof Error ? error : new Error(String(error)) };
  const params: ParamError[] = [];
  const unplaced: string[] = [];
  for (const { path, message } of problems) {
    if (own(path, message)) continue;
    const param = paramErrorAt(path, message, schema);
    if (param) params.push(param);
    else unplaced.push(message);
  }
  if (unplaced.length === 0) return { params, banner: null };
  const api = error as ApiError;
  return { params, banner: new ApiError(api.status, api.code, unplaced.join(" "), api.details) };
}

/**
 * Every error of a refused submit at its place: a 400's problems (all of them when the answer
 * lists them: `details.errors`) beside the field each names (`cluster`, or a param: placeErrors).
 */
export function placeSubmitErrors(error: unknown, schema: RJSFSchema): SubmitErrors {
  if (!error) return NO_SUBMIT_ERRORS;
  const cluster: string[] = [];
  const { params, banner } = placeErrors(error, schema, (path, message) => {
    const parts = parsePath(path);
    if (parts[0] !== "cluster" || parts.length !== 1) return false;
    cluster.push(message);
    return true;
  });
  return { cluster, params, banner };
}

/** The form library's `extraErrors`: each message beside its param's field. */
export function paramErrorSchema(errors: readonly ParamError[]): ErrorSchema<ParamsFormData> {
  const root: Record<string, unknown> = {};
  for (const { path, message } of errors) {
    let node = root;
    for (const part of path) {
      node[part] ??= {};
      node = node[part] as Record<string, unknown>;
    }
    node.__errors = [...((node.__errors as string[] | undefined) ?? []), message];
  }
  return root as ErrorSchema<ParamsFormData>;
}

/** The value at `path` in the form's data. */
export function valueAt(data: unknown, path: readonly string[]): unknown {
  let node = data;
  for (const part of path) node = isRecord(node) ? node[part] : undefined;
  return node;
}

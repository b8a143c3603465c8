// The Spark job form: a job type's params JSON Schema (GET spark/job-types) turned into what the
// form library (@rjsf) renders well, the form's data turned back into `params`, and where a
// refused submit's 400 belongs (details.field: `cluster`, `params.<name>`, or something else).
import type { ErrorSchema, RJSFSchema, UiSchema } from "@rjsf/utils";
import { ApiError } from "../api/client";
import type { JsonSchema } from "../api/types";

/** The form's data: the params being edited (any JSON the schema allows). */
export type ParamsFormData = Record<string, unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

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

/** How each field is shown: topics offer the cluster's topics, times show the format, lists are
 * not reorderable (the order means nothing to the server). */
export function formUiSchema(paramsSchema: JsonSchema): UiSchema {
  const ui: UiSchema = { "ui:submitButtonOptions": { norender: true } };
  const properties = isRecord(paramsSchema.properties) ? paramsSchema.properties : {};
  for (const [name, property] of Object.entries(properties)) {
    if (!isRecord(property)) continue;
    const types = Array.isArray(property.type) ? property.type : [property.type];
    if (name === "topic" || name.endsWith("_topic")) {
      ui[name] = { "ui:widget": TOPIC_WIDGET };
    } else if (name.endsWith("_time")) {
      ui[name] = { "ui:placeholder": "2026-11-21T10:03:12Z (a zone is required)" };
    } else if (types.includes("array")) {
      // Items need no label of their own ("Partitions-1"): the list's title says what they are.
      ui[name] = { "ui:options": { orderable: false }, items: { "ui:options": { label: false } } };
    }
  }
  return ui;
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

/** Where a refused submit is shown: next to the cluster, next to a param, or in a banner. */
export type SubmitErrorPlace = { at: "cluster" } | { at: "param"; name: string } | { at: "banner" };

/**
 * A 400 names its field in `details.field`: `cluster`, `params.topic`, `params.partitions[0]`,
 * `params.start_offset`, … A param the form has gets the message next to it (a nested path
 * belongs to its top-level param); anything else (`job_type`, an unknown param, a 403 or 5xx)
 * goes to the banner.
 */
export function submitErrorPlace(error: unknown, names: readonly string[]): SubmitErrorPlace {
  if (!(error instanceof ApiError) || error.status !== 400) return { at: "banner" };
  const field = error.details.field;
  if (typeof field !== "string") return { at: "banner" };
  if (field === "cluster") return { at: "cluster" };
  const match = /^params\.([^.[]+)/.exec(field);
  if (match && names.includes(match[1]!)) return { at: "param", name: match[1]! };
  return { at: "banner" };
}

/** The form library's `extraErrors` for a message next to param `name`. */
export function paramErrors(name: string, message: string): ErrorSchema<ParamsFormData> {
  return { [name]: { __errors: [message] } } as ErrorSchema<ParamsFormData>;
}

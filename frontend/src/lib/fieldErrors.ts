// A refused form's errors, each for its field, in plain words. The API's 400 names its fields by
// path (`details.field`: "params.features.alarms_topic", "scope.topics[1].partitions") and, when
// it found several problems, lists them all in `details.errors` (a {path: message} map, or DRF's
// nested {field: [messages]}); its messages start with the path ("params.topic: topic 'x' does
// not exist."). Here: every problem as {path, message}, the message without the path prefix and
// with any other path in it said as the field's name; and the plain sentence for a JSON Schema
// keyword a form checks in the browser.
import { ApiError } from "../api/client";
import { isRecord } from "./isRecord";

/** One problem with one field: `path` as the API names it ("" for the request as a whole). */
export interface FieldProblem {
  path: string;
  message: string;
}

/** "params.partitions[0].offset" → ["params", "partitions", 0, "offset"]. */
export function parsePath(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const part of path.split(".")) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) {
      out.push(part);
      continue;
    }
    if (m[1]) out.push(m[1]);
    for (const index of m[2]!.matchAll(/\[(\d+)\]/g)) out.push(Number(index[1]));
  }
  return out;
}

/** ["params", "partitions", 0] → "params.partitions[0]". */
export function joinPath(parts: readonly (string | number)[]): string {
  return parts.reduce<string>(
    (path, part) => (typeof part === "number" ? `${path}[${part}]` : path ? `${path}.${part}` : part),
    "",
  );
}

/** "start_offset" → "Start offset", "alarms_topic" → "Alarms topic". */
export function fieldWords(name: string): string {
  const words = name.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The name of a field path as a person says it: its last named part ("params.features.start_time"
 * → "Start time"). */
export function pathWords(path: string): string {
  const names = parsePath(path).filter((p): p is string => typeof p === "string" && !/^\d+$/.test(p));
  return fieldWords(names[names.length - 1] ?? path);
}

const PATH = String.raw`[A-Za-z_]\w*(?:\.\w+|\[\d+\])*`;
const LEADING_PATH = new RegExp(String.raw`^(${PATH}):\s+`);
const PARAMS_PATH = new RegExp(String.raw`\bparams\.(${PATH})`, "g");

/**
 * What a person should read of an API message about field `path`: without the leading
 * "params.features.end_time: " (the field is beside it), other params paths said as their names
 * (“Start time”), the first letter capital. Messages about the request as a whole keep a prefix
 * that is no field path.
 */
export function plainMessage(message: string, path?: string): string {
  let text = message.trim();
  const lead = LEADING_PATH.exec(text);
  if (lead && (lead[1] === path || /[.[]/.test(lead[1]!) || (path !== undefined && path.endsWith(`.${lead[1]}`)))) {
    text = text.slice(lead[0].length);
  }
  text = text.replace(PARAMS_PATH, (_, rest: string) => `“${pathWords(rest)}”`);
  text = plainJsonSchemaMessage(text);
  return /^[a-z]/.test(text) ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

const TYPE_WORDS: Record<string, string> = {
  integer: "a whole number",
  number: "a number",
  string: "text",
  boolean: "true or false",
  array: "a list",
  object: "a group of fields",
  null: "empty",
};

/** The server's JSON Schema messages (Python jsonschema) in plain words; others as they are. */
function plainJsonSchemaMessage(text: string): string {
  const rules: [RegExp, (m: RegExpExecArray) => string][] = [
    [/^'[^']*' is a required property\.?$/, () => "Required."],
    [/^.+ is less than the minimum of (.+?)\.?$/, (m) => `Must be at least ${m[1]}.`],
    [/^.+ is greater than the maximum of (.+?)\.?$/, (m) => `Must be at most ${m[1]}.`],
    [/^.+ is less than or equal to the minimum of (.+?)\.?$/, (m) => `Must be more than ${m[1]}.`],
    [/^.+ is greater than or equal to the maximum of (.+?)\.?$/, (m) => `Must be less than ${m[1]}.`],
    [/^.+ is not of type '(\w+)'\.?$/, (m) => `Must be ${TYPE_WORDS[m[1]!] ?? m[1]}.`],
    [/^'' is too short\.?$/, () => "Required."],
    [/^\[\] (?:is too short|should be non-empty)\.?$/, () => "Give at least one."],
  ];
  for (const [pattern, say] of rules) {
    const m = pattern.exec(text);
    if (m) return say(m);
  }
  return text;
}

/** Every message of a DRF validation detail (nested {field: [messages]} or a {path: message} map). */
function flatten(detail: unknown, path: string, out: FieldProblem[]): void {
  if (typeof detail === "string") {
    out.push({ path, message: detail });
  } else if (Array.isArray(detail)) {
    if (detail.every((d) => typeof d === "string")) {
      for (const d of detail as string[]) out.push({ path, message: d });
    } else {
      detail.forEach((item, index) => flatten(item, `${path}[${index}]`, out));
    }
  } else if (isRecord(detail)) {
    for (const [key, value] of Object.entries(detail)) {
      const sub = key === "non_field_errors" ? path : /^\d+$/.test(key) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      flatten(value, sub, out);
    }
  }
}

/**
 * Every field problem of a refused request, in plain words: all of `details.errors` when the
 * answer lists them, else the one `details.field` names. [] for anything but a 400 (or a 400
 * that names no field).
 */
export function fieldProblems(error: unknown): FieldProblem[] {
  if (!(error instanceof ApiError) || error.status !== 400) return [];
  const listed: FieldProblem[] = [];
  flatten(error.details.errors, "", listed);
  const field = typeof error.details.field === "string" ? error.details.field : "";
  const problems = listed.length > 0 ? listed : field ? [{ path: field, message: error.message }] : [];
  return problems.map((p) => ({ path: p.path, message: plainMessage(p.message, p.path) }));
}

/** The sentence for a JSON Schema keyword the form checks in the browser (`params`: the keyword's
 * values, as Ajv gives them). */
export function schemaKeywordMessage(keyword: string, params: Record<string, unknown> = {}, fallback = ""): string {
  const limit = params.limit;
  switch (keyword) {
    case "required":
      return "Required.";
    case "minimum":
      return `Must be at least ${limit}.`;
    case "maximum":
      return `Must be at most ${limit}.`;
    case "exclusiveMinimum":
      return `Must be more than ${limit}.`;
    case "exclusiveMaximum":
      return `Must be less than ${limit}.`;
    case "type": {
      const types = Array.isArray(params.type) ? params.type : String(params.type ?? "").split(",");
      const words = types.map((t) => TYPE_WORDS[String(t)] ?? String(t)).filter(Boolean);
      return `Must be ${words.join(" or ")}.`;
    }
    case "minLength":
      return Number(limit) <= 1 ? "Required." : `Must be at least ${limit} characters.`;
    case "maxLength":
      return `Must be at most ${limit} characters.`;
    case "pattern":
      return patternMessage(String(params.pattern ?? ""));
    case "enum": {
      const allowed = Array.isArray(params.allowedValues) ? params.allowedValues : [];
      return `Must be one of: ${allowed.map((v) => String(v)).join(", ")}.`;
    }
    case "const":
      return `Must be ${JSON.stringify(params.allowedValue)}.`;
    case "minItems":
      return Number(limit) <= 1 ? "Give at least one." : `Give at least ${limit}.`;
    case "maxItems":
      return `Give at most ${limit}.`;
    case "uniqueItems":
      return "Each value only once.";
    case "additionalProperties":
      return `Unknown field${params.additionalProperty ? ` “${params.additionalProperty}”` : ""}.`;
    case "anyOf":
    case "oneOf":
      return "Does not fit any of the choices.";
    case "format":
      return params.format === "date-time"
        ? "Must be a date and time with its zone, e.g. 2026-11-21T10:03:12Z."
        : params.format === "date"
          ? "Must be a date: YYYY-MM-DD."
          : `Must be a valid ${params.format}.`;
    default: {
      const text = fallback.trim();
      return /^[a-z]/.test(text) ? `${text.charAt(0).toUpperCase()}${text.slice(1)}.` : text;
    }
  }
}

const CLASS_PARTS: [string, string][] = [
  ["A-Za-z", "letters"],
  ["a-zA-Z", "letters"],
  ["A-Z", "capital letters"],
  ["a-z", "small letters"],
  ["0-9", "digits"],
  ["\\d", "digits"],
];

/**
 * A `pattern` said in words where it is a plain character class ("^[A-Za-z0-9._-]+$": “Use only
 * letters, digits, “.”, “_” and “-”.”); "^\d{4}-\d{2}-\d{2}$" as its format; others quoted.
 */
export function patternMessage(pattern: string): string {
  if (pattern === "^\\d{4}-\\d{2}-\\d{2}$") return "Must be a date: YYYY-MM-DD.";
  const m = /^\^\[([^\]^]+)\][+*]\$$/.exec(pattern);
  if (!m) return `Must have the form ${pattern}.`;
  let rest = m[1]!;
  const words: string[] = [];
  for (const [part, word] of CLASS_PARTS) {
    if (rest.includes(part)) {
      words.push(word);
      rest = rest.replace(part, "");
    }
  }
  for (const ch of rest.replace(/\\(.)/g, "$1")) words.push(`“${ch}”`);
  const list = words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}` : words[0] ?? "";
  return `Use only ${list}.`;
}

// A JSON Schema check that compiles nothing (Ajv generates JavaScript, which the console's CSP
// forbids; see components/sparkJobs/formValidator.ts): it reads the schema as it walks the data and
// reports every problem at once, each at its field's path, in plain words. It knows the keywords
// the job types' params schemas use (type, enum, const, bounds, lengths, pattern, items, required,
// properties, additionalProperties, propertyNames, anyOf / oneOf / allOf, local $ref) and leaves
// the rest (formats, ...) to the server, which checks everything again: a value this passes may
// still be refused there, never the other way round.
import { schemaKeywordMessage } from "./fieldErrors";
import { isRecord } from "./isRecord";

export type SchemaPath = (string | number)[];

export interface SchemaProblem {
  /** Where in the data: ["features", "windows", 0]. */
  path: SchemaPath;
  /** The keyword the value breaks ("required", "maximum", ...). */
  keyword: string;
  params: Record<string, unknown>;
  /** In plain words ("Must be at most 1000."). */
  message: string;
}

type Schema = Record<string, unknown>;

/** Whether `value` is of the JSON Schema `type` ("integer", "object", ...); an unknown type: yes. */
export function matchesType(type: string, value: unknown): boolean {
  switch (type) {
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return isRecord(value);
    case "null":
      return value === null;
    default:
      return true;
  }
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => equal(x, (b as unknown[])[i]));
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return ka.length === kb.length && ka.every((k) => equal((a as Schema)[k], (b as Schema)[k]));
}

const patterns = new Map<string, RegExp | null>();

/** The pattern as a RegExp (Unicode mode, as JSON Schema says), or null when it does not compile
 * here: then the server alone checks it. */
function regex(pattern: string): RegExp | null {
  if (!patterns.has(pattern)) {
    let compiled: RegExp | null = null;
    try {
      compiled = new RegExp(pattern, "u");
    } catch {
      try {
        compiled = new RegExp(pattern);
      } catch {
        compiled = null;
      }
    }
    patterns.set(pattern, compiled);
  }
  return patterns.get(pattern) ?? null;
}

function resolve(ref: string, root: Schema): Schema | null {
  if (!ref.startsWith("#/")) return null;
  let node: unknown = root;
  for (const part of ref.slice(2).split("/")) {
    if (!isRecord(node)) return null;
    node = node[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return isRecord(node) ? node : null;
}

function problem(path: SchemaPath, keyword: string, params: Record<string, unknown> = {}): SchemaProblem {
  return { path, keyword, params, message: schemaKeywordMessage(keyword, params) };
}

function walk(schema: unknown, value: unknown, path: SchemaPath, root: Schema, out: SchemaProblem[], depth: number): void {
  if (!isRecord(schema) || value === undefined || depth > 64) return;
  if (typeof schema.$ref === "string") {
    const target = resolve(schema.$ref, root);
    if (target) walk(target, value, path, root, out, depth + 1);
  }
  if (Array.isArray(schema.allOf)) for (const sub of schema.allOf) walk(sub, value, path, root, out, depth + 1);
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (!Array.isArray(options) || options.length === 0) continue;
    const results = options.map((option) => {
      const found: SchemaProblem[] = [];
      walk(option, value, path, root, found, depth + 1);
      return found;
    });
    if (results.some((r) => r.length === 0)) continue;
    // No branch fits: the problems of the branch of the value's type, else the choice as a whole.
    const typed = options
      .map((option, i) => ({ option, problems: results[i]! }))
      .filter(({ problems }) => !problems.some((p) => p.keyword === "type" && p.path.length === path.length));
    if (typed.length === 1) out.push(...typed[0]!.problems);
    else out.push(problem(path, key));
  }

  if (schema.type !== undefined) {
    const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).map(String);
    if (!types.some((t) => matchesType(t, value))) {
      out.push(problem(path, "type", { type: types.join(",") }));
      return;
    }
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => equal(e, value))) {
    out.push(problem(path, "enum", { allowedValues: schema.enum }));
  }
  if (schema.const !== undefined && !equal(schema.const, value)) {
    out.push(problem(path, "const", { allowedValue: schema.const }));
  }

  if (typeof value === "number") {
    if (typeof schema.minimum === "number" && value < schema.minimum) out.push(problem(path, "minimum", { limit: schema.minimum }));
    if (typeof schema.maximum === "number" && value > schema.maximum) out.push(problem(path, "maximum", { limit: schema.maximum }));
    if (typeof schema.exclusiveMinimum === "number" && value <= schema.exclusiveMinimum) {
      out.push(problem(path, "exclusiveMinimum", { limit: schema.exclusiveMinimum }));
    }
    if (typeof schema.exclusiveMaximum === "number" && value >= schema.exclusiveMaximum) {
      out.push(problem(path, "exclusiveMaximum", { limit: schema.exclusiveMaximum }));
    }
  }

  if (typeof value === "string") {
    const length = [...value].length;
    if (typeof schema.minLength === "number" && length < schema.minLength) out.push(problem(path, "minLength", { limit: schema.minLength }));
    if (typeof schema.maxLength === "number" && length > schema.maxLength) out.push(problem(path, "maxLength", { limit: schema.maxLength }));
    if (typeof schema.pattern === "string") {
      const re = regex(schema.pattern);
      if (re && !re.test(value)) out.push(problem(path, "pattern", { pattern: schema.pattern }));
    }
  }

  if (Array.isArray(value)) {
    if (typeof schema.minItems === "number" && value.length < schema.minItems) out.push(problem(path, "minItems", { limit: schema.minItems }));
    if (typeof schema.maxItems === "number" && value.length > schema.maxItems) out.push(problem(path, "maxItems", { limit: schema.maxItems }));
    if (schema.uniqueItems === true && value.some((item, i) => value.findIndex((other) => equal(other, item)) !== i)) {
      out.push(problem(path, "uniqueItems"));
    }
    if (isRecord(schema.items)) value.forEach((item, i) => walk(schema.items, item, [...path, i], root, out, depth + 1));
  }

  if (isRecord(value)) {
    const properties = isRecord(schema.properties) ? schema.properties : {};
    if (Array.isArray(schema.required)) {
      for (const key of schema.required) {
        if (typeof key === "string" && value[key] === undefined) out.push(problem([...path, key], "required", { missingProperty: key }));
      }
    }
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      if (key in properties) {
        walk(properties[key], item, [...path, key], root, out, depth + 1);
      } else if (schema.additionalProperties === false) {
        out.push(problem([...path, key], "additionalProperties", { additionalProperty: key }));
      } else if (isRecord(schema.additionalProperties)) {
        walk(schema.additionalProperties, item, [...path, key], root, out, depth + 1);
      }
      if (isRecord(schema.propertyNames)) {
        const names: SchemaProblem[] = [];
        walk(schema.propertyNames, key, [...path, key], root, names, depth + 1);
        out.push(...names.map((p) => ({ ...p, message: `“${key}”: ${p.message}` })));
      }
    }
  }
}

/** Every problem of `data` against `schema`, in plain words, each at its path (none: []). */
export function checkSchema(schema: unknown, data: unknown): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  walk(schema, data, [], isRecord(schema) ? schema : {}, out, 0);
  // One message per field and keyword (anyOf branches may repeat one).
  const seen = new Set<string>();
  return out.filter((p) => {
    const key = `${JSON.stringify(p.path)}|${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

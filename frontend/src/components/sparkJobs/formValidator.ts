// The validator the Spark job form uses. Ajv (@rjsf/validator-ajv8) compiles each schema into
// JavaScript with `new Function`, which the console's Content-Security-Policy (`script-src
// 'self'`, no 'unsafe-eval'; project/settings.py) forbids in the browser. So: where compiling is
// allowed (tests, a dev server without the CSP), the form checks the params against the schema
// before sending; where it is not, it leaves every check to the server, whose 400 names the field
// and is shown next to it (the server checks everything anyway, and more: the topic exists, the
// range is in order). The form library also asks its validator which `anyOf` branch some data
// fits (e.g. one offset or one per partition); the server-checked mode answers that from the
// schema's types alone, without compiling anything.
import { deepEquals, type RJSFSchema, type ValidatorType } from "@rjsf/utils";
import ajv8Validator from "@rjsf/validator-ajv8";

type Schema = RJSFSchema;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasType(type: unknown, value: unknown): boolean {
  switch (type) {
    case "integer":
      return Number.isInteger(value);
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

const subschemas = (list: unknown): Schema[] => (Array.isArray(list) ? list.filter(isRecord) : []) as Schema[];

/**
 * Whether `value` has the shape `schema` describes: types, `const` / `enum`, required keys and the
 * known properties' shapes, through `anyOf` / `oneOf` / `allOf`. No bounds, patterns or formats:
 * enough to tell an `anyOf` branch apart, never a verdict on what is sent.
 */
export function fitsShape(schema: Schema, value: unknown): boolean {
  if (schema.anyOf && !subschemas(schema.anyOf).some((s) => fitsShape(s, value))) return false;
  if (schema.oneOf && !subschemas(schema.oneOf).some((s) => fitsShape(s, value))) return false;
  if (schema.allOf && !subschemas(schema.allOf).every((s) => fitsShape(s, value))) return false;
  if (schema.const !== undefined && !deepEquals(schema.const, value)) return false;
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => deepEquals(e, value))) return false;
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => hasType(t, value))) return false;
  }
  if (isRecord(value)) {
    if (Array.isArray(schema.required) && !schema.required.every((key) => key in value)) return false;
    const properties = isRecord(schema.properties) ? schema.properties : {};
    for (const [key, property] of Object.entries(properties)) {
      if (key in value && isRecord(property) && !fitsShape(property as Schema, value[key])) return false;
    }
  }
  return true;
}

/** Leaves validation to the server (nothing is flagged in the browser); tells anyOf branches apart
 * by shape. */
export const serverCheckedValidator: ValidatorType = {
  validateFormData: () => ({ errors: [], errorSchema: {} }),
  isValid: (schema, formData) => fitsShape(schema, formData),
  rawValidation: () => ({ errors: undefined, validationError: undefined }),
};

/** Whether this page may compile JavaScript at run time (the CSP allows 'unsafe-eval'). Asked once;
 * in a browser that refuses, the refusal is logged once as a CSP violation. */
export function canCompileValidators(): boolean {
  try {
    return new Function("return true")() === true;
  } catch {
    return false;
  }
}

let compiles: boolean | null = null;

/** Ajv's full check where it can run (or `inBrowser` says so), the server's check otherwise. */
export function formValidator(inBrowser?: boolean): ValidatorType {
  compiles ??= canCompileValidators();
  return (inBrowser ?? compiles) ? ajv8Validator : serverCheckedValidator;
}

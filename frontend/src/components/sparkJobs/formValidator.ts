// The validator the Spark job form uses. Ajv (@rjsf/validator-ajv8) compiles each schema into
// JavaScript with `new Function`, which the console's Content-Security-Policy (`script-src
// 'self'`, no 'unsafe-eval'; project/settings.py) forbids in the browser. So: where compiling is
// allowed (tests, a dev server without the CSP), the form checks the params with Ajv; where it is
// not, with lib/schemaCheck, which reads the schema as it walks the data and compiles nothing.
// Either way every problem shows at once, each beside its field, in plain words (ajvPlainErrors
// words Ajv's messages as schemaCheck does); the server checks everything again, and more (the
// topic exists, the range is in order), and its 400 is shown beside the field it names too.
// The form library also asks its validator which `anyOf` branch some data fits (e.g. one offset
// or one per partition); the interpreting validator answers that from the schema's types alone.
import { deepEquals, ErrorSchemaBuilder, type RJSFSchema, type RJSFValidationError, type ValidatorType } from "@rjsf/utils";
import ajv8Validator from "@rjsf/validator-ajv8";
import { schemaKeywordMessage } from "../../lib/fieldErrors";
import { isRecord } from "../../lib/isRecord";
import { checkSchema, matchesType } from "../../lib/schemaCheck";

type Schema = RJSFSchema;

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
    if (!types.some((t) => matchesType(String(t), value))) return false;
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

/** Checks the form's data with lib/schemaCheck (nothing compiled: the CSP holds), every problem at
 * its field; tells anyOf branches apart by shape. */
export const interpretingValidator: ValidatorType = {
  // Its messages are plain words already (no transformErrors), and the form has no customValidate.
  validateFormData: (formData, schema) => {
    const problems = checkSchema(schema, formData ?? {});
    const errors: RJSFValidationError[] = problems.map((p) => {
      const property = p.path.length ? `.${p.path.join(".")}` : "";
      return { name: p.keyword, property, message: p.message, params: p.params, stack: `${property || "form"}: ${p.message}`, schemaPath: "" };
    });
    const builder = new ErrorSchemaBuilder();
    for (const p of problems) builder.addErrors(p.message, p.path.length ? p.path.map(String) : undefined);
    return { errors, errorSchema: builder.ErrorSchema };
  },
  isValid: (schema, formData) => fitsShape(schema, formData),
  rawValidation: () => ({ errors: undefined, validationError: undefined }),
};

/** Ajv's errors in the words schemaCheck uses ("Must be at most 1000.", "Required."). */
export function ajvPlainErrors(errors: RJSFValidationError[]): RJSFValidationError[] {
  return errors.map((error) => {
    const message = schemaKeywordMessage(error.name ?? "", (error.params ?? {}) as Record<string, unknown>, error.message ?? "");
    return { ...error, message, stack: `${error.property || "form"}: ${message}` };
  });
}

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

/** Ajv's check where it can compile (or `compile` says so), the interpreting one otherwise. */
export function formValidator(compile?: boolean): ValidatorType {
  compiles ??= canCompileValidators();
  return (compile ?? compiles) ? ajv8Validator : interpretingValidator;
}

import { createSchemaUtils, type RJSFSchema } from "@rjsf/utils";
import { describe, expect, it } from "vitest";
import { formSchema } from "../../lib/sparkForm";
import { SPARK_JOB_TYPES } from "../../test/sparkFixtures";
import { ajvPlainErrors, canCompileValidators, fitsShape, formValidator, interpretingValidator } from "./formValidator";

const schema = formSchema(SPARK_JOB_TYPES.find((t) => t.name === "topic-export")!.params_schema);
const offsetOptions = ((schema.properties as Record<string, RJSFSchema>).start_offset!.anyOf ?? []) as RJSFSchema[];

describe("formValidator", () => {
  it("uses Ajv where the page may compile (here), the interpreting check when told", () => {
    expect(canCompileValidators()).toBe(true);
    expect(formValidator()).not.toBe(interpretingValidator);
    expect(formValidator(false)).toBe(interpretingValidator);
  });

  it("checks everything at once without compiling (the production CSP), each problem at its field in plain words", () => {
    const profile = formSchema(SPARK_JOB_TYPES.find((t) => t.name === "topic-profile")!.params_schema);
    const result = interpretingValidator.validateFormData({ top_duplicates: 5000, partitions: [1, 1] }, profile);
    expect(result.errorSchema).toMatchObject({
      topic: { __errors: ["Required."] },
      top_duplicates: { __errors: ["Must be at most 1000."] },
      partitions: { __errors: ["Each value only once."] },
    });
    expect(result.errors.map((e) => e.property).sort()).toEqual([".partitions", ".top_duplicates", ".topic"]);
    const names = interpretingValidator.validateFormData({ topic: "bad name!" }, profile);
    expect(names.errorSchema).toEqual({ topic: { __errors: ["Use only letters, digits, “.”, “_” and “-”."] } });
    expect(interpretingValidator.validateFormData({ topic: "orders", top_duplicates: 20 }, profile).errors).toEqual([]);
  });

  it("words Ajv's errors as the interpreting check does", () => {
    const [plain] = ajvPlainErrors([
      { name: "maximum", property: ".top_duplicates", message: "must be <= 1000", params: { comparison: "<=", limit: 1000 }, stack: "", schemaPath: "" },
    ]);
    expect(plain).toMatchObject({ property: ".top_duplicates", message: "Must be at most 1000." });
  });

  it("tells anyOf branches apart by shape, as the form library asks (one offset or one per partition)", () => {
    const utils = createSchemaUtils(interpretingValidator, schema);
    expect(utils.getClosestMatchingOption(5, offsetOptions, 1)).toBe(0);
    expect(utils.getClosestMatchingOption({ "0": 10, "3": 2 }, offsetOptions, 0)).toBe(1);
    // Nothing typed yet: the branch the user chose stays.
    expect(utils.getClosestMatchingOption(undefined, offsetOptions, 1)).toBe(1);
  });

  it("checks types, const, enum, required and known properties through anyOf/allOf", () => {
    expect(fitsShape({ type: ["string", "null"] }, null)).toBe(true);
    expect(fitsShape({ type: "integer" }, 1.5)).toBe(false);
    expect(fitsShape({ enum: ["partition", "key"] }, "key")).toBe(true);
    expect(fitsShape({ const: [1, 2] }, [1, 2])).toBe(true);
    expect(fitsShape({ type: "object", required: ["topic"] }, {})).toBe(false);
    expect(fitsShape({ type: "object", properties: { n: { type: "number" } } }, { n: "x" })).toBe(false);
    expect(fitsShape({ anyOf: [{ type: "integer" }, { type: "object" }] }, "x")).toBe(false);
    expect(fitsShape({ allOf: [{ type: "object" }, { anyOf: [{ required: ["a"] }] }] }, { a: 1 })).toBe(true);
  });
});

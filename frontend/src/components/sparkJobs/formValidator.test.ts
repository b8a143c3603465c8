import { createSchemaUtils, type RJSFSchema } from "@rjsf/utils";
import { describe, expect, it } from "vitest";
import { formSchema } from "../../lib/sparkForm";
import { SPARK_JOB_TYPES } from "../../test/sparkFixtures";
import { canCompileValidators, fitsShape, formValidator, serverCheckedValidator } from "./formValidator";

const schema = formSchema(SPARK_JOB_TYPES.find((t) => t.name === "topic-export")!.params_schema);
const offsetOptions = ((schema.properties as Record<string, RJSFSchema>).start_offset!.anyOf ?? []) as RJSFSchema[];

describe("formValidator", () => {
  it("uses Ajv where the page may compile (here), the server's check when told", () => {
    expect(canCompileValidators()).toBe(true);
    expect(formValidator()).not.toBe(serverCheckedValidator);
    expect(formValidator(false)).toBe(serverCheckedValidator);
  });

  it("flags nothing in server-checked mode: the server's 400 is the verdict", () => {
    const result = serverCheckedValidator.validateFormData({ topic: "bad name!", top_duplicates: -1 }, schema);
    expect(result.errors).toEqual([]);
  });

  it("tells anyOf branches apart by shape, as the form library asks (one offset or one per partition)", () => {
    const utils = createSchemaUtils(serverCheckedValidator, schema);
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

import { describe, expect, it } from "vitest";
import { checkSchema } from "./schemaCheck";

const SCHEMA = {
  type: "object",
  required: ["topic", "training"],
  additionalProperties: false,
  properties: {
    topic: { type: "string", minLength: 1, maxLength: 249, pattern: "^[A-Za-z0-9._-]+$" },
    top: { type: "integer", minimum: 1, maximum: 1000 },
    partitions: { type: "array", items: { type: "integer", minimum: 0 }, uniqueItems: true },
    offset: {
      anyOf: [
        { type: "integer", minimum: 0 },
        { type: "object", propertyNames: { pattern: "^\\d+$" }, additionalProperties: { type: "integer", minimum: 0 } },
      ],
    },
    training: {
      type: "object",
      required: ["cutoff_date"],
      properties: { cutoff_date: { type: "string" }, ratio: { type: "number", exclusiveMinimum: 0 }, algo: { enum: ["gbt", "rf"] } },
    },
    ref: { $ref: "#/$defs/small" },
  },
  $defs: { small: { type: "integer", maximum: 3 } },
};

const at = (data: unknown) => Object.fromEntries(checkSchema(SCHEMA, data).map((p) => [p.path.join("."), p.message]));

describe("checkSchema", () => {
  it("passes what the schema allows", () => {
    expect(checkSchema(SCHEMA, { topic: "orders", training: { cutoff_date: "2026-06-08" }, offset: { "0": 5 } })).toEqual([]);
  });

  it("reports every problem at once, each at its path, in plain words", () => {
    expect(
      at({
        topic: "bad name!",
        top: 5000,
        partitions: [1, -1, 1],
        offset: { x: -2 },
        training: { ratio: 0, algo: "svm" },
        ref: 9,
        extra: true,
      }),
    ).toEqual({
      topic: "Use only letters, digits, “.”, “_” and “-”.",
      top: "Must be at most 1000.",
      partitions: "Each value only once.",
      "partitions.1": "Must be at least 0.",
      "offset.x": expect.stringMatching(/Must be at least 0\.|“x”: Must have the form/),
      "training.cutoff_date": "Required.",
      "training.ratio": "Must be more than 0.",
      "training.algo": "Must be one of: gbt, rf.",
      ref: "Must be at most 3.",
      extra: "Unknown field “extra”.",
    });
  });

  it("reports a wrong type once, and the choice when no branch of anyOf fits", () => {
    expect(at({ topic: 5, training: {} })).toMatchObject({ topic: "Must be text.", "training.cutoff_date": "Required." });
    expect(at({ topic: "t", training: { cutoff_date: "d" }, offset: -1 })).toEqual({ offset: "Must be at least 0." });
    expect(at({ topic: "t", training: { cutoff_date: "d" }, offset: "x" })).toEqual({ offset: "Does not fit any of the choices." });
    expect(at({ training: { cutoff_date: "d" } })).toEqual({ topic: "Required." });
  });
});

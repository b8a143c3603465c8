import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import { fieldProblems, joinPath, parsePath, pathWords, patternMessage, plainMessage, schemaKeywordMessage } from "./fieldErrors";

const bad = (message: string, details: Record<string, unknown>, status = 400) => new ApiError(status, "invalid", message, details);

describe("parsePath / joinPath", () => {
  it("splits a field path into names and list indexes, and back", () => {
    expect(parsePath("params.partitions[0].offset")).toEqual(["params", "partitions", 0, "offset"]);
    expect(parsePath("scope.topics[1].partitions")).toEqual(["scope", "topics", 1, "partitions"]);
    expect(joinPath(["params", "partitions", 0, "offset"])).toBe("params.partitions[0].offset");
    expect(pathWords("params.features.start_time")).toBe("Start time");
    expect(pathWords("params.start_offset.3")).toBe("Start offset");
  });
});

describe("plainMessage", () => {
  it("drops the path in front and names other fields in words", () => {
    expect(plainMessage("params.features.alarms_topic: topic 'x' holds no records.", "params.features.alarms_topic")).toBe(
      "Topic 'x' holds no records.",
    );
    expect(plainMessage("params.end_time: is before params.start_time.", "params.end_time")).toBe("Is before “Start time”.");
    expect(plainMessage("strategy.offset: must be a whole number.", "strategy.offset")).toBe("Must be a whole number.");
    expect(plainMessage("name: 'bad name!' has characters Kafka does not allow.", "name")).toBe(
      "'bad name!' has characters Kafka does not allow.",
    );
    expect(plainMessage("replication_factor: 3 is more than the 2 live brokers.", "replication_factor")).toBe(
      "3 is more than the 2 live brokers.",
    );
    // A prefix that is no field path of this error stays.
    expect(plainMessage("Note: the topic is new.", "name")).toBe("Note: the topic is new.");
  });

  it("says the server's JSON Schema messages in plain words", () => {
    expect(plainMessage("params.topic: 'topic' is a required property", "params.topic")).toBe("Required.");
    expect(plainMessage("params.top_duplicates: 5000 is greater than the maximum of 1000", "params.top_duplicates")).toBe(
      "Must be at most 1000.",
    );
    expect(plainMessage("params.windows.0: 0 is less than the minimum of 1", "params.windows.0")).toBe("Must be at least 1.");
    expect(plainMessage("params.seed: 'x' is not of type 'integer'", "params.seed")).toBe("Must be a whole number.");
  });
});

describe("fieldProblems", () => {
  it("lists every problem of details.errors: a {path: message} map", () => {
    const error = bad("params.topic: unknown field (and 1 more)", {
      field: "params.topic",
      errors: { "params.topic": "unknown field.", "params.features.alarms_topic": "params.features.alarms_topic: must be text." },
    });
    expect(fieldProblems(error)).toEqual([
      { path: "params.topic", message: "Unknown field." },
      { path: "params.features.alarms_topic", message: "Must be text." },
    ]);
  });

  it("lists every problem of DRF's nested detail", () => {
    const error = bad("name: This field is required.", {
      field: "name",
      errors: { name: ["This field is required."], scope: { topics: [{}, { partitions: ["Not a list."] }] }, non_field_errors: ["Nope."] },
    });
    expect(fieldProblems(error)).toEqual([
      { path: "name", message: "This field is required." },
      { path: "scope.topics[1].partitions", message: "Not a list." },
      { path: "", message: "Nope." },
    ]);
  });

  it("falls back to details.field and the message; nothing for other answers", () => {
    expect(fieldProblems(bad("params.topic: topic 'x' does not exist.", { field: "params.topic" }))).toEqual([
      { path: "params.topic", message: "Topic 'x' does not exist." },
    ]);
    expect(fieldProblems(bad("Kafka did not answer.", {}, 504))).toEqual([]);
    expect(fieldProblems(bad("Bad.", {}))).toEqual([]);
    expect(fieldProblems(new Error("network"))).toEqual([]);
  });
});

describe("schemaKeywordMessage", () => {
  it("says each JSON Schema keyword in plain words", () => {
    expect(schemaKeywordMessage("required")).toBe("Required.");
    expect(schemaKeywordMessage("maximum", { limit: 1000 })).toBe("Must be at most 1000.");
    expect(schemaKeywordMessage("exclusiveMinimum", { limit: 0 })).toBe("Must be more than 0.");
    expect(schemaKeywordMessage("type", { type: "integer" })).toBe("Must be a whole number.");
    expect(schemaKeywordMessage("minLength", { limit: 1 })).toBe("Required.");
    expect(schemaKeywordMessage("enum", { allowedValues: ["gbt", "rf"] })).toBe("Must be one of: gbt, rf.");
    expect(schemaKeywordMessage("something", {}, "must be shiny")).toBe("Must be shiny.");
  });

  it("says a character-class pattern as the characters it allows", () => {
    expect(patternMessage("^[A-Za-z0-9._-]+$")).toBe("Use only letters, digits, “.”, “_” and “-”.");
    expect(patternMessage("^\\d{4}-\\d{2}-\\d{2}$")).toBe("Must be a date: YYYY-MM-DD.");
    expect(patternMessage("^(a|b)$")).toBe("Must have the form ^(a|b)$.");
  });
});

import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import { SPARK_JOB_TYPES } from "../test/sparkFixtures";
import { cleanParams, formSchema, formUiSchema, humanize, paramErrors, paramNames, submitErrorPlace } from "./sparkForm";

const profile = SPARK_JOB_TYPES.find((t) => t.name === "topic-profile")!.params_schema;
const replay = SPARK_JOB_TYPES.find((t) => t.name === "topic-replay")!.params_schema;

const bad = (field: unknown, status = 400) => new ApiError(status, "invalid", "no", field === undefined ? {} : { field });

describe("sparkForm", () => {
  it("drops the null alternatives and null defaults, and names every field and anyOf branch", () => {
    const schema = formSchema(profile);
    const props = schema.properties as Record<string, Record<string, unknown>>;
    expect(props.topic).toMatchObject({ type: "string", title: "Topic", pattern: "^[A-Za-z0-9._-]+$" });
    expect(props.partitions).toMatchObject({ type: "array", title: "Partitions", uniqueItems: true });
    expect(props.partitions).not.toHaveProperty("minItems");
    expect(props.partitions).not.toHaveProperty("default");
    expect(props.start_time).toMatchObject({ type: "string", maxLength: 64 });
    expect((props.start_offset!.anyOf as { title: string; type: string }[]).map((o) => [o.title, o.type])).toEqual([
      ["Same for every partition", "integer"],
      ["Per partition", "object"],
    ]);
    expect(props.top_duplicates).toMatchObject({ default: 20, maximum: 1000 });
    expect(schema.required).toEqual(["topic"]);
    expect(schema.additionalProperties).toBe(false);
    // The server's schema is left as it was.
    expect((profile.properties as Record<string, { type: unknown }>).partitions?.type).toEqual(["array", "null"]);
  });

  it("offers topics in the topic fields, shows the time format and keeps lists unordered", () => {
    const ui = formUiSchema(replay);
    expect(ui.topic).toEqual({ "ui:widget": "topic" });
    expect(ui.target_topic).toEqual({ "ui:widget": "topic" });
    expect(ui.start_time["ui:placeholder"]).toContain("2026-11-21T10:03:12Z");
    expect(ui.keys).toEqual({ "ui:options": { orderable: false }, items: { "ui:options": { label: false } } });
    expect(paramNames(replay)).toContain("preserve_partitions");
    expect(humanize("sequence_out_of_order")).toBe("Sequence out of order");
  });

  it("sends only the fields that hold something", () => {
    expect(
      cleanParams({ topic: "t", partitions: [], start_offset: {}, end_offset: 0, start_time: "", keys: undefined, top_duplicates: 20, x: null }),
    ).toEqual({ topic: "t", end_offset: 0, top_duplicates: 20 });
    expect(cleanParams(undefined)).toEqual({});
  });

  it("places a 400 at the field it names: the cluster, a param (nested paths at their param), else the banner", () => {
    const names = paramNames(profile);
    expect(submitErrorPlace(bad("cluster"), names)).toEqual({ at: "cluster" });
    expect(submitErrorPlace(bad("params.topic"), names)).toEqual({ at: "param", name: "topic" });
    expect(submitErrorPlace(bad("params.partitions[0]"), names)).toEqual({ at: "param", name: "partitions" });
    expect(submitErrorPlace(bad("params.start_offset.3"), names)).toEqual({ at: "param", name: "start_offset" });
    expect(submitErrorPlace(bad("params.x"), names)).toEqual({ at: "banner" });
    expect(submitErrorPlace(bad("params"), names)).toEqual({ at: "banner" });
    expect(submitErrorPlace(bad("job_type"), names)).toEqual({ at: "banner" });
    expect(submitErrorPlace(bad(undefined), names)).toEqual({ at: "banner" });
    expect(submitErrorPlace(bad("params.topic", 403), names)).toEqual({ at: "banner" });
    expect(submitErrorPlace(new Error("network"), names)).toEqual({ at: "banner" });
    expect(paramErrors("topic", "nope")).toEqual({ topic: { __errors: ["nope"] } });
  });
});

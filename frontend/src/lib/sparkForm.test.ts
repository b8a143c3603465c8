import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import { SPARK_JOB_TYPES } from "../test/sparkFixtures";
import {
  cleanParams,
  formSchema,
  formUiSchema,
  humanize,
  paramErrorSchema,
  paramNames,
  placeSubmitErrors,
  valueAt,
} from "./sparkForm";

const profile = SPARK_JOB_TYPES.find((t) => t.name === "topic-profile")!.params_schema;
const replay = SPARK_JOB_TYPES.find((t) => t.name === "topic-replay")!.params_schema;

const bad = (field: unknown, status = 400, message = "no") =>
  new ApiError(status, "invalid", message, field === undefined ? {} : { field });

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

  it("offers topics in the topic fields, a zoned date-time input for times and keeps lists unordered", () => {
    const ui = formUiSchema(replay);
    expect(ui.topic).toEqual({ "ui:widget": "topic" });
    expect(ui.target_topic).toEqual({ "ui:widget": "topic" });
    expect(ui.start_time).toEqual({ "ui:widget": "zonedDateTime" });
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

  it("places a 400 at the field it names: the cluster, a param (list items at their list), else the banner", () => {
    const schema = formSchema(profile);
    const at = (field: unknown, status = 400) => placeSubmitErrors(bad(field, status, `${String(field)}: it is wrong.`), schema);
    expect(at("cluster")).toMatchObject({ cluster: ["It is wrong."], params: [], banner: null });
    expect(at("params.topic")).toMatchObject({ cluster: [], params: [{ path: ["topic"], message: "It is wrong." }], banner: null });
    expect(at("params.partitions[0]").params).toEqual([{ path: ["partitions"], message: "item 1: It is wrong." }]);
    expect(at("params.start_offset.3").params).toEqual([{ path: ["start_offset"], message: "“3”: It is wrong." }]);
    for (const banner of ["params.x", "params", "job_type"]) {
      const placed = at(banner);
      expect(placed.params).toEqual([]);
      expect(placed.banner?.message).toBe("It is wrong.");
    }
    // Not a 400 naming a field: the banner, the error as it came.
    expect(placeSubmitErrors(bad(undefined), schema).banner?.message).toBe("no");
    expect(at("params.topic", 403).banner?.message).toBe("params.topic: it is wrong.");
    expect(placeSubmitErrors(new Error("network"), schema).banner?.message).toBe("network");
    expect(placeSubmitErrors(null, schema)).toEqual({ cluster: [], params: [], banner: null });
  });

  it("places every problem a 400 lists, nested params at their step's field", () => {
    const schema = {
      type: "object",
      properties: {
        features: { type: "object", properties: { alarms_topic: { type: "string" }, start_time: { type: "string" } } },
        labels: { type: "object", properties: { horizon_days: { type: "integer" } } },
      },
    } as const;
    const error = new ApiError(400, "invalid", "params.features.alarms_topic: topic 'x' holds no records. (and 2 more)", {
      field: "params.features.alarms_topic",
      errors: {
        "params.features.alarms_topic": "topic 'x' holds no records to learn from.",
        "params.features.start_time": "is after params.features.end_time.",
        "params.labels.horizon_days": "must be above 0.",
        job_type: "unknown job type.",
      },
    });
    const placed = placeSubmitErrors(error, schema);
    expect(placed.params).toEqual([
      { path: ["features", "alarms_topic"], message: "Topic 'x' holds no records to learn from." },
      { path: ["features", "start_time"], message: "Is after “End time”." },
      { path: ["labels", "horizon_days"], message: "Must be above 0." },
    ]);
    expect(placed.banner?.message).toBe("Unknown job type.");
    expect(paramErrorSchema(placed.params)).toEqual({
      features: { alarms_topic: { __errors: ["Topic 'x' holds no records to learn from."] }, start_time: { __errors: ["Is after “End time”."] } },
      labels: { horizon_days: { __errors: ["Must be above 0."] } },
    });
    expect(valueAt({ features: { start_time: "t" } }, ["features", "start_time"])).toBe("t");
    expect(valueAt({}, ["features", "start_time"])).toBeUndefined();
  });
});

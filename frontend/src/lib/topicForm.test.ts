import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import { checkNewTopic, placeTopicErrors } from "./topicForm";

const form = (change = {}) => ({ name: "events", partitions: "3", replicationFactor: "2", configs: [], ...change });

describe("checkNewTopic", () => {
  it("passes a topic Kafka would take", () => {
    expect(checkNewTopic(form({ configs: [{ key: "retention.ms", value: "1" }, { key: "", value: "" }] }))).toEqual({});
  });

  it("finds every problem at once, by field", () => {
    const errors = checkNewTopic(
      form({
        name: "bad name!",
        partitions: "0",
        replicationFactor: "x",
        configs: [
          { key: "retention.ms", value: "1" },
          { key: "", value: "2" },
          { key: "retention.ms", value: "3" },
        ],
      }),
    );
    expect(Object.keys(errors).sort()).toEqual(["config-1", "config-2", "name", "partitions", "replication_factor"]);
    expect(errors.name![0]).toContain("has characters Kafka does not allow");
    expect(checkNewTopic(form({ name: "" })).name).toEqual(["Give the topic a name."]);
    expect(checkNewTopic(form({ name: ".." })).name).toEqual(["A topic name cannot be “.” or “..”."]);
    expect(checkNewTopic(form({ name: "a".repeat(250) })).name![0]).toContain("at most 249 characters");
  });
});

describe("placeTopicErrors", () => {
  it("puts each problem the server lists beside its field, without the path", () => {
    const error = new ApiError(400, "invalid", "name: x", {
      field: "name",
      errors: { name: ["name: too long."], "configs.retention.ms": "bad value.", "configs.x": "unknown.", body: "odd." },
    });
    expect(placeTopicErrors(error, ["retention.ms"])).toMatchObject({
      fields: { name: ["Too long."], "config-0": ["Bad value."], configs: ["“x”: Unknown."] },
      banner: { message: "Odd." },
    });
  });

  it("puts a 409 at the name and anything else in the banner", () => {
    expect(placeTopicErrors(new ApiError(409, "topic_exists", "Topic 'a' already exists."), [])).toEqual({
      fields: { name: ["Topic 'a' already exists."] },
      banner: null,
    });
    const timeout = new ApiError(504, "kafka_timeout", "Kafka did not answer.");
    expect(placeTopicErrors(timeout, [])).toEqual({ fields: {}, banner: timeout });
  });
});

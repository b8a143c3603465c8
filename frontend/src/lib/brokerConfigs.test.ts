import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import {
  initialLevel,
  initialValue,
  isSetOnBroker,
  levelWords,
  refusalMessages,
  revertSentence,
  setSentence,
  shadowedNote,
} from "./brokerConfigs";

describe("broker config change sentences", () => {
  it("say what will be set where", () => {
    expect(setSentence("log.cleaner.backoff.ms", "20000", false, "broker", 1)).toBe("Set log.cleaner.backoff.ms = 20000 on broker 1");
    expect(setSentence("log.cleaner.backoff.ms", "20000", false, "cluster", 1)).toBe(
      "Set log.cleaner.backoff.ms = 20000 on all brokers (cluster-wide default)",
    );
    expect(levelWords("cluster", 3)).toBe("on all brokers (cluster-wide default)");
  });

  it("never show a sensitive value", () => {
    const sentence = setSentence("ssl.keystore.password", "s3cret", true, "broker", 2);
    expect(sentence).toBe("Set ssl.keystore.password = (hidden) on broker 2");
    expect(sentence).not.toContain("s3cret");
  });

  it("say what a revert deletes", () => {
    expect(revertSentence("log.cleaner.threads", "broker", 2)).toBe("Revert log.cleaner.threads on broker 2");
    expect(revertSentence("log.cleaner.threads", "cluster", 2)).toBe("Revert log.cleaner.threads on all brokers (cluster-wide default)");
  });

  it("warn when a cluster-wide value stays under the broker's own", () => {
    expect(shadowedNote({ source: "DYNAMIC_BROKER_CONFIG" }, "cluster", 2)).toMatch(/^Broker 2 has a value of its own/);
    expect(shadowedNote({ source: "DYNAMIC_BROKER_CONFIG" }, "broker", 2)).toBeNull();
    expect(shadowedNote({ source: "STATIC_BROKER_CONFIG" }, "cluster", 2)).toBeNull();
  });

  it("start an edit where the value was set, never with a sensitive value", () => {
    expect(initialLevel({ source: "DYNAMIC_DEFAULT_BROKER_CONFIG" })).toBe("cluster");
    expect(initialLevel({ source: "DYNAMIC_BROKER_CONFIG" })).toBe("broker");
    expect(initialLevel({ source: "DEFAULT_CONFIG" })).toBe("broker");
    expect(initialValue({ value: "2", sensitive: false })).toBe("2");
    expect(initialValue({ value: null, sensitive: false })).toBe("");
    expect(initialValue({ value: "leaked", sensitive: true })).toBe("");
    expect(isSetOnBroker({ source: "DYNAMIC_BROKER_CONFIG" })).toBe(true);
    expect(isSetOnBroker({ source: "DYNAMIC_DEFAULT_BROKER_CONFIG" })).toBe(false);
  });
});

describe("refusalMessages", () => {
  it("gives a 400's message without its field prefix, config names as written, and nothing for other failures", () => {
    const readOnly = new ApiError(400, "bad_input", "set: log.dirs cannot be changed while the broker runs.", { field: "set" });
    expect(refusalMessages(readOnly)).toEqual(["log.dirs cannot be changed while the broker runs."]);
    const empty = new ApiError(400, "bad_input", "set: give at least one config to set or delete.", { field: "set" });
    expect(refusalMessages(empty)).toEqual(["Give at least one config to set or delete."]);
    const unset = new ApiError(400, "bad_input", "delete: a.b, c.d not set dynamically on broker 1.", { field: "delete" });
    expect(refusalMessages(unset)).toEqual(["a.b, c.d not set dynamically on broker 1."]);
    expect(refusalMessages(new ApiError(400, "bad_input", "Nope."))).toEqual(["Nope."]);
    expect(refusalMessages(new ApiError(403, "forbidden", "Admins only."))).toBeNull();
    expect(refusalMessages(new Error("network"))).toBeNull();
  });
});

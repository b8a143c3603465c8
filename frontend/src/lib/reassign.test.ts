import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import type { BrokerDetail, PlanDocument, PlanMove } from "../api/types";
import { reassignmentCompleted, reassignmentMoving } from "../test/socketSamples.gen";
import {
  brokerTopics,
  buildPlanRequest,
  copiedFraction,
  electionCounts,
  filterPartitions,
  formatThrottle,
  inputsKey,
  isUnchanged,
  jsonDownloadHref,
  MAX_THROTTLE,
  MIB,
  moveSeconds,
  notPreferredLeaders,
  parsePlanJson,
  parseReplicaList,
  parseRequiredThrottle,
  parseThrottle,
  partitionFraction,
  placeReassignErrors,
  planCounts,
  presetForm,
  readReassignPreset,
  planFileText,
  reassignmentFraction,
  throttleInputText,
  topicsSummary,
  withReplicas,
  type PlanInputs,
} from "./reassign";

const INPUTS: PlanInputs = { mode: "topics", topics: [], brokers: [], rfTopic: "", rf: "", json: "", throttle: "" };

const DOC: PlanDocument = {
  version: 1,
  partitions: [
    { topic: "orders", partition: 0, replicas: [1, 2], log_dirs: ["/data/a", "/data/b"] },
    { topic: "orders", partition: 1, replicas: [2, 3], log_dirs: ["any", "any"] },
  ],
};

function move(over: Partial<PlanMove> = {}): PlanMove {
  return { topic: "orders", partition: 0, from: [1, 2], to: [2, 3], adding: [3], removing: [1], bytes: 10 * MIB, ...over };
}

describe("throttles in MiB/s", () => {
  it("reads MiB/s as whole bytes per second, empty as none, and refuses what the server would", () => {
    expect(parseThrottle("")).toEqual({ ok: true, value: null });
    expect(parseThrottle("  ")).toEqual({ ok: true, value: null });
    expect(parseThrottle("50")).toEqual({ ok: true, value: 50 * MIB });
    expect(parseThrottle("1.5")).toEqual({ ok: true, value: 1.5 * MIB });
    expect(parseThrottle(".5")).toEqual({ ok: true, value: MIB / 2 });
    expect(parseThrottle("10240")).toEqual({ ok: true, value: MAX_THROTTLE });
    for (const bad of ["-1", "abc", "1e3", "0", "0.0001", "10241"]) expect(parseThrottle(bad).ok).toBe(false);
    expect(parseRequiredThrottle("")).toMatchObject({ ok: false });
    expect(parseRequiredThrottle("2")).toEqual({ ok: true, value: 2 * MIB });
  });

  it("shows bytes/s back in MiB/s and in words", () => {
    expect(throttleInputText(null)).toBe("");
    expect(throttleInputText(1_048_576)).toBe("1");
    expect(throttleInputText(20_000_000)).toBe("19.073");
    expect(formatThrottle(null)).toBe("none");
    expect(formatThrottle(1_048_576)).toBe("1.00 MiB/s");
  });
});

describe("buildPlanRequest", () => {
  it("sends exactly the fields of the mode, sorted, with the throttle", () => {
    expect(buildPlanRequest({ ...INPUTS, topics: ["payments", "orders"], brokers: [3, 1], throttle: "1" })).toEqual({
      ok: true,
      body: { topics: ["orders", "payments"], brokers: [1, 3], throttle_bytes_per_s: MIB },
    });
    expect(buildPlanRequest({ ...INPUTS, mode: "rf", rfTopic: " orders ", rf: "3" })).toEqual({
      ok: true,
      body: { topic: "orders", replication_factor: 3, throttle_bytes_per_s: null },
    });
    expect(buildPlanRequest({ ...INPUTS, mode: "json", json: JSON.stringify(DOC) })).toEqual({
      ok: true,
      body: { plan: DOC, throttle_bytes_per_s: null },
    });
  });

  it("finds every problem before sending, by the API's field names", () => {
    const topics = buildPlanRequest({ ...INPUTS, throttle: "fast" });
    expect(topics.ok).toBe(false);
    if (!topics.ok) expect(Object.keys(topics.errors).sort()).toEqual(["brokers", "throttle_bytes_per_s", "topics"]);
    const rf = buildPlanRequest({ ...INPUTS, mode: "rf", rf: "0" });
    if (!rf.ok) expect(Object.keys(rf.errors).sort()).toEqual(["replication_factor", "topic"]);
    const json = buildPlanRequest({ ...INPUTS, mode: "json", json: '{"version": 1, "partitions": [' });
    expect(json.ok).toBe(false);
    if (!json.ok) expect(json.errors.plan?.[0]).toMatch(/^Not valid JSON/);
  });

  it("keys a preview by its mode's inputs, not the throttle", () => {
    const a = { ...INPUTS, topics: ["b", "a"], brokers: [2, 1] };
    expect(inputsKey(a)).toBe(inputsKey({ ...a, topics: ["a", "b"], brokers: [1, 2], throttle: "5", json: "x" }));
    expect(inputsKey(a)).not.toBe(inputsKey({ ...a, brokers: [1] }));
    expect(inputsKey(a)).not.toBe(inputsKey({ ...a, mode: "rf" }));
  });
});

describe("parsePlanJson", () => {
  it("takes an object with a partitions list, and says why anything else is refused", () => {
    expect(parsePlanJson(JSON.stringify(DOC))).toEqual({ ok: true, value: DOC });
    expect(parsePlanJson("")).toMatchObject({ ok: false, error: "Paste a plan, or load its file." });
    expect(parsePlanJson("{oops")).toMatchObject({ ok: false, error: expect.stringMatching(/^Not valid JSON: /) });
    expect(parsePlanJson("[1]")).toMatchObject({ ok: false, error: expect.stringContaining('"partitions"') });
    expect(parsePlanJson('{"version": 1}')).toMatchObject({ ok: false });
  });
});

describe("editing a plan's rows", () => {
  it("reads a broker list as typed", () => {
    expect(parseReplicaList("2, 3")).toEqual({ ok: true, value: [2, 3] });
    expect(parseReplicaList(" 3 1,2 ")).toEqual({ ok: true, value: [3, 1, 2] });
    expect(parseReplicaList("")).toMatchObject({ ok: false, error: "Give at least one broker id." });
    expect(parseReplicaList("1, x")).toMatchObject({ ok: false, error: "“x” is not a broker id." });
    expect(parseReplicaList("1, 2, 1")).toMatchObject({ ok: false, error: "Broker 1 is listed twice." });
  });

  it("replaces one partition's replicas, keeping the log dir of a broker that stays", () => {
    const edited = withReplicas(DOC, "orders", 0, [2, 4]);
    expect(edited.partitions[0]).toEqual({ topic: "orders", partition: 0, replicas: [2, 4], log_dirs: ["/data/b", "any"] });
    expect(edited.partitions[1]).toBe(DOC.partitions[1]);
    expect(DOC.partitions[0]!.replicas).toEqual([1, 2]);
  });

  it("tells unchanged partitions, counts what moves and times a move at the throttle", () => {
    expect(isUnchanged(move())).toBe(false);
    expect(isUnchanged(move({ from: [1, 2], to: [2, 1] }))).toBe(false);
    expect(isUnchanged(move({ to: [1, 2] }))).toBe(true);
    expect(moveSeconds(move(), MIB)).toBe(10);
    expect(moveSeconds(move({ bytes: 10 * MIB + 1 }), MIB)).toBe(11);
    expect(moveSeconds(move(), null)).toBeNull();
    expect(moveSeconds(move({ bytes: null }), MIB)).toBeNull();
    expect(moveSeconds(move({ adding: [], bytes: 0 }), null)).toBe(0);
    expect(planCounts([move(), move({ partition: 1, to: [1, 2] }), move({ topic: "audit" })])).toEqual({
      moving: 2,
      unchanged: 1,
      topics: 2,
    });
  });

  it("writes the document exactly as pretty JSON, as a download", () => {
    const text = planFileText(DOC);
    expect(JSON.parse(text)).toEqual(DOC);
    expect(text).toContain('\n  "version": 1,');
    const href = jsonDownloadHref(text);
    expect(href.startsWith("data:application/json;charset=utf-8,")).toBe(true);
    expect(decodeURIComponent(href.slice(href.indexOf(",") + 1))).toBe(text);
  });
});

describe("placeReassignErrors", () => {
  it("puts a 400 at its field without the field in front", () => {
    const error = new ApiError(400, "invalid", "plan: Unknown broker id 9 for orders-0: not a live broker (live: 1, 2, 3).", {
      field: "plan",
    });
    expect(placeReassignErrors(error)).toEqual({
      fields: { plan: ["Unknown broker id 9 for orders-0: not a live broker (live: 1, 2, 3)."] },
      banner: null,
    });
  });

  it("puts a 404 topic_not_found at its details.field", () => {
    const error = new ApiError(404, "topic_not_found", "topics: Topic nope not found.", { field: "topics" });
    expect(placeReassignErrors(error)).toEqual({ fields: { topics: ["Topic nope not found."] }, banner: null });
  });

  it("leaves a 409 and anything else to the banner", () => {
    const conflict = new ApiError(409, "reassignment_in_progress", "Cannot execute because there is an existing partition reassignment.");
    expect(placeReassignErrors(conflict)).toEqual({ fields: {}, banner: conflict });
    const unknownField = new ApiError(400, "invalid", "version: bad", { field: "version" });
    expect(placeReassignErrors(unknownField)).toMatchObject({ fields: {}, banner: { message: "Bad" } });
    expect(placeReassignErrors(null)).toEqual({ fields: {}, banner: null });
  });
});

describe("a reassignment's progress", () => {
  it("finds the partitions not led by their first target replica", () => {
    expect(notPreferredLeaders(reassignmentCompleted.partitions)).toEqual([{ topic: "orders", partition: 0 }]);
    // A partition without a leader is none of them.
    expect(notPreferredLeaders([{ ...reassignmentCompleted.partitions[0]!, leader: null }])).toEqual([]);
  });

  it("sums bytes, elections, topics and filters partitions", () => {
    expect(copiedFraction(reassignmentMoving.bytes_copied, reassignmentMoving.bytes_total)).toBeCloseTo(0.64);
    expect(copiedFraction(0, 0)).toBe(1);
    expect(copiedFraction(5, 4)).toBe(1);
    // Completed (done) is all copied, whatever the sizes say.
    expect(reassignmentFraction({ state: "completed", bytes_copied: 90, bytes_total: 100 })).toBe(1);
    expect(reassignmentFraction({ state: "cancelled", bytes_copied: 90, bytes_total: 100 })).toBe(0.9);
    expect(partitionFraction({ state: "done", bytes_copied: 1, bytes_total: 4 })).toBe(1);
    expect(partitionFraction({ state: "moving", bytes_copied: 1, bytes_total: 4 })).toBe(0.25);
    expect(
      electionCounts([
        { topic: "a", partition: 0, outcome: "elected", error: null },
        { topic: "a", partition: 1, outcome: "elected", error: null },
        { topic: "a", partition: 2, outcome: "failed", error: "x" },
      ]),
    ).toEqual({ elected: 2, not_needed: 0, failed: 1 });
    expect(topicsSummary(["a", "b"])).toBe("a, b");
    expect(topicsSummary(["a", "b", "c", "d", "e"])).toBe("a, b, c +2");
    const parts = reassignmentMoving.partitions;
    expect(filterPartitions(parts, "", false)).toBe(parts);
    expect(filterPartitions(parts, "ORD", true).map((p) => p.partition)).toEqual([0]);
    expect(filterPartitions(parts, "pay", false)).toEqual([]);
  });
});

describe("a preset from a link", () => {
  const read = (query: string) => readReassignPreset(new URLSearchParams(query));
  const TOPIC_ROWS = [{ name: "orders" }, { name: "payments" }, { name: "audit" }];
  const dirs = (...replicas: [string, string[], string | null][]): Pick<BrokerDetail, "log_dirs" | "log_dirs_error"> => ({
    log_dirs: replicas.map(([path, topics, error]) => ({
      path,
      total_bytes: null,
      usable_bytes: null,
      error,
      replicas: topics.map((topic, partition) => ({ topic, partition, size_bytes: 1, offset_lag: 0, is_future: false })),
    })),
    log_dirs_error: null,
  });

  it("reads a drain, a replication factor change or topics; a drain first, and no preset without one", () => {
    expect(read("")).toEqual({ preset: null, ignored: [] });
    expect(read("drain=2&topics=orders")).toEqual({ preset: { drain: 2 }, ignored: [] });
    expect(read("drain=two")).toEqual({ preset: null, ignored: ["drain “two” (not a broker id)"] });
    expect(read("mode=rf&topic=orders&topics=audit")).toEqual({ preset: { rfTopic: "orders" }, ignored: [] });
    expect(read("mode=rf")).toEqual({ preset: { rfTopic: "" }, ignored: [] });
    expect(read("topics=orders,,audit,orders")).toEqual({ preset: { topics: ["orders", "audit"] }, ignored: [] });
  });

  it("drains a broker: each topic it holds, every other live broker, what was not read said", () => {
    const detail = dirs(["/a", ["orders", "payments", "orders"], null], ["/b", [], "KAFKA_STORAGE_ERROR"]);
    expect(brokerTopics(detail)).toEqual(["orders", "payments"]);
    const form = presetForm(read("drain=2"), { topics: TOPIC_ROWS, brokers: [1, 2, 3], drained: detail });
    expect(form).toMatchObject({ mode: "topics", topics: ["orders", "payments"], brokers: [1, 3], drain: 2, ignored: [] });
    expect(form.drainWarning).toBe("Not read: log dir /b (KAFKA_STORAGE_ERROR). A topic with replicas only there is not chosen.");
    const unread = presetForm(read("drain=2"), { topics: TOPIC_ROWS, brokers: [1, 2], drained: new Error("timed out") });
    expect(unread).toMatchObject({ topics: [], brokers: [1], drain: 2 });
    expect(unread.drainWarning).toBe("Could not read broker 2's replicas (timed out): choose its topics yourself.");
  });

  it("ignores a broker that is not live, and topics the cluster does not have", () => {
    const notFound = new ApiError(404, "broker_not_found", "Broker 9 is not a live broker.", {});
    expect(presetForm(read("drain=9"), { topics: TOPIC_ROWS, brokers: [1, 2], drained: notFound })).toMatchObject({
      topics: [],
      brokers: [],
      drain: null,
      ignored: ["broker 9 (not a live broker)"],
    });
    expect(presetForm(read("topics=orders,nope"), { topics: TOPIC_ROWS, brokers: [1] })).toMatchObject({
      mode: "topics",
      topics: ["orders"],
      brokers: [],
      ignored: ["topic “nope” (not a topic of this cluster)"],
    });
    expect(presetForm(read("mode=rf&topic=nope"), { topics: TOPIC_ROWS, brokers: [1] })).toMatchObject({
      mode: "rf",
      rfTopic: "",
      ignored: ["topic “nope” (not a topic of this cluster)"],
    });
    // The topics could not be loaded: the link's are kept, the server says what it does not have.
    expect(presetForm(read("mode=rf&topic=nope"), { topics: undefined, brokers: undefined })).toMatchObject({ rfTopic: "nope", ignored: [] });
  });
});

import { describe, expect, it } from "vitest";
import { SEARCH_RESULT } from "../test/sparkFixtures";
import { DEFAULT_VIEW, type MessageView } from "./messages";
import { matchToRecord, readSearchResult, searchPlan } from "./sparkSearch";

const view = (change: Partial<MessageView>): MessageView => ({ ...DEFAULT_VIEW, filter: "value.amount > 6000", ...change });

describe("the Messages tab's view as topic-search params", () => {
  it("sends the filter, both decoders and the chosen partitions", () => {
    const plan = searchPlan(view({ position: "earliest", partitions: "2, 0", keyFormat: "text", valueFormat: "msgpack" }), "orders", 3);
    expect(plan).toEqual({
      params: { topic: "orders", filter: "value.amount > 6000", key_format: "text", value_format: "msgpack", partitions: [0, 2] },
      range: "partitions 0, 2, from the log start to the log end when the job starts",
    });
  });

  it("starts at an offset or a time forward, ends there backward", () => {
    expect(searchPlan(view({ position: "offset", offset: " 120 ", direction: "forward" }), "orders", 3)).toMatchObject({
      params: { start_offset: 120 },
      range: "every partition, from offset 120 to the log end",
    });
    const back = searchPlan(view({ position: "offset", offset: "120", direction: "backward" }), "orders", 3);
    expect(back).toMatchObject({ params: { end_offset: 121 } });
    expect("params" in back && "start_offset" in back.params).toBe(false);

    // The time in its explicit zone, as the tab reads it.
    const at = searchPlan(view({ position: "timestamp", datetime: "2026-11-27 09:30:00", zone: "+02:00" }), "orders", 3);
    expect(at).toMatchObject({ params: { start_time: "2026-11-27T09:30:00.000+02:00" } });
    expect(searchPlan(view({ position: "timestamp", datetime: "2026-11-27 09:30:00", zone: "UTC", direction: "backward" }), "orders", 3)).toMatchObject({
      params: { end_time: "2026-11-27T09:30:00.000Z" },
    });
  });

  it("searches the whole retained range from latest, and says so", () => {
    const plan = searchPlan(view({ position: "latest", cursor: "c1.next", cursorDirection: "backward" }), "orders", 3);
    if (!("params" in plan)) throw new Error(plan.reason);
    expect(Object.keys(plan.params).sort()).toEqual(["filter", "key_format", "topic", "value_format"]);
    expect(plan.range).toMatch(/whole retained range/);
  });

  it("refuses what the tab itself refuses, and an unfiltered scan", () => {
    expect(searchPlan(view({ filter: "  " }), "orders", 3)).toEqual({ reason: "Only a filtered scan can be handed to Spark." });
    expect(searchPlan(view({ partitions: "7" }), "orders", 3)).toMatchObject({ reason: expect.stringMatching(/partitions 0 to 2/) });
    expect(searchPlan(view({ position: "offset", offset: "x" }), "orders", 3)).toMatchObject({ reason: expect.stringMatching(/offset/) });
    expect(searchPlan(view({ position: "timestamp", datetime: "" }), "orders", 3)).toMatchObject({ reason: expect.stringMatching(/date and time/) });
  });
});

describe("a topic-search result as the tab's records", () => {
  it("reads the counts and turns matches into records", () => {
    const result = readSearchResult(SEARCH_RESULT);
    expect(result).toMatchObject({ records: 5_000_000, matched: 1234, truncated: true, filterErrors: 2, filterError: "no such key: amount" });
    expect(result?.outputPath).toBe("/data/spark/output/search-42");
    expect(result?.matches).toHaveLength(2);
    expect(result?.matches[0]).toEqual({
      partition: 0,
      offset: 17,
      timestamp: "2026-11-27T08:00:00.000Z",
      timestamp_ms: 1795766400000,
      timestamp_type: null,
      key: { format: "text", data: "truck-17", size: 8, schema_id: null, note: null },
      value: { format: "json", data: { amount: 6100, id: "o-17" }, size: 28, schema_id: null, note: null },
      headers: [
        { key: "trace-id", value: { format: "text", data: "a1", size: 2, schema_id: null, note: null } },
        { key: "trace-id", value: { format: "text", data: "b2", size: 2, schema_id: null, note: null } },
      ],
    });
    expect(result?.matches[1]).toMatchObject({ partition: 2, offset: 4001, timestamp: null, timestamp_ms: null, key: null, headers: [] });
  });

  it("reads what it can of another shape", () => {
    expect(readSearchResult(null)).toBeNull();
    expect(readSearchResult({ matches: [{ partition: "x" }, { partition: 1, offset: 2, headers: [{ key: "h", value: null }] }] })).toEqual({
      records: 0,
      matched: 0,
      truncated: false,
      filterErrors: 0,
      filterError: null,
      outputPath: null,
      matches: [{ partition: 1, offset: 2, timestamp: null, timestamp_ms: null, timestamp_type: null, key: null, value: null, headers: [{ key: "h", value: null }] }],
    });
    expect(matchToRecord("no")).toBeNull();
  });
});

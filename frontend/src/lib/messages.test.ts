import { describe, expect, it } from "vitest";
import { messageSearch } from "../api/messages";
import {
  buildQuery,
  DEFAULT_VIEW,
  downloadBody,
  filterErrorText,
  hexDump,
  kcatCommand,
  pageDirection,
  parsePartitions,
  previewText,
  viewFromParams,
  viewToParams,
} from "./messages";

describe("the Messages tab's view and query", () => {
  it("reads partitions as numbers and ranges, checked against the topic", () => {
    expect(parsePartitions("", 3)).toEqual([]);
    expect(parsePartitions("2, 0-1 1", 3)).toEqual([0, 1, 2]);
    expect(parsePartitions("3", 3)).toMatch(/partitions 0 to 2/);
    expect(parsePartitions("5-2", null)).toMatch(/backwards/);
    expect(parsePartitions("x", null)).toMatch(/not a partition number/);
  });

  it("sends a cursor instead of the position, keeping formats, limit, isolation and filter", () => {
    const view = { ...DEFAULT_VIEW, position: "offset" as const, offset: "7", partitions: "1", direction: "forward" as const };
    expect(buildQuery(view, 3)).toEqual({
      query: { position: "offset", offset: 7, partition: [1], direction: "forward", limit: 50, key_format: undefined, value_format: undefined, isolation: undefined, filter: undefined },
    });
    const paged = { ...view, cursor: "c1.x", cursorDirection: "backward" as const, valueFormat: "json" as const, filter: " value.a > 1 " };
    const built = buildQuery(paged, 3);
    expect(built).toEqual({ query: expect.objectContaining({ cursor: "c1.x", value_format: "json", limit: 50, filter: "value.a > 1" }) });
    expect("query" in built && built.query.position).toBeUndefined();
    expect(pageDirection(paged)).toBe("backward");
    expect(pageDirection({ ...DEFAULT_VIEW })).toBe("backward");
    expect(pageDirection({ ...DEFAULT_VIEW, position: "earliest" })).toBe("forward");
  });

  it("repeats partition in the query string", () => {
    expect(messageSearch({ partition: [0, 2], limit: 20, filter: undefined }).toString()).toBe("partition=0&partition=2&limit=20");
  });

  it("round-trips the view through the URL query", () => {
    const view = { ...DEFAULT_VIEW, position: "timestamp" as const, datetime: "2026-11-27 08:00:00", zone: "+02:00", limit: 100, filter: "offset < 3" };
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(viewToParams(view))) if (v) params.set(k, v);
    expect(viewFromParams(params)).toEqual(view);
    expect(buildQuery({ ...view, datetime: "" }, null)).toEqual({ errors: { timestamp: expect.any(String) } });
  });
});

describe("a record's bytes and text", () => {
  it("downloads a bytes value's raw bytes and shows them as hex", () => {
    const decoded = { format: "bytes" as const, data: "AAEC/w==", size: 4, schema_id: null, note: null };
    const { bytes } = downloadBody(decoded);
    expect(Array.from(bytes!)).toEqual([0, 1, 2, 255]);
    expect(hexDump(bytes!)).toBe("00000000  00 01 02 ff");
    expect(downloadBody({ ...decoded, format: "json", data: { a: 1 } })).toEqual({ bytes: null, text: '{"a":1}' });
    expect(previewText({ ...decoded, format: "text", data: "a\n  b" })).toBe("a b");
  });

  it("quotes what the shell would split in the kcat command", () => {
    expect(kcatCommand("h1:9092,h2:9092", "orders", { partition: 1, offset: 5 })).toBe("kcat -C -b h1:9092,h2:9092 -t orders -p 1 -o 5 -c 1");
    expect(kcatCommand("h:1", "it's", { partition: 0, offset: 0 })).toContain(`-t 'it'\\''s'`);
  });

  it("tells a filter's syntax error without the parser's list", () => {
    expect(filterErrorText("filter: Syntax error: mismatched input 'x' expecting {'(', IDENTIFIER} (line 2, column 4).", true)).toBe(
      "Syntax error: mismatched input 'x'.",
    );
    expect(filterErrorText("filter: unknown name valeu (line 1, column 1).", false)).toBe("Unknown name valeu (line 1, column 1).");
  });
});

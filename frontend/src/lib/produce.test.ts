import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import type { Decoded, MessageRecord } from "../api/messages";
import {
  addHeader,
  buildPart,
  buildProduceBody,
  draftFromRecord,
  EMPTY_DRAFT,
  errorsByField,
  fieldOfPath,
  moveHeader,
  newHeader,
  partFromDecoded,
  removeHeader,
  serverProblems,
  updateHeader,
  type ProduceDraft,
} from "./produce";

const decoded = (format: Decoded["format"], data: unknown, size = 1): Decoded => ({ format, data, size, schema_id: null, note: null });

describe("the Produce form's body", () => {
  it("writes each format as the API takes it", () => {
    expect(buildPart({ isNull: false, format: "json", text: '{"a": [1, 2]}' })).toEqual({ part: { format: "json", data: { a: [1, 2] } } });
    expect(buildPart({ isNull: false, format: "text", text: " hi\n" })).toEqual({ part: { format: "text", data: " hi\n" } });
    expect(buildPart({ isNull: false, format: "bytes", text: "AAEC\nAw==" })).toEqual({ part: { format: "bytes", data: "AAECAw==" } });
    expect(buildPart({ isNull: false, format: "long", text: " -12 " })).toEqual({ part: { format: "long", data: -12 } });
    expect(buildPart({ isNull: false, format: "double", text: "2.5" })).toEqual({ part: { format: "double", data: 2.5 } });
    expect(buildPart({ isNull: true, format: "json", text: "{" })).toEqual({ part: null });
  });

  it("says what is wrong before anything is sent", () => {
    expect(buildPart({ isNull: false, format: "json", text: "{" })).toHaveProperty("error", expect.stringMatching(/^Not JSON/));
    expect(buildPart({ isNull: false, format: "bytes", text: "abc" })).toHaveProperty("error", expect.stringMatching(/base64/));
    expect(buildPart({ isNull: false, format: "int", text: "2147483648" })).toHaveProperty("error", expect.stringMatching(/-2147483648 to 2147483647/));
    expect(buildPart({ isNull: false, format: "int", text: "1.5" })).toHaveProperty("error", expect.stringMatching(/whole number/));
    expect(buildPart({ isNull: false, format: "double", text: "Infinity" })).toHaveProperty("error", expect.stringMatching(/finite/));
    expect(buildPart({ isNull: false, format: "avro", text: "{", schemaId: "" })).toHaveProperty("error", expect.stringMatching(/^Not JSON/));
    expect(buildPart({ isNull: false, format: "avro", text: "{}", schemaId: "x" })).toHaveProperty("error", expect.stringMatching(/schema id/));
  });

  it("builds the body with the partition, null key and headers in order, duplicates kept", () => {
    const draft: ProduceDraft = {
      partition: " 1 ",
      key: { isNull: true, format: "text", text: "ignored" },
      value: { isNull: false, format: "json", text: '{"n": 1}' },
      headers: [newHeader("h", { isNull: false, format: "text", text: "a" }), newHeader("h", { isNull: true, format: "text", text: "" })],
    };
    expect(buildProduceBody(draft)).toEqual({
      body: {
        partition: 1,
        key: null,
        value: { format: "json", data: { n: 1 } },
        headers: [
          { key: "h", value: { format: "text", data: "a" } },
          { key: "h", value: null },
        ],
      },
    });
    // No partition: the default partitioner (the field is left out).
    expect(buildProduceBody({ ...EMPTY_DRAFT, value: { isNull: true, format: "json", text: "" } })).toEqual({ body: { key: null, value: null, headers: [] } });
  });

  it("names every problem by the API's field path", () => {
    const draft: ProduceDraft = {
      partition: "-1",
      key: { isNull: false, format: "int", text: "x" },
      value: { isNull: false, format: "json", text: "{" },
      headers: [newHeader("", { isNull: false, format: "bytes", text: "!" })],
    };
    const built = buildProduceBody(draft);
    expect("errors" in built && Object.keys(built.errors).sort()).toEqual(["headers[0].key", "headers[0].value.data", "key.data", "partition", "value.data"]);
  });
});

describe("the header list", () => {
  it("adds, edits, moves and removes rows, keeping each row's identity", () => {
    let headers = addHeader(addHeader([]));
    headers = updateHeader(headers, 0, { key: "a" });
    headers = updateHeader(headers, 1, { key: "b" });
    const [a, b] = headers;
    expect(moveHeader(headers, 1, -1).map((h) => h.key)).toEqual(["b", "a"]);
    expect(moveHeader(headers, 1, -1)[0]!.id).toBe(b!.id);
    expect(moveHeader(headers, 0, -1).map((h) => h.key)).toEqual(["a", "b"]); // at the top already
    expect(moveHeader(headers, 1, 1).map((h) => h.key)).toEqual(["a", "b"]);
    expect(removeHeader(headers, 0)).toEqual([b]);
    expect(a!.id).not.toBe(b!.id);
  });
});

describe("Copy to producer", () => {
  it("copies decoded text and JSON as text, bytes as base64, nulls as null", () => {
    const record = {
      key: decoded("text", "order-17"),
      value: decoded("json", { id: "o-17", amount: 17000 }),
      headers: [
        { key: "trace-id", value: decoded("text", "t-17") },
        { key: "trace-id", value: decoded("bytes", "AP8=") },
        { key: "empty", value: null },
      ],
    } satisfies Pick<MessageRecord, "key" | "value" | "headers">;
    const draft = draftFromRecord(record);
    expect(draft.partition).toBe("");
    expect(draft.key).toEqual({ isNull: false, format: "text", text: "order-17" });
    expect(draft.value.format).toBe("json");
    expect(JSON.parse(draft.value.text)).toEqual({ id: "o-17", amount: 17000 });
    expect(draft.headers.map((h) => [h.key, h.value])).toEqual([
      ["trace-id", { isNull: false, format: "text", text: "t-17" }],
      ["trace-id", { isNull: false, format: "bytes", text: "AP8=" }],
      ["empty", { isNull: true, format: "text", text: "" }],
    ]);
    // What was copied is produced back as the same key, value and headers.
    const built = buildProduceBody(draft);
    expect("body" in built && built.body).toEqual({
      key: { format: "text", data: "order-17" },
      value: { format: "json", data: { id: "o-17", amount: 17000 } },
      headers: [
        { key: "trace-id", value: { format: "text", data: "t-17" } },
        { key: "trace-id", value: { format: "bytes", data: "AP8=" } },
        { key: "empty", value: null },
      ],
    });
  });

  it("keeps numbers in their format and a JSON string as JSON", () => {
    expect(partFromDecoded(decoded("long", 1700000000000))).toEqual({ isNull: false, format: "long", text: "1700000000000" });
    expect(partFromDecoded(decoded("json", "a string"))).toEqual({ isNull: false, format: "json", text: '"a string"' });
    expect(partFromDecoded(decoded("msgpack", { a: 1 })).format).toBe("msgpack");
    expect(partFromDecoded(null).isNull).toBe(true);
  });

  it("writes a registry-decoded value back with the schema it was read with", () => {
    const avro = { ...decoded("avro", { id: 7 }), schema_id: 12 };
    const part = partFromDecoded(avro);
    expect(part).toEqual({ isNull: false, format: "avro", text: '{\n  "id": 7\n}', schemaId: "12" });
    expect(buildPart(part)).toEqual({ part: { format: "avro", data: { id: 7 }, schema_id: 12 } });
    // Without an id: the subject's latest schema (the server's default subject).
    expect(buildPart({ ...part, schemaId: " " })).toEqual({ part: { format: "avro", data: { id: 7 } } });
  });
});

describe("a refusal beside its field", () => {
  it("places each path at the field that shows it", () => {
    expect(fieldOfPath("key.data")).toBe("key");
    expect(fieldOfPath("value.format")).toBe("value");
    expect(fieldOfPath("headers[2].value.format")).toBe("headers[2].value");
    expect(fieldOfPath("headers[0].key")).toBe("headers[0].key");
    expect(fieldOfPath("headers[1]")).toBe("headers[1].key");
    expect(fieldOfPath("headers")).toBe("headers");
    expect(fieldOfPath("partition")).toBe("partition");
    expect(fieldOfPath("topic")).toBe("form");
  });

  it("reads a 400 naming its field, in plain words", () => {
    const error = new ApiError(400, "bad_input", "partition: topic 't' has partitions 0 to 1.", { field: "partition" });
    const problems = serverProblems(error);
    expect(problems).toEqual({ partition: "Topic 't' has partitions 0 to 1." });
    expect(errorsByField(problems)).toEqual({ partition: "Topic 't' has partitions 0 to 1." });
    const nested = new ApiError(400, "validation_error", "Invalid input.", { errors: { value: { format: ['"x" is not a valid choice.'] } } });
    expect(errorsByField(serverProblems(nested))).toEqual({ value: '"x" is not a valid choice.' });
    expect(serverProblems(new ApiError(500, "server_error", "Boom."))).toEqual({});
  });
});

// The Produce form's pure parts (docs/messages.md, "Producing"): its draft, the body of
// POST clusters/{cluster}/topics/{topic}/messages built from it (with what is wrong, by the
// field path the API would name), the header list's editing, a browsed record turned into a
// draft ("Copy to producer"), and a refusal's problems placed beside their fields.
import type { Decoded, MessageRecord, ProduceBody, ProducePart, WriteFormat } from "../api/messages";
import { fieldProblems } from "./fieldErrors";

/** The formats the produce API writes; avro, protobuf and jsonschema through the cluster's Schema Registry. */
export const WRITE_FORMATS: { value: WriteFormat; label: string; disabled?: boolean }[] = [
  { value: "json", label: "json" },
  { value: "text", label: "text" },
  { value: "bytes", label: "bytes (base64)" },
  { value: "int", label: "int (4 bytes)" },
  { value: "long", label: "long (8 bytes)" },
  { value: "double", label: "double (8 bytes)" },
  { value: "msgpack", label: "msgpack (from JSON)" },
  { value: "avro", label: "avro (Schema Registry)" },
  { value: "protobuf", label: "protobuf (Schema Registry)" },
  { value: "jsonschema", label: "jsonschema (Schema Registry)" },
];

/** Formats written through the cluster's Schema Registry: JSON data and a schema id or subject. */
export const REGISTRY_FORMATS: readonly WriteFormat[] = ["avro", "protobuf", "jsonschema"];

export function isRegistryFormat(format: string): boolean {
  return (REGISTRY_FORMATS as readonly string[]).includes(format);
}

/** Key, value or a header value as typed: `isNull` sends null (no key, a tombstone, a null header). */
export interface PartDraft {
  isNull: boolean;
  format: WriteFormat;
  /** As typed: JSON for json, msgpack and the registry's formats, the text, base64 for bytes, a number. */
  text: string;
  /** Registry formats: the schema id to write with ("" : the subject's latest, `<topic>-key|value`). */
  schemaId?: string;
}

export interface HeaderDraft {
  /** The row's identity while rows move (React's key); never sent. */
  id: number;
  key: string;
  value: PartDraft;
}

export interface ProduceDraft {
  /** "" : the default partitioner. */
  partition: string;
  key: PartDraft;
  value: PartDraft;
  /** In order; a key may repeat. */
  headers: HeaderDraft[];
}

export const EMPTY_DRAFT: ProduceDraft = {
  partition: "",
  key: { isNull: true, format: "text", text: "" },
  value: { isNull: false, format: "json", text: "" },
  headers: [],
};

/** What is wrong with a draft, by the API's field path ("key.data", "headers[1].key"). */
export type ProduceErrors = Record<string, string>;

const INT_RANGE: Record<"int" | "long", [bigint, bigint]> = {
  int: [-(2n ** 31n), 2n ** 31n - 1n],
  long: [-(2n ** 63n), 2n ** 63n - 1n],
};

/** One part's `{format, data}`, or what is wrong with its text. */
export function buildPart(part: PartDraft): { part: ProducePart | null } | { error: string } {
  if (part.isNull) return { part: null };
  const { format, text } = part;
  switch (format) {
    case "json":
    case "msgpack":
      try {
        return { part: { format, data: JSON.parse(text) as unknown } };
      } catch (error) {
        return { error: `Not JSON: ${error instanceof Error ? error.message : String(error)}` };
      }
    case "text":
      return { part: { format, data: text } };
    case "bytes": {
      const clean = text.replace(/\s+/g, "");
      if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(clean)) {
        return { error: "Not base64 (A–Z, a–z, 0–9, + and /, padded with =)." };
      }
      return { part: { format, data: clean } };
    }
    case "int":
    case "long": {
      const t = text.trim();
      if (!/^-?\d+$/.test(t)) return { error: `${format} takes a whole number.` };
      const [low, high] = INT_RANGE[format];
      const n = BigInt(t);
      if (n < low || n > high) return { error: `${format} takes a whole number from ${low} to ${high}.` };
      if (!Number.isSafeInteger(Number(t))) return { error: "Beyond what JSON carries exactly (±2^53): send it as bytes." };
      return { part: { format, data: Number(t) } };
    }
    case "double": {
      const t = text.trim();
      const n = Number(t);
      if (!t || !Number.isFinite(n)) return { error: "double takes a finite number." };
      return { part: { format, data: n } };
    }
    default: {
      if (!isRegistryFormat(format)) return { error: `${format} cannot be written from here.` };
      const id = (part.schemaId ?? "").trim();
      if (id && !/^\d{1,9}$/.test(id)) return { error: "A schema id is a whole number (or empty for the subject's latest schema)." };
      try {
        const data = JSON.parse(text) as unknown;
        return { part: id ? { format, data, schema_id: Number(id) } : { format, data } };
      } catch (error) {
        return { error: `Not JSON: ${error instanceof Error ? error.message : String(error)}` };
      }
    }
  }
}

/** The request body of a draft, or every problem with it (nothing is sent then). */
export function buildProduceBody(draft: ProduceDraft): { body: ProduceBody } | { errors: ProduceErrors } {
  const errors: ProduceErrors = {};
  const body: ProduceBody = { key: null, value: null, headers: [] };
  const partition = draft.partition.trim();
  if (partition) {
    if (!/^\d{1,9}$/.test(partition)) errors.partition = "A partition number (0 or more), or empty for the default partitioner.";
    else body.partition = Number(partition);
  }
  for (const name of ["key", "value"] as const) {
    const built = buildPart(draft[name]);
    if ("error" in built) errors[`${name}.data`] = built.error;
    else body[name] = built.part;
  }
  draft.headers.forEach((header, i) => {
    if (!header.key) errors[`headers[${i}].key`] = "A header needs a key.";
    const built = buildPart(header.value);
    if ("error" in built) errors[`headers[${i}].value.data`] = built.error;
    else body.headers!.push({ key: header.key, value: built.part });
  });
  return Object.keys(errors).length ? { errors } : { body };
}

let nextHeaderId = 1;

/** A new header row (text value). */
export function newHeader(key = "", value: PartDraft = { isNull: false, format: "text", text: "" }): HeaderDraft {
  return { id: nextHeaderId++, key, value };
}

export function addHeader(headers: readonly HeaderDraft[]): HeaderDraft[] {
  return [...headers, newHeader()];
}

export function removeHeader(headers: readonly HeaderDraft[], index: number): HeaderDraft[] {
  return headers.filter((_, i) => i !== index);
}

/** The header at `index` one place up (-1) or down (+1); unchanged at either end. */
export function moveHeader(headers: readonly HeaderDraft[], index: number, by: -1 | 1): HeaderDraft[] {
  const to = index + by;
  if (index < 0 || index >= headers.length || to < 0 || to >= headers.length) return [...headers];
  const out = [...headers];
  [out[index], out[to]] = [out[to]!, out[index]!];
  return out;
}

export function updateHeader(headers: readonly HeaderDraft[], index: number, change: Partial<Omit<HeaderDraft, "id">>): HeaderDraft[] {
  return headers.map((h, i) => (i === index ? { ...h, ...change } : h));
}

/**
 * A decoded key, value or header as the producer writes it again: JSON (and msgpack) as indented
 * JSON, text as it is, numbers in their format, bytes (and whatever was not decoded: avro and
 * protobuf without a registry come back as bytes) as the base64 the API takes.
 */
export function partFromDecoded(decoded: Decoded | null): PartDraft {
  if (decoded === null) return { isNull: true, format: "text", text: "" };
  const { format, data } = decoded;
  switch (format) {
    case "json":
    case "msgpack":
      return { isNull: false, format, text: JSON.stringify(data, null, 2) ?? "null" };
    case "text":
      return { isNull: false, format: "text", text: String(data) };
    case "int":
    case "long":
    case "double":
      return { isNull: false, format, text: String(data) };
    case "avro":
    case "protobuf":
    case "jsonschema":
      // Written back with the schema it was read with.
      return {
        isNull: false,
        format,
        text: JSON.stringify(data, null, 2) ?? "null",
        schemaId: decoded.schema_id === null ? "" : String(decoded.schema_id),
      };
    default:
      // bytes: data is base64 already
      return { isNull: false, format: "bytes", text: typeof data === "string" ? data : "" };
  }
}

/** "Copy to producer": the record's key, value and headers (in order, duplicates kept); the
 * partition left to the default partitioner (the key sends it where the Java producer would). */
export function draftFromRecord(record: Pick<MessageRecord, "key" | "value" | "headers">): ProduceDraft {
  return {
    partition: "",
    key: partFromDecoded(record.key),
    value: partFromDecoded(record.value),
    headers: record.headers.map((h) => newHeader(h.key, partFromDecoded(h.value))),
  };
}

/** Where a problem is shown: the form's field it names (its path's first part, headers by row). */
export type ProduceField = "partition" | "key" | "value" | "headers" | `headers[${number}].key` | `headers[${number}].value` | "form";

/** The field a path belongs to: "key.data" → key, "headers[2].value.format" → headers[2].value. */
export function fieldOfPath(path: string): ProduceField {
  const header = /^headers\[(\d+)\]\.(key|value)/.exec(path);
  if (header) return `headers[${Number(header[1])}].${header[2] as "key" | "value"}`;
  if (/^headers\[\d+\]/.test(path)) return `headers[${Number(/\d+/.exec(path)![0])}].key`;
  const head = /^(partition|key|value|headers)\b/.exec(path);
  return head ? (head[1] as ProduceField) : "form";
}

/** Problems (the browser's or a 400's) grouped by the field they are shown beside. */
export function errorsByField(problems: ProduceErrors): Partial<Record<ProduceField, string>> {
  const out: Partial<Record<ProduceField, string>> = {};
  for (const [path, message] of Object.entries(problems)) {
    const field = fieldOfPath(path);
    out[field] = out[field] ? `${out[field]} ${message}` : message;
  }
  return out;
}

/** A refused produce's problems by API path ({} for anything but a 400 naming fields). */
export function serverProblems(error: unknown): ProduceErrors {
  const out: ProduceErrors = {};
  for (const p of fieldProblems(error)) out[p.path || "form"] = out[p.path || "form"] ? `${out[p.path || "form"]} ${p.message}` : p.message;
  return out;
}

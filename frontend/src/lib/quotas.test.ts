import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import type { QuotaChange } from "../api/types";
import {
  checkQuotaForm,
  columnsFor,
  EMPTY_QUOTA_FORM,
  entityKey,
  entityLabel,
  exactQuotaValue,
  formatByteRate,
  formatQuotaValue,
  formEntity,
  orderedKeys,
  parseQuotaValue,
  placeQuotaErrors,
  QUOTA_FILTERS,
  quotaChangeBody,
  quotaDiff,
  quotaFormOf,
  readQuotaFilter,
  sameEntity,
  valuesOf,
  type QuotaFormValues,
} from "./quotas";

const DEFAULT = { default: true } as const;

function form(changes: Partial<QuotaFormValues>): QuotaFormValues {
  return { ...EMPTY_QUOTA_FORM, ...changes };
}

const bad = (field: string, message: string) => new ApiError(400, "invalid", message, { field });

describe("the filter", () => {
  it("reads the URL's entity_type: the API's types, every entity without (or with an unknown one)", () => {
    expect(readQuotaFilter(new URLSearchParams("entity_type=users,clients"))?.types).toEqual(["users", "clients"]);
    expect(readQuotaFilter(new URLSearchParams("entity_type=ips"))?.label).toBe("IPs");
    expect(readQuotaFilter(new URLSearchParams(""))).toBeNull();
    expect(readQuotaFilter(new URLSearchParams("entity_type=groups"))).toBeNull();
    expect(QUOTA_FILTERS.map((f) => f.label)).toEqual(["Users", "Client ids", "User + client id", "IPs"]);
  });

  it("shows the columns of the keys the entities listed take", () => {
    expect(columnsFor(null)).toHaveLength(5);
    expect(columnsFor(readQuotaFilter(new URLSearchParams("entity_type=ips")))).toEqual(["connection_creation_rate"]);
    expect(columnsFor(readQuotaFilter(new URLSearchParams("entity_type=users")))).toEqual([
      "producer_byte_rate",
      "consumer_byte_rate",
      "request_percentage",
      "controller_mutation_rate",
    ]);
  });
});

describe("entities", () => {
  it("says an entity in words, in Kafka's order, defaults as such", () => {
    expect(entityLabel({ client_id: DEFAULT, user: "alice" })).toBe("user alice, default client id");
    expect(entityLabel({ user: DEFAULT })).toBe("default user");
    expect(entityLabel({ client_id: "orders-app" })).toBe("client id orders-app");
    expect(entityLabel({ user: DEFAULT, client_id: "orders-app" })).toBe("default user, client id orders-app");
    expect(entityLabel({ ip: "10.0.0.7" })).toBe("ip 10.0.0.7");
    expect(entityLabel({ ip: DEFAULT })).toBe("default ip");
  });

  it("tells a default from a name spelt like one, whatever the key order", () => {
    expect(sameEntity({ user: "alice", client_id: "x" }, { client_id: "x", user: "alice" })).toBe(true);
    expect(entityKey({ user: DEFAULT })).not.toBe(entityKey({ user: "default" }));
    expect(sameEntity({ user: "alice" }, { user: "alice", client_id: DEFAULT })).toBe(false);
    expect(sameEntity({ user: "alice" }, null)).toBe(false);
    const rows = [{ entity: { user: "alice" }, values: { producer_byte_rate: 1024 } }];
    expect(valuesOf(rows, { user: "alice" })).toEqual({ producer_byte_rate: 1024 });
    expect(valuesOf(rows, { user: "bob" })).toEqual({});
    expect(valuesOf(undefined, { user: "alice" })).toEqual({});
  });
});

describe("values", () => {
  it("formats byte rates in binary units, percentages and rates with theirs", () => {
    expect(formatByteRate(512)).toBe("512 B/s");
    expect(formatByteRate(1024)).toBe("1.0 KiB/s");
    expect(formatByteRate(1_048_576)).toBe("1.0 MiB/s");
    expect(formatByteRate(1_572_864)).toBe("1.5 MiB/s");
    expect(formatByteRate(5 * 1024 ** 3)).toBe("5.0 GiB/s");
    expect(formatQuotaValue("producer_byte_rate", 1_048_576)).toBe("1.0 MiB/s");
    expect(formatQuotaValue("consumer_byte_rate", 2048)).toBe("2.0 KiB/s");
    expect(formatQuotaValue("request_percentage", 12.5)).toBe("12.5 %");
    expect(formatQuotaValue("request_percentage", 200)).toBe("200 %");
    expect(formatQuotaValue("controller_mutation_rate", 10)).toBe("10 partitions/s");
    expect(formatQuotaValue("connection_creation_rate", 1500)).toBe("1,500 connections/s");
    expect(formatQuotaValue("some_future_key", 3.25)).toBe("3.25");
    expect(exactQuotaValue("producer_byte_rate", 1_048_576)).toBe("1,048,576 bytes/s");
    expect(exactQuotaValue("request_percentage", 12.5)).toBe("12.5 %");
  });

  it("orders keys as the form lists them, unknown ones last", () => {
    expect(orderedKeys({ zeta: 1, request_percentage: 2, producer_byte_rate: 3 })).toEqual(["producer_byte_rate", "request_percentage", "zeta"]);
  });

  it("reads a typed value: a number above 0, whole where Kafka keeps a whole number", () => {
    expect(parseQuotaValue("producer_byte_rate", " 1,048,576 ")).toEqual({ ok: true, value: 1_048_576 });
    expect(parseQuotaValue("request_percentage", "12.5")).toEqual({ ok: true, value: 12.5 });
    expect(parseQuotaValue("producer_byte_rate", "1.5")).toEqual({ ok: false, error: "Give a whole number of bytes/s." });
    expect(parseQuotaValue("connection_creation_rate", "2.5")).toEqual({ ok: false, error: "Give a whole number of connections/s." });
    expect(parseQuotaValue("request_percentage", "abc")).toEqual({ ok: false, error: "Give a number." });
    expect(parseQuotaValue("request_percentage", "0")).toMatchObject({ ok: false, error: expect.stringMatching(/^Must be greater than 0/) });
  });
});

describe("the form", () => {
  it("names a user, a client id, both, or an ip; each a name or the default", () => {
    expect(formEntity(form({ user: " alice " }))).toEqual({ user: "alice" });
    expect(formEntity(form({ user: "alice", clientMode: "default" }))).toEqual({ user: "alice", client_id: DEFAULT });
    expect(formEntity(form({ userMode: "default", clientMode: "name", clientId: "app" }))).toEqual({ user: DEFAULT, client_id: "app" });
    expect(formEntity(form({ userMode: "none", clientMode: "default" }))).toEqual({ client_id: DEFAULT });
    expect(formEntity(form({ target: "ip", ip: "10.0.0.7" }))).toEqual({ ip: "10.0.0.7" });
    expect(formEntity(form({ target: "ip", ipMode: "default" }))).toEqual({ ip: DEFAULT });
    // A name chosen but not typed, or nothing chosen: no entity yet.
    expect(formEntity(form({ user: "" }))).toBeNull();
    expect(formEntity(form({ user: "alice", clientMode: "name", clientId: " " }))).toBeNull();
    expect(formEntity(form({ userMode: "none", clientMode: "none" }))).toBeNull();
  });

  it("loads a row's entity back into the form", () => {
    for (const entity of [{ user: "alice", client_id: DEFAULT }, { client_id: "app" }, { user: DEFAULT }, { ip: "10.0.0.7" }, { ip: DEFAULT }]) {
      expect(formEntity(quotaFormOf(entity))).toEqual(entity);
    }
    expect(quotaFormOf({ ip: "10.0.0.7" }).target).toBe("ip");
    expect(quotaFormOf({ user: "alice" })).toMatchObject({ values: {}, remove: [] });
  });

  it("builds the PATCH body: typed values set (empty ones unchanged), ticked keys deleted", () => {
    const values = form({
      user: "alice",
      clientMode: "default",
      values: { producer_byte_rate: "1048576", consumer_byte_rate: "", request_percentage: "12.5", controller_mutation_rate: "5" },
      remove: ["controller_mutation_rate", "consumer_byte_rate"],
    });
    expect(checkQuotaForm(values)).toEqual({});
    expect(quotaChangeBody(values)).toEqual({
      entity: { user: "alice", client_id: DEFAULT },
      set: { producer_byte_rate: 1_048_576, request_percentage: 12.5 },
      delete: ["consumer_byte_rate", "controller_mutation_rate"],
    });
    // An ip takes its one key only (what was typed for another target is not sent).
    const ip = form({ target: "ip", ip: "10.0.0.7", values: { connection_creation_rate: "20", producer_byte_rate: "5" } });
    expect(quotaChangeBody(ip)).toEqual({ entity: { ip: "10.0.0.7" }, set: { connection_creation_rate: 20 }, delete: [] });
  });

  it("says what is missing before sending, beside its field", () => {
    expect(checkQuotaForm(form({ values: { producer_byte_rate: "1.5" } }))).toEqual({
      user: ["Give the user name, or choose the default user."],
      producer_byte_rate: ["Give a whole number of bytes/s."],
    });
    expect(checkQuotaForm(form({ userMode: "none", clientMode: "none", values: { request_percentage: "5" } }))).toEqual({
      entity: ["Choose a user, a client id, or both."],
    });
    expect(checkQuotaForm(form({ user: "alice" }))).toEqual({ change: ["Type a value to set, or tick one to remove."] });
    expect(checkQuotaForm(form({ target: "ip", values: { connection_creation_rate: "3" } }))).toEqual({
      ip: ["Give an IP address, or choose the default ip."],
    });
  });
});

describe("placeQuotaErrors", () => {
  const body: QuotaChange = {
    entity: { user: "alice" },
    set: { producer_byte_rate: 10 },
    delete: ["consumer_byte_rate", "request_percentage"],
  };

  it("puts set.<key> and delete[i] beside that key, entity.<part> beside the part", () => {
    expect(placeQuotaErrors(bad("set.producer_byte_rate", "set.producer_byte_rate: producer_byte_rate must be greater than 0."), body)).toEqual({
      fields: { producer_byte_rate: ["Must be greater than 0."] },
      banner: null,
    });
    expect(
      placeQuotaErrors(bad("delete[1]", "delete[1]: request_percentage is not set on user-principal 'alice'."), body).fields,
    ).toEqual({ request_percentage: ["Not set on user-principal 'alice'."] });
    expect(placeQuotaErrors(bad("entity.ip", "entity.ip: give an IP address."), body).fields).toEqual({ ip: ["Give an IP address."] });
    expect(placeQuotaErrors(bad("entity.user", 'entity.user: give a name, or {"default": true} for the default.'), body).fields).toEqual({
      user: ['Give a name, or {"default": true} for the default.'],
    });
    expect(placeQuotaErrors(bad("entity", "entity: an ip cannot be combined with a user or client_id."), body).fields).toEqual({
      entity: ["An ip cannot be combined with a user or client_id."],
    });
    expect(placeQuotaErrors(bad("set", "set: give a value to set or a key to delete."), body).fields).toEqual({
      change: ["Give a value to set or a key to delete."],
    });
  });

  it("leaves the rest to the banner", () => {
    const forbidden = new ApiError(403, "forbidden", "Admins only.");
    expect(placeQuotaErrors(forbidden, body)).toEqual({ fields: {}, banner: forbidden });
    const other = placeQuotaErrors(bad("entity_type", "entity_type: one of users, clients, ips; not 'x'."), body);
    expect(other.fields).toEqual({});
    expect(other.banner?.message).toBe("One of users, clients, ips; not 'x'.");
    expect(placeQuotaErrors(null, body)).toEqual({ fields: {}, banner: null });
  });
});

describe("quotaDiff", () => {
  it("lists every key before or after, with both values (null: not set)", () => {
    expect(
      quotaDiff({
        before: { consumer_byte_rate: 2048, producer_byte_rate: 1024 },
        values: { producer_byte_rate: 4096, request_percentage: 50 },
      }),
    ).toEqual([
      { key: "producer_byte_rate", before: 1024, after: 4096 },
      { key: "consumer_byte_rate", before: 2048, after: null },
      { key: "request_percentage", before: null, after: 50 },
    ]);
  });
});

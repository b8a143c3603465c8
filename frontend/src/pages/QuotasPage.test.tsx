import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Quota, QuotaChanged } from "../api/types";
import { cells, change, click } from "../test/byTestId";
import { apiError, bodiesTo, callsTo, json, stubFetch, type StubResponse } from "../test/fetchStub";
import { ADMIN, TOPICS, VIEWER } from "../test/fixtures";
import { renderApp } from "../test/render";

const QUOTAS_URL = "/api/v1/clusters/local/quotas";
const DEFAULT = { default: true } as const;

const ALICE: Quota = { entity: { user: "alice" }, values: { producer_byte_rate: 1_048_576, request_percentage: 12.5 } };
const ALICE_DEFAULT_CLIENT: Quota = { entity: { user: "alice", client_id: DEFAULT }, values: { consumer_byte_rate: 2048 } };
const DEFAULT_USER: Quota = { entity: { user: DEFAULT }, values: { controller_mutation_rate: 10 } };
const APP: Quota = { entity: { client_id: "orders-app" }, values: { consumer_byte_rate: 5 * 1024 ** 3 } };
const IP: Quota = { entity: { ip: "10.0.0.7" }, values: { connection_creation_rate: 20 } };
const ALL = [DEFAULT_USER, ALICE, ALICE_DEFAULT_CLIENT, APP, IP];

/** What GET quotas answers for its entity_type, as the server filters. */
function byType(url: string, rows: Quota[]): Quota[] {
  const types = new URL(url, "http://x").searchParams.get("entity_type");
  if (!types) return rows;
  const want = types.split(",").sort().join(",");
  const kind = (q: Quota) =>
    [q.entity.user !== undefined && "users", q.entity.client_id !== undefined && "clients", q.entity.ip !== undefined && "ips"]
      .filter(Boolean)
      .sort()
      .join(",");
  return rows.filter((q) => kind(q) === want);
}

function stubQuotas({
  user = ADMIN,
  list = () => ALL,
  onPatch = () => json({ entity: {}, values: {}, before: {} }),
}: {
  user?: typeof ADMIN;
  list?: () => Quota[];
  onPatch?: (body: Record<string, unknown>) => StubResponse;
} = {}) {
  return stubFetch({
    "/api/v1/me": json(user),
    "/api/v1/clusters/local/topics": json(TOPICS),
    [QUOTAS_URL]: (url, init) =>
      init?.method === "PATCH" ? onPatch(JSON.parse(String(init.body)) as Record<string, unknown>) : json(byType(url, list())),
  });
}

function patches(fetch: ReturnType<typeof stubFetch>): unknown[] {
  return bodiesTo(fetch, QUOTAS_URL, "PATCH");
}

async function openPage(path = "/clusters/local/quotas") {
  renderApp(path);
  await screen.findByTestId("quota-row-0");
}

describe("QuotasPage", () => {
  it("lists every entity with its values in units, and asks the server again for a filter", async () => {
    const fetch = stubQuotas();
    await openPage();
    expect(document.title).toBe("Quotas · local · Kafka Console");
    expect(screen.getByTestId("tab-quotas")).toHaveAttribute("aria-current", "page");
    expect(screen.getByTestId("tab-scram-users")).toHaveTextContent("SCRAM users");
    expect(screen.queryByTestId("admin-only")).toBeNull();
    expect(screen.getByTestId("quotas-count")).toHaveTextContent("5 entities");

    expect(screen.getByTestId("quota-row-1")).toHaveAttribute("data-entity", "user alice");
    expect(cells("quota-row-1")).toEqual(["user alice", "1.0 MiB/s", "—", "12.5 %", "—", "—"]);
    expect(cells("quota-row-0")).toEqual(["default user", "—", "—", "—", "10 partitions/s", "—"]);
    expect(cells("quota-row-2")[0]).toBe("user alice, default client id");
    expect(cells("quota-row-3")).toEqual(["client id orders-app", "—", "5.0 GiB/s", "—", "—", "—"]);
    expect(cells("quota-row-4")).toEqual(["ip 10.0.0.7", "—", "—", "—", "—", "20 connections/s"]);
    expect(screen.getByTestId("quota-value-1-producer_byte_rate")).toHaveAttribute("title", "1,048,576 bytes/s");

    // The pairs: asked with entity_type=users,clients; only the user + client id keys as columns.
    change("quotas-filter-type", "users,clients");
    await waitFor(() => expect(screen.getByTestId("quotas-count")).toHaveTextContent("1 entity"));
    const queries = callsTo(fetch, QUOTAS_URL).map(([url]) => new URL(String(url), "http://x").searchParams.get("entity_type"));
    expect(queries).toContain("users,clients");
    expect(cells("quota-row-0")).toEqual(["user alice, default client id", "—", "2.0 KiB/s", "—", "—"]);

    change("quotas-filter-type", "ips");
    await waitFor(() => expect(cells("quota-row-0")).toEqual(["ip 10.0.0.7", "20 connections/s"]));
  });

  it("says so when there are none", async () => {
    stubQuotas({ list: () => [] });
    renderApp("/clusters/local/quotas?entity_type=ips");
    expect(await screen.findByTestId("quotas-empty")).toHaveTextContent("No IP address (nor the default ip) has quotas.");
    expect(screen.getByTestId("quotas-filter-type")).toHaveValue("ips");
  });

  it("loads a clicked row into the form, sets one value and removes another, then shows before → after", async () => {
    let rows = ALL;
    const answer: QuotaChanged = {
      entity: { user: "alice" },
      before: ALICE.values,
      values: { producer_byte_rate: 2 * 1_048_576, consumer_byte_rate: 4096 },
    };
    const fetch = stubQuotas({
      list: () => rows,
      onPatch: () => {
        rows = [DEFAULT_USER, { entity: answer.entity, values: answer.values }, ALICE_DEFAULT_CLIENT, APP, IP];
        return json(answer);
      },
    });
    await openPage();
    click("quota-row-1");
    expect(screen.getByTestId("quota-row-1")).toHaveAttribute("aria-selected", "true");
    expect(screen.getByTestId("quota-user-mode")).toHaveValue("name");
    expect(screen.getByTestId("quota-user")).toHaveValue("alice");
    expect(screen.getByTestId("quota-client-id-mode")).toHaveValue("none");
    expect(screen.getByTestId("quota-entity")).toHaveTextContent("user alice");
    // What it has now, with a Remove tick for each key set.
    expect(screen.getByTestId("quota-now-producer_byte_rate")).toHaveTextContent("1.0 MiB/s");
    expect(screen.getByTestId("quota-now-consumer_byte_rate")).toHaveTextContent("not set");
    expect(screen.getByTestId("quota-remove-request_percentage")).not.toBeChecked();
    expect(screen.queryByTestId("quota-remove-consumer_byte_rate")).toBeNull();

    change("quota-input-producer_byte_rate", "2097152");
    expect(screen.getByTestId("quota-typed-producer_byte_rate")).toHaveTextContent("= 2.0 MiB/s");
    change("quota-input-consumer_byte_rate", "4096");
    click("quota-remove-request_percentage");
    expect(screen.getByTestId("quota-input-request_percentage")).toBeDisabled();
    click("quota-save");

    const result = await screen.findByTestId("quota-result");
    expect(patches(fetch)).toEqual([
      {
        entity: { user: "alice" },
        set: { producer_byte_rate: 2_097_152, consumer_byte_rate: 4096 },
        delete: ["request_percentage"],
      },
    ]);
    expect(result).toHaveTextContent("Saved the quotas of user alice.");
    expect(cells("quota-result-producer_byte_rate")).toEqual(["Producer byte rate", "1.0 MiB/s", "2.0 MiB/s"]);
    expect(cells("quota-result-consumer_byte_rate")).toEqual(["Consumer byte rate", "not set", "4.0 KiB/s"]);
    expect(cells("quota-result-request_percentage")).toEqual(["Request percentage", "12.5 %", "not set"]);
    // Nothing typed or ticked any more; the entity's new values show, and the list is asked again.
    expect(screen.getByTestId("quota-input-producer_byte_rate")).toHaveValue("");
    expect(screen.getByTestId("quota-now-producer_byte_rate")).toHaveTextContent("2.0 MiB/s");
    await waitFor(() => expect(cells("quota-row-1")[1]).toBe("2.0 MiB/s"));
    expect(screen.queryByTestId("quota-remove-request_percentage")).toBeNull();
  });

  it("names a default entity and an ip", async () => {
    const fetch = stubQuotas({ onPatch: (body) => json({ entity: body.entity, values: body.set, before: {} }) });
    await openPage();
    change("quota-user-mode", "default");
    change("quota-client-id-mode", "name");
    change("quota-client-id", "billing");
    expect(screen.getByTestId("quota-entity")).toHaveTextContent("default user, client id billing");
    change("quota-input-request_percentage", "50");
    click("quota-save");
    await screen.findByTestId("quota-result");

    click("quota-target-ip");
    expect(screen.queryByTestId("quota-input-producer_byte_rate")).toBeNull();
    change("quota-ip-mode", "default");
    change("quota-input-connection_creation_rate", "30");
    click("quota-save");
    await waitFor(() => expect(patches(fetch)).toHaveLength(2));
    expect(patches(fetch)).toEqual([
      { entity: { user: DEFAULT, client_id: "billing" }, set: { request_percentage: 50 }, delete: [] },
      { entity: { ip: DEFAULT }, set: { connection_creation_rate: 30 }, delete: [] },
    ]);
  });

  it("says what is missing before sending anything", async () => {
    const fetch = stubQuotas();
    await openPage();
    click("quota-save");
    expect(screen.getByTestId("field-error-user")).toHaveTextContent("Give the user name");
    expect(screen.getByTestId("field-error-change")).toHaveTextContent("Type a value to set, or tick one to remove.");
    change("quota-user", "carol");
    expect(screen.queryByTestId("field-error-user")).toBeNull();
    change("quota-input-producer_byte_rate", "1.5");
    click("quota-save");
    expect(screen.getByTestId("field-error-producer_byte_rate")).toHaveTextContent("Give a whole number of bytes/s.");
    expect(patches(fetch)).toEqual([]);
  });

  it("shows a 400 beside the field its details.field names, anything else in a banner", async () => {
    let answer: StubResponse = apiError(400, "invalid", "set.request_percentage: request_percentage is at most 1.7976931348623157e+308.", {
      field: "set.request_percentage",
    });
    stubQuotas({ onPatch: () => answer });
    await openPage();
    click("quota-row-1");
    // A value the server refuses comes back beside its key.
    change("quota-input-request_percentage", "99");
    click("quota-save");
    expect(await screen.findByTestId("field-error-request_percentage")).toHaveTextContent("At most 1.7976931348623157e+308.");

    answer = apiError(400, "invalid", "delete[0]: producer_byte_rate is not set on user-principal 'alice'.", { field: "delete[0]" });
    change("quota-input-request_percentage", "");
    click("quota-remove-producer_byte_rate");
    click("quota-save");
    expect(await screen.findByTestId("field-error-producer_byte_rate")).toHaveTextContent("Not set on user-principal 'alice'.");
    expect(screen.queryByTestId("field-error-request_percentage")).toBeNull();

    answer = apiError(502, "kafka_error", "Kafka answered SECURITY_DISABLED.");
    click("quota-save");
    const banner = await screen.findByTestId("error-banner");
    expect(banner).toHaveTextContent("Could not change the quotas: Kafka answered SECURITY_DISABLED.");
    expect(screen.queryByTestId("field-error-producer_byte_rate")).toBeNull();
  });

  it("has no tab for anyone below admin, and says the page is for admins", async () => {
    stubFetch({
      "/api/v1/me": json(VIEWER),
      "/api/v1/clusters/local/topics": json(TOPICS),
      [QUOTAS_URL]: apiError(403, "forbidden", "Your role may not do this."),
    });
    renderApp("/clusters/local/topics");
    await screen.findByTestId("topics-table");
    expect(screen.getByTestId("tab-acls")).toBeInTheDocument();
    expect(screen.queryByTestId("tab-quotas")).toBeNull();
    expect(screen.queryByTestId("tab-scram-users")).toBeNull();
  });

  it("tells a viewer who opens the page that it is for admins", async () => {
    stubFetch({ "/api/v1/me": json(VIEWER), [QUOTAS_URL]: apiError(403, "forbidden", "Your role may not do this.") });
    renderApp("/clusters/local/quotas");
    expect(await screen.findByTestId("admin-only")).toHaveTextContent("Only admins can see and change client quotas");
    expect(await screen.findByTestId("error-banner")).toHaveTextContent("Could not load the quotas");
    expect(screen.getByTestId("admin-only")).toHaveTextContent("for your role (viewer)");
    expect(screen.queryByTestId("quota-form")).toBeNull();
    expect(screen.queryByTestId("quotas-filter")).toBeNull();
  });
});

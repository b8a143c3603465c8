import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Acl, AclCreated, AclDeleted } from "../api/types";
import { cells, change, click } from "../test/byTestId";
import { apiError, bodiesTo, callsTo, json, type Route, stubFetch, type StubResponse } from "../test/fetchStub";
import { ADMIN, VIEWER } from "../test/fixtures";
import { renderApp } from "../test/render";
import { expectScreenful, giveScrollBoxHeight, renderedRowIds } from "../test/virtualTable";

giveScrollBoxHeight("acls");

const ACLS_URL = "/api/v1/clusters/local/acls";
const DELETE_URL = "/api/v1/clusters/local/acls/delete";

function acl(fields: Partial<Acl> & Pick<Acl, "resource_name" | "principal" | "operation">): Acl {
  return { resource_type: "TOPIC", pattern_type: "LITERAL", host: "*", permission: "ALLOW", ...fields };
}

const ALICE_READ = acl({ resource_name: "orders", principal: "User:alice", operation: "READ" });
const MALLORY_DENY = acl({ resource_name: "orders", principal: "User:mallory", operation: "WRITE", permission: "DENY", host: "10.0.0.7" });
const ALICE_PREFIX = acl({ resource_name: "orders-", pattern_type: "PREFIXED", principal: "User:alice", operation: "DESCRIBE" });
const APP_GROUP = acl({ resource_type: "GROUP", resource_name: "orders-app", principal: "User:alice", operation: "READ" });
/** In the table's default order (resource type, then name, pattern, principal, …). */
const ACLS: Acl[] = [ALICE_READ, MALLORY_DENY, ALICE_PREFIX, APP_GROUP];

/** GET acls answers `list`; POST acls `onCreate` (by its body); POST acls/delete `onDelete`. */
function stubAcls({
  user = ADMIN,
  list = () => ACLS,
  onCreate = () => json({ dry_run: true, bindings: [], existing: [] }),
  onDelete = () => json({ dry_run: true, bindings: [] }),
}: {
  user?: typeof ADMIN;
  list?: () => Acl[];
  onCreate?: (body: Record<string, unknown>) => StubResponse;
  onDelete?: (body: Record<string, unknown>) => StubResponse;
} = {}) {
  const routes: Record<string, Route> = {
    "/api/v1/me": json(user),
    [ACLS_URL]: (_url, init) =>
      (init?.method ?? "GET") === "POST" ? onCreate(JSON.parse(String(init?.body)) as Record<string, unknown>) : json(list()),
    [DELETE_URL]: (_url, init) => onDelete(JSON.parse(String(init?.body)) as Record<string, unknown>),
  };
  return stubFetch(routes);
}

/** The query of every GET of the list, in order. */
function listQueries(fetch: ReturnType<typeof stubFetch>): Record<string, string>[] {
  return callsTo(fetch, ACLS_URL).map(([url]) => Object.fromEntries(new URL(String(url), "http://x").searchParams));
}

async function openPage(path = "/clusters/local/acls") {
  renderApp(path);
  await screen.findByTestId("acls-table");
}

describe("AclsPage", () => {
  it("lists what the URL's filter selects, DENY marked, and asks again as the filter changes", async () => {
    const fetch = stubAcls({ user: VIEWER, list: () => [MALLORY_DENY, ALICE_READ] });
    await openPage("/clusters/local/acls?resource_type=TOPIC&resource_name=orders&pattern_type=match&principal=User:alice");
    expect(document.title).toBe("ACLs · local · Kafka Console");
    expect(screen.getByTestId("acls-page")).toBeInTheDocument();
    expect(screen.getByTestId("tab-acls")).toHaveAttribute("aria-current", "page");
    expect(screen.getByTestId("tab-acls")).toHaveTextContent("ACLs");
    expect(listQueries(fetch)).toEqual([
      { resource_type: "TOPIC", resource_name: "orders", pattern_type: "match", principal: "User:alice" },
    ]);
    // The bar shows the URL's filter.
    expect(screen.getByTestId("acls-filter-type")).toHaveValue("TOPIC");
    expect(screen.getByTestId("acls-filter-name")).toHaveValue("orders");
    expect(screen.getByTestId("acls-filter-pattern")).toHaveValue("match");
    expect(screen.getByTestId("acls-filter-principal")).toHaveValue("User:alice");

    // Sorted by resource type, name, pattern, principal: alice's READ first.
    expect(cells("acl-row-0")).toEqual(["TOPIC", "orders", "LITERAL", "User:alice", "*", "READ", "ALLOW"]);
    expect(cells("acl-row-1")).toEqual(["TOPIC", "orders", "LITERAL", "User:mallory", "10.0.0.7", "WRITE", "DENY"]);
    expect(screen.getByTestId("acl-row-1")).toHaveAttribute("data-permission", "DENY");
    expect(within(screen.getByTestId("acl-row-1")).getByText("DENY")).toHaveClass("badge-error");
    expect(within(screen.getByTestId("acl-row-0")).getByText("ALLOW")).toHaveClass("badge-ok");
    expect(screen.getByTestId("acls-count")).toHaveAttribute("data-count", "2");

    // Another type: asked at once; the principal box asks once typing pauses.
    change("acls-filter-type", "GROUP");
    await waitFor(() => expect(listQueries(fetch).at(-1)).toMatchObject({ resource_type: "GROUP" }));
    change("acls-filter-principal", "");
    change("acls-filter-name", "");
    await waitFor(() => expect(listQueries(fetch).at(-1)).toEqual({ resource_type: "GROUP", pattern_type: "match" }));
    change("acls-filter-type", "");
    change("acls-filter-pattern", "any");
    await waitFor(() => expect(listQueries(fetch).at(-1)).toEqual({ pattern_type: "any" }));

    // A column's header sorts by it.
    click("sort-principal");
    expect(cells("acl-row-0")[3]).toBe("User:alice");
    click("sort-principal");
    expect(cells("acl-row-0")[3]).toBe("User:mallory");
  });

  it("shows no add or delete controls to a viewer", async () => {
    stubAcls({ user: VIEWER });
    await openPage("/clusters/local/acls?resource_type=TOPIC&resource_name=orders");
    expect(screen.getByTestId("acl-row-0")).toBeInTheDocument();
    expect(screen.queryByTestId("acls-add-open")).toBeNull();
    expect(screen.queryByTestId("acls-add")).toBeNull();
    expect(screen.queryByTestId("acl-delete-0")).toBeNull();
    expect(screen.queryByTestId("acls-delete-matching")).toBeNull();
    // No actions column either.
    expect(within(screen.getByTestId("acls-table")).getAllByRole("columnheader")).toHaveLength(7);
  });

  it("renders only a screenful of thousands of bindings", async () => {
    const many = Array.from({ length: 3000 }, (_, i) =>
      acl({ resource_name: `topic-${String(i).padStart(4, "0")}`, principal: "User:alice", operation: "READ" }),
    );
    stubAcls({ user: VIEWER, list: () => many });
    await openPage();
    expect(screen.getByTestId("acls-table")).toHaveAttribute("aria-rowcount", "3001");
    expectScreenful(renderedRowIds("acls", "acl-row-"));
  });

  it("previews the producer set, then creates exactly it, and the list is asked again", async () => {
    const toCreate = [
      acl({ resource_name: "orders", principal: "User:app", operation: "WRITE" }),
      acl({ resource_name: "orders", principal: "User:app", operation: "CREATE" }),
      acl({ resource_name: "payments", principal: "User:app", operation: "WRITE" }),
      acl({ resource_type: "TRANSACTIONAL_ID", resource_name: "tx-1", principal: "User:app", operation: "WRITE" }),
    ];
    const existing = [acl({ resource_name: "orders", principal: "User:app", operation: "DESCRIBE" })];
    const fetch = stubAcls({
      onCreate: (body) => json({ dry_run: body.dry_run === true, bindings: toCreate, existing } satisfies AclCreated),
    });
    await openPage();
    const gets = callsTo(fetch, ACLS_URL).length;

    click("acls-add-open");
    click("acls-add-mode-producer");
    expect(screen.getByTestId("acls-add-mode-producer")).toHaveAttribute("aria-pressed", "true");
    change("acls-add-principal", "User:app");
    change("acls-add-topics", "orders, payments,");
    change("acls-add-transactional-ids", "tx-1");
    click("acls-add-idempotent");
    expect(screen.getByTestId("acls-create")).toBeDisabled();
    click("acls-preview");

    const created = await screen.findByTestId("acls-preview-new");
    expect(created).toHaveAttribute("data-count", "4");
    expect(cells("acls-preview-new-row-3")).toEqual(["TRANSACTIONAL_ID", "tx-1", "LITERAL", "User:app", "*", "WRITE", "ALLOW"]);
    expect(screen.getByTestId("acls-preview-existing")).toHaveAttribute("data-count", "1");
    expect(bodiesTo(fetch, ACLS_URL)).toEqual([
      {
        producer: {
          principal: "User:app",
          topics: ["orders", "payments"],
          transactional_ids: ["tx-1"],
          idempotent: true,
          pattern_type: "LITERAL",
          host: "*",
        },
        dry_run: true,
      },
    ]);

    // Changing the form makes the preview stale: nothing to create until previewed again.
    change("acls-add-pattern-type", "PREFIXED");
    expect(screen.getByTestId("acls-preview-stale")).toBeInTheDocument();
    expect(screen.getByTestId("acls-create")).toBeDisabled();
    change("acls-add-pattern-type", "LITERAL");
    expect(screen.queryByTestId("acls-preview-stale")).toBeNull();

    expect(screen.getByTestId("acls-create")).toHaveTextContent("Create 4 bindings");
    click("acls-create");
    expect(await screen.findByTestId("acls-created")).toHaveTextContent("Created 4 bindings (1 already existed).");
    expect(bodiesTo(fetch, ACLS_URL)[1]).toEqual({ ...(bodiesTo(fetch, ACLS_URL)[0] as object), dry_run: false });
    expect(screen.queryByTestId("acls-preview-result")).toBeNull();
    await waitFor(() => expect(callsTo(fetch, ACLS_URL).length).toBeGreaterThan(gets));
  });

  it("sends the consumer set and one binding as the API names them", async () => {
    const fetch = stubAcls();
    await openPage();
    click("acls-add-open");
    click("acls-add-mode-consumer");
    change("acls-add-principal", "User:reader");
    change("acls-add-topics", "orders");
    change("acls-add-groups", "orders-app, audit");
    click("acls-preview");
    await screen.findByTestId("acls-preview-nothing");
    expect(bodiesTo(fetch, ACLS_URL).at(-1)).toEqual({
      consumer: { principal: "User:reader", topics: ["orders"], groups: ["orders-app", "audit"], pattern_type: "LITERAL", host: "*" },
      dry_run: true,
    });

    click("acls-add-mode-binding");
    change("acls-add-resource-type", "CLUSTER");
    change("acls-add-resource-name", "kafka-cluster");
    change("acls-add-operation", "ALTER_CONFIGS");
    change("acls-add-permission", "DENY");
    click("acls-preview");
    await waitFor(() =>
      expect(bodiesTo(fetch, ACLS_URL).at(-1)).toEqual({
        bindings: [
          {
            resource_type: "CLUSTER",
            resource_name: "kafka-cluster",
            pattern_type: "LITERAL",
            principal: "User:reader",
            host: "*",
            operation: "ALTER_CONFIGS",
            permission: "DENY",
          },
        ],
        dry_run: true,
      }),
    );
  });

  it("shows a 400 beside the field its details.field names, anything else in a banner", async () => {
    let answer = apiError(400, "invalid", "bindings[0].principal: 'alice' is not Type:name, e.g. User:alice.", {
      field: "bindings[0].principal",
    });
    const fetch = stubAcls({ onCreate: () => answer });
    await openPage();
    click("acls-add-open");
    click("acls-add-mode-binding");
    // What the form lacks is said before anything is sent.
    click("acls-preview");
    expect(await screen.findByTestId("field-error-principal")).toHaveTextContent("Give the principal");
    expect(screen.getByTestId("field-error-resource_name")).toHaveTextContent("Give the resource name.");
    expect(bodiesTo(fetch, ACLS_URL)).toEqual([]);

    change("acls-add-principal", "alice");
    change("acls-add-resource-name", "orders");
    expect(screen.queryByTestId("field-error-principal")).toBeNull();
    click("acls-preview");
    await waitFor(() => expect(screen.getByTestId("field-error-principal")).toHaveTextContent(/^'alice' is not Type:name, e\.g\. User:alice\.$/));
    expect(screen.getByTestId("acls-add-principal")).toHaveAttribute("aria-invalid", "true");
    expect(screen.queryByTestId("error-banner")).toBeNull();

    // In the producer set: producer.topics[1] at the topics.
    answer = apiError(400, "invalid", "producer.topics[1]: '' is not a topic name.", { field: "producer.topics[1]" });
    click("acls-add-mode-producer");
    change("acls-add-principal", "User:app");
    change("acls-add-topics", "orders,x");
    click("acls-preview");
    expect(await screen.findByTestId("field-error-topics")).toHaveTextContent(/^'' is not a topic name\.$/);

    answer = apiError(502, "kafka_error", "SECURITY_DISABLED: no authorizer is configured on the broker.");
    click("acls-preview");
    expect(await screen.findByTestId("error-banner")).toHaveTextContent("no authorizer is configured");
    expect(screen.queryByTestId("field-error-topics")).toBeNull();
  });

  it("deletes a row: previews exactly its filter, lists it in the confirmation, then deletes it", async () => {
    const fetch = stubAcls({
      onDelete: (body) => json({ dry_run: body.dry_run === true, bindings: [MALLORY_DENY] } satisfies AclDeleted),
    });
    await openPage();
    const gets = callsTo(fetch, ACLS_URL).length;
    // Row 2 (GROUP first): mallory's DENY.
    expect(cells("acl-row-2")[3]).toBe("User:mallory");
    click("acl-delete-2");

    const preview = await screen.findByTestId("acls-delete-preview");
    const filter = {
      resource_type: "TOPIC",
      resource_name: "orders",
      pattern_type: "literal",
      principal: "User:mallory",
      host: "10.0.0.7",
      operation: "WRITE",
      permission: "DENY",
    };
    expect(bodiesTo(fetch, DELETE_URL)).toEqual([{ filter, dry_run: true }]);
    expect(preview).toHaveAttribute("data-count", "1");
    expect(cells("acls-delete-preview-table-row-0")).toEqual(["TOPIC", "orders", "LITERAL", "User:mallory", "10.0.0.7", "WRITE", "DENY"]);
    expect(screen.getByTestId("acls-delete-confirm")).toHaveTextContent("Delete 1 binding");

    click("acls-delete-confirm");
    expect(await screen.findByTestId("acls-deleted")).toHaveTextContent("Deleted 1 binding.");
    expect(bodiesTo(fetch, DELETE_URL)).toEqual([
      { filter, dry_run: true },
      { filter, dry_run: false },
    ]);
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
    await waitFor(() => expect(callsTo(fetch, ACLS_URL).length).toBeGreaterThan(gets));
  });

  it("deletes what the filter matches after listing it, and cancelling deletes nothing", async () => {
    const fetch = stubAcls({
      onDelete: (body) => json({ dry_run: body.dry_run === true, bindings: [ALICE_READ, MALLORY_DENY] } satisfies AclDeleted),
    });
    // Without a resource name there is no "Delete matching…".
    await openPage("/clusters/local/acls?resource_type=TOPIC");
    expect(screen.queryByTestId("acls-delete-matching")).toBeNull();
    change("acls-filter-name", "orders");
    click("acls-delete-matching");
    const preview = await screen.findByTestId("acls-delete-preview");
    expect(preview).toHaveAttribute("data-count", "2");
    const filter = { resource_type: "TOPIC", resource_name: "orders", pattern_type: "literal" };
    expect(bodiesTo(fetch, DELETE_URL)).toEqual([{ filter, dry_run: true }]);

    click("confirm-dismiss");
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
    expect(bodiesTo(fetch, DELETE_URL)).toHaveLength(1);

    click("acls-delete-matching");
    await screen.findByTestId("acls-delete-preview");
    expect(screen.getByTestId("acls-delete-confirm")).toHaveTextContent("Delete 2 bindings");
    click("acls-delete-confirm");
    expect(await screen.findByTestId("acls-deleted")).toHaveAttribute("data-count", "2");
    expect(bodiesTo(fetch, DELETE_URL).at(-1)).toEqual({ filter, dry_run: false });
  });

  it("filters by a principal clicked in the list and sums up what it may do, by resource", async () => {
    const ALICE_DENY = acl({ resource_name: "orders", principal: "User:alice", operation: "WRITE", permission: "DENY" });
    const all = [...ACLS, ALICE_DENY];
    // The server's principal filter: exactly that principal.
    const fetch = stubFetch({
      "/api/v1/me": json(VIEWER),
      [ACLS_URL]: (url) => {
        const principal = new URL(url, "http://x").searchParams.get("principal");
        return json(principal ? all.filter((a) => a.principal === principal) : all);
      },
    });
    await openPage("/clusters/local/acls?resource_type=TOPIC&resource_name=orders&pattern_type=match");
    expect(screen.queryByTestId("acl-principal-summary")).toBeNull();
    expect(screen.getByTestId("acl-principal-0")).toHaveTextContent("User:alice");

    click("acl-principal-0");
    const summary = await screen.findByTestId("acl-principal-summary");
    // Only the principal now: the resource filters are dropped, so the summary is all of it.
    expect(screen.getByTestId("acls-filter-principal")).toHaveValue("User:alice");
    expect(screen.getByTestId("acls-filter-name")).toHaveValue("");
    expect(screen.getByTestId("acls-filter-type")).toHaveValue("");
    await waitFor(() => expect(listQueries(fetch).at(-1)).toEqual({ principal: "User:alice" }));
    await waitFor(() => expect(summary).toHaveAttribute("data-bindings", "4"));
    expect(summary).toHaveAttribute("data-principal", "User:alice");
    expect(summary).toHaveAttribute("data-count", "3");
    expect(summary).toHaveTextContent("What User:alice may do");
    expect(screen.queryByTestId("acl-principal-narrowed")).toBeNull();

    expect(cells("acl-summary-row-0")).toEqual(["TOPIC", "orders", "literal", "READ", "WRITE"]);
    expect(screen.getByTestId("acl-summary-allowed-0")).toHaveAttribute("data-operations", "READ");
    expect(screen.getByTestId("acl-summary-denied-0")).toHaveAttribute("data-operations", "WRITE");
    expect(within(screen.getByTestId("acl-summary-denied-0")).getByText("WRITE")).toHaveClass("badge-error");
    expect(screen.getByTestId("acl-summary-row-1")).toHaveAttribute("data-pattern", "prefixed");
    expect(cells("acl-summary-row-1")).toEqual(["TOPIC", "orders-", "prefixed every topic starting with it", "DESCRIBE", "—"]);
    expect(cells("acl-summary-row-2")).toEqual(["GROUP", "orders-app", "literal", "READ", "—"]);
    // A literal topic or group links to its page.
    expect(within(screen.getByTestId("acl-summary-row-2")).getByRole("link", { name: "orders-app" })).toHaveAttribute(
      "href",
      "/clusters/local/groups/orders-app",
    );

    // A resource filter on top: the summary says it is narrowed, and offers all of it again.
    change("acls-filter-type", "GROUP");
    expect(await screen.findByTestId("acl-principal-narrowed")).toBeInTheDocument();
    await waitFor(() => expect(listQueries(fetch).at(-1)).toEqual({ resource_type: "GROUP", principal: "User:alice" }));
    click("acl-principal-all");
    await waitFor(() => expect(listQueries(fetch).at(-1)).toEqual({ principal: "User:alice" }));
    expect(screen.queryByTestId("acl-principal-narrowed")).toBeNull();

    // User:* applies to every user: one click away. Clearing the principal ends the view.
    click("acl-principal-wildcard");
    expect(screen.getByTestId("acls-filter-principal")).toHaveValue("User:*");
    await waitFor(() => expect(screen.getByTestId("acl-principal-summary")).toHaveAttribute("data-principal", "User:*"));
    expect(await screen.findByTestId("acl-principal-empty")).toHaveTextContent("No binding names this principal.");
    click("acl-principal-clear");
    await waitFor(() => expect(screen.queryByTestId("acl-principal-summary")).toBeNull());
    expect(screen.getByTestId("acls-filter-principal")).toHaveValue("");
  });
});

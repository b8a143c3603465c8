import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Acl } from "../../api/types";
import { cells } from "../../test/byTestId";
import { apiError, json, stubFetch, type StubResponse } from "../../test/fetchStub";
import { ORDERS, ORDERS_APP, VIEWER } from "../../test/fixtures";
import { renderApp } from "../../test/render";

const ACLS_URL = "/api/v1/clusters/local/acls";
const TOPIC_URL = "/api/v1/clusters/local/topics/orders";
const GROUP_URL = "/api/v1/clusters/local/groups/orders-app";

function acl(fields: Partial<Acl> & Pick<Acl, "resource_name" | "principal" | "operation">): Acl {
  return { resource_type: "TOPIC", pattern_type: "LITERAL", host: "*", permission: "ALLOW", ...fields };
}

/** What `match` answers for the topic orders: its literal binding, a prefix, the wildcard, a DENY. */
const APPLYING: Acl[] = [
  acl({ resource_name: "*", principal: "User:*", operation: "DESCRIBE" }),
  acl({ resource_name: "ord", pattern_type: "PREFIXED", principal: "User:bob", operation: "READ" }),
  acl({ resource_name: "orders", principal: "User:alice", operation: "READ" }),
  acl({ resource_name: "orders", principal: "User:mallory", operation: "WRITE", permission: "DENY", host: "10.0.0.7" }),
];

function stub(acls: () => StubResponse) {
  return stubFetch({
    "/api/v1/me": json(VIEWER),
    [TOPIC_URL]: json(ORDERS),
    [GROUP_URL]: json(ORDERS_APP),
    [`${GROUP_URL}/offset-resets`]: json([]),
    [ACLS_URL]: () => acls(),
  });
}

function aclQueries(fetch: ReturnType<typeof stubFetch>): Record<string, string>[] {
  return fetch.mock.calls
    .filter(([url]) => String(url).split("?")[0] === ACLS_URL)
    .map(([url]) => Object.fromEntries(new URL(String(url), "http://x").searchParams));
}

describe("AppliesToPanel on the topic page", () => {
  it("is the ACLs tab: what applies to the topic, most specific first, DENY marked, with why", async () => {
    const fetch = stub(() => json(APPLYING));
    renderApp("/clusters/local/topics/orders");
    await screen.findByTestId("partitions-table");
    // The overview asks nothing of the ACLs.
    expect(aclQueries(fetch)).toEqual([]);
    expect(screen.queryByTestId("acl-panel")).toBeNull();

    fireEvent.click(screen.getByTestId("topic-tab-acls"));
    expect(await screen.findByTestId("acl-panel-table")).toBeInTheDocument();
    expect(screen.getByTestId("topic-tab-acls")).toHaveAttribute("aria-current", "page");
    expect(aclQueries(fetch)).toEqual([{ resource_type: "TOPIC", resource_name: "orders", pattern_type: "match" }]);
    expect(screen.getByTestId("acl-panel")).toHaveAttribute("data-state", "list");
    expect(screen.getByTestId("acl-panel")).toHaveAttribute("data-count", "4");

    expect(cells("acl-panel-row-0")).toEqual(["literal", "orders", "User:alice", "*", "READ", "ALLOW", "Set on this topic by name."]);
    expect(cells("acl-panel-row-1")).toEqual([
      "literal", "orders", "User:mallory", "10.0.0.7", "WRITE", "DENY", "Set on this topic by name.",
    ]);
    expect(screen.getByTestId("acl-panel-row-1")).toHaveAttribute("data-permission", "DENY");
    expect(within(screen.getByTestId("acl-panel-row-1")).getByText("DENY")).toHaveClass("badge-error");
    expect(screen.getByTestId("acl-panel-row-2")).toHaveAttribute("data-pattern", "prefixed");
    expect(screen.getByTestId("acl-panel-why-2")).toHaveTextContent(
      "Prefixed on “ord”: applies to every topic whose name starts with it, as “orders” does.",
    );
    expect(screen.getByTestId("acl-panel-row-3")).toHaveAttribute("data-pattern", "wildcard");
    expect(cells("acl-panel-row-3")[0]).toBe("*");
    expect(screen.getByTestId("acl-panel-why-3")).toHaveTextContent("The wildcard * applies to every topic.");

    // Each principal leads to its view on the ACLs page; the panel to the page with its filter.
    expect(within(screen.getByTestId("acl-panel-row-0")).getByRole("link", { name: "User:alice" })).toHaveAttribute(
      "href",
      "/clusters/local/acls?principal=User%3Aalice",
    );
    expect(screen.getByTestId("acl-panel-manage")).toHaveTextContent("Manage on the ACLs page");
    expect(screen.getByTestId("acl-panel-manage")).toHaveAttribute(
      "href",
      "/clusters/local/acls?resource_type=TOPIC&resource_name=orders&pattern_type=match",
    );
    expect(screen.queryByTestId("error-banner")).toBeNull();
  });

  it("says no ACL applies, neutrally, when none does", async () => {
    stub(() => json([]));
    renderApp("/clusters/local/topics/orders?tab=acls");
    expect(await screen.findByTestId("acl-panel-empty")).toHaveTextContent(/^No ACL applies to this topic\.$/);
    expect(screen.getByTestId("acl-panel-hint")).toHaveTextContent("decided by the cluster's authorizer settings");
    expect(screen.getByTestId("acl-panel")).toHaveAttribute("data-state", "empty");
    expect(screen.queryByTestId("acl-panel-table")).toBeNull();
  });

  it("shows a quiet notice, not an error, on a cluster without an authorizer", async () => {
    stub(() =>
      apiError(502, "kafka_error", "Kafka refused DescribeAcls: SECURITY_DISABLED.", { kafka_error: "SECURITY_DISABLED" }),
    );
    renderApp("/clusters/local/topics/orders?tab=acls");
    expect(await screen.findByTestId("acl-panel-disabled")).toHaveTextContent("without an authorizer");
    expect(screen.getByTestId("acl-panel")).toHaveAttribute("data-state", "disabled");
    expect(screen.queryByTestId("error-banner")).toBeNull();
    expect(screen.queryByTestId("acl-panel-empty")).toBeNull();
  });

  it("shows any other failure in a banner, with a retry", async () => {
    let fail = true;
    const fetch = stub(() =>
      fail ? apiError(502, "kafka_unavailable", "Kafka did not answer in time.") : json(APPLYING.slice(2, 3)),
    );
    renderApp("/clusters/local/topics/orders?tab=acls");
    const banner = await screen.findByTestId("error-banner");
    expect(banner).toHaveTextContent("Could not load the ACLs: Kafka did not answer in time.");
    expect(screen.getByTestId("acl-panel")).toHaveAttribute("data-state", "error");
    fail = false;
    fireEvent.click(within(banner).getByRole("button", { name: "Retry now" }));
    expect(await screen.findByTestId("acl-panel-row-0")).toBeInTheDocument();
    expect(screen.queryByTestId("error-banner")).toBeNull();
    expect(aclQueries(fetch)).toHaveLength(2);
  });
});

describe("AppliesToPanel on the group page", () => {
  it("lists what applies to the group, as GROUP with match", async () => {
    const fetch = stub(() =>
      json([
        acl({ resource_type: "GROUP", resource_name: "orders-", pattern_type: "PREFIXED", principal: "User:app", operation: "READ" }),
        acl({ resource_type: "GROUP", resource_name: "orders-app", principal: "User:eve", operation: "READ", permission: "DENY" }),
      ]),
    );
    renderApp("/clusters/local/groups/orders-app");
    expect(await screen.findByTestId("acl-panel-table")).toBeInTheDocument();
    expect(aclQueries(fetch)).toEqual([{ resource_type: "GROUP", resource_name: "orders-app", pattern_type: "match" }]);
    expect(screen.getByTestId("acl-panel")).toHaveAttribute("data-resource-type", "GROUP");
    expect(cells("acl-panel-row-0")).toEqual(["literal", "orders-app", "User:eve", "*", "READ", "DENY", "Set on this group by name."]);
    expect(screen.getByTestId("acl-panel-why-1")).toHaveTextContent(
      "Prefixed on “orders-”: applies to every group whose name starts with it, as “orders-app” does.",
    );
    expect(screen.getByTestId("acl-panel-manage")).toHaveAttribute(
      "href",
      "/clusters/local/acls?resource_type=GROUP&resource_name=orders-app&pattern_type=match",
    );
  });

  it("says no ACL applies to the group when none does", async () => {
    stub(() => json([]));
    renderApp("/clusters/local/groups/orders-app");
    await waitFor(() => expect(screen.getByTestId("acl-panel-empty")).toHaveTextContent(/^No ACL applies to this group\.$/));
  });
});

import { act, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { json, stubFetch } from "../test/fetchStub";
import { GROUPS, ME, manyGroups } from "../test/fixtures";
import { renderApp } from "../test/render";

// jsdom lays nothing out: give the virtualized list's scroll box a height.
const clientHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, "clientHeight");
beforeEach(() => {
  Object.defineProperty(HTMLElement.prototype, "clientHeight", {
    configurable: true,
    get(this: HTMLElement) {
      return this.dataset.testid === "groups-scroll" ? 600 : 0;
    },
  });
});
afterEach(() => {
  if (clientHeight) Object.defineProperty(HTMLElement.prototype, "clientHeight", clientHeight);
});

const rowIds = () =>
  within(screen.getByTestId("groups-table"))
    .getAllByRole("row")
    .map((r) => r.getAttribute("data-testid"))
    .filter((id): id is string => !!id?.startsWith("group-row-"))
    .map((id) => id.slice("group-row-".length));

const GROUPS_URL = "/api/v1/clusters/local/groups";

describe("GroupsPage", () => {
  it("lists the groups with state badges, members, topics, lag and links", async () => {
    stubFetch({ "/api/v1/me": json(ME), [GROUPS_URL]: json(GROUPS) });
    renderApp("/clusters/local/groups");

    await screen.findByTestId("groups-table");
    expect(rowIds()).toEqual(["billing", "old-batch", "orders-app", "search-indexer"]);
    expect(screen.getByTestId("group-count")).toHaveAttribute("data-count", "4");
    expect(screen.getByTestId("tab-groups")).toHaveAttribute("aria-current", "page");
    expect(screen.getByTestId("tab-groups")).toHaveTextContent("Consumer groups");

    const billing = screen.getByTestId("group-row-billing");
    expect(within(billing).getByRole("link", { name: "billing" })).toHaveAttribute("href", "/clusters/local/groups/billing");
    const cells = within(billing).getAllByRole("cell").map((c) => c.textContent);
    expect(cells).toEqual(["billing", "Stable", "2", "audit, invoices, orders +2", "5", "3"]);
    expect(within(billing).getByTestId("topics-more")).toHaveTextContent("+2");

    const tone = (id: string) => within(screen.getByTestId(`group-row-${id}`)).getByText(/./, { selector: ".badge" });
    expect(tone("billing")).toHaveAttribute("data-tone", "ok");
    expect(tone("orders-app")).toHaveAttribute("data-tone", "neutral");
    expect(tone("search-indexer")).toHaveAttribute("data-tone", "warn");
    expect(tone("old-batch")).toHaveAttribute("data-tone", "error");

    const dead = within(screen.getByTestId("group-row-old-batch")).getAllByRole("cell");
    expect(dead[3]).toHaveTextContent("—");
    expect(dead[4]).toHaveTextContent("—");
  });

  it("sorts by lag (unknown last), searches by id and filters by topic", async () => {
    stubFetch({ "/api/v1/me": json(ME), [GROUPS_URL]: json(GROUPS) });
    renderApp("/clusters/local/groups");
    await screen.findByTestId("groups-table");

    fireEvent.click(screen.getByTestId("sort-total_lag"));
    expect(rowIds()).toEqual(["search-indexer", "orders-app", "billing", "old-batch"]);
    fireEvent.click(screen.getByTestId("sort-total_lag"));
    expect(rowIds()).toEqual(["billing", "orders-app", "search-indexer", "old-batch"]);
    fireEvent.click(screen.getByTestId("sort-member_count"));
    expect(rowIds()[0]).toBe("billing");

    fireEvent.change(screen.getByTestId("group-search"), { target: { value: "ORD" } });
    expect(rowIds()).toEqual(["orders-app"]);
    expect(screen.getByTestId("group-count")).toHaveTextContent("1 of 4 groups");

    fireEvent.change(screen.getByTestId("group-search"), { target: { value: "" } });
    fireEvent.change(screen.getByTestId("group-topic-filter"), { target: { value: "payments" } });
    expect(rowIds().sort()).toEqual(["billing", "orders-app"]);

    fireEvent.change(screen.getByTestId("group-search"), { target: { value: "nothing-like-it" } });
    expect(screen.getByTestId("groups-table")).toHaveTextContent("No group matches the search.");
  });

  it("renders only a screenful of 3,000 groups", async () => {
    stubFetch({ "/api/v1/me": json(ME), [GROUPS_URL]: json(manyGroups(3000)) });
    renderApp("/clusters/local/groups");
    await screen.findByTestId("groups-table");
    expect(screen.getByTestId("groups-table")).toHaveAttribute("aria-rowcount", "3001");
    const shown = rowIds();
    expect(shown.length).toBeGreaterThan(10);
    expect(shown.length).toBeLessThan(60);

    const scroller = screen.getByTestId("groups-scroll");
    await act(async () => {
      scroller.scrollTop = 3000 * 36 - 600;
      fireEvent.scroll(scroller);
    });
    expect(screen.getByTestId("group-row-group-02999")).toBeInTheDocument();
    expect(screen.queryByTestId("group-row-group-00000")).toBeNull();
  });

  it("says so when the cluster has no groups", async () => {
    stubFetch({ "/api/v1/me": json(ME), [GROUPS_URL]: json([]) });
    renderApp("/clusters/local/groups");
    expect(await screen.findByText("This cluster has no consumer groups.")).toBeInTheDocument();
  });

  it("shows the API's error when the list cannot be loaded", async () => {
    stubFetch({
      "/api/v1/me": json(ME),
      [GROUPS_URL]: json({ error: { code: "kafka_timeout", message: "Kafka did not answer in time.", details: {} } }, 504),
    });
    renderApp("/clusters/local/groups");
    expect(await screen.findByTestId("error-banner")).toHaveTextContent("Kafka did not answer in time.");
    expect(screen.getByTestId("error-banner")).toHaveTextContent("HTTP 504");
  });
});

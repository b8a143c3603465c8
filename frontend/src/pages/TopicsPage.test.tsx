import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { FakeWebSocket, pushLive } from "../test/fakeWebSocket";
import { json, stubFetch } from "../test/fetchStub";
import { metadataMessage } from "../test/liveFixtures";
import { ADMIN, ME, MISCONFIGURED_TOPICS, RF1_MIN2_MESSAGE, TOPICS, manyTopics } from "../test/fixtures";
import { renderApp } from "../test/render";
import { expectScreenful, giveScrollBoxHeight, renderedRowIds, scrollToEnd } from "../test/virtualTable";

giveScrollBoxHeight("topics");

const rowNames = () => renderedRowIds("topics", "topic-row-");

/** Answers GET topics by its query like the server does (filter, include_internal). */
function topicsRoute(rows = TOPICS) {
  return (url: string) => {
    const q = new URL(url, "http://x").searchParams;
    const kinds: Record<string, keyof (typeof rows)[number]> = {
      under_replicated: "under_replicated_count",
      under_min_isr: "under_min_isr_count",
      at_min_isr: "at_min_isr_count",
      unavailable: "unavailable_count",
    };
    const filter = q.get("filter");
    return json(
      rows.filter(
        (r) =>
          (q.get("include_internal") === "true" || !r.internal) &&
          (!filter || (r[kinds[filter]!] as number) > 0),
      ),
    );
  };
}

describe("TopicsPage", () => {
  it("lists topics with counts, warning markers and links, sorted by name", async () => {
    stubFetch({ "/api/v1/me": json(ME), "/api/v1/clusters/local/topics": topicsRoute() });
    renderApp("/clusters/local/topics");

    await screen.findByTestId("topics-table");
    expect(rowNames()).toEqual(["audit", "orders", "payments"]); // internal hidden by default
    expect(screen.getByTestId("topic-count")).toHaveAttribute("data-count", "3");
    const orders = screen.getByTestId("topic-row-orders");
    expect(within(orders).getByRole("link", { name: "orders" })).toHaveAttribute("href", "/clusters/local/topics/orders");
    expect(within(orders).getByTestId("topic-warning")).toBeInTheDocument();
    expect(orders).toHaveAttribute("data-severity", "warn");
    expect(screen.getByTestId("topic-row-payments")).toHaveAttribute("data-severity", "error");
    expect(within(screen.getByTestId("topic-row-audit")).queryByTestId("topic-warning")).toBeNull();
    // viewers and operators get no create button
    expect(screen.queryByTestId("create-topic")).toBeNull();
    expect(screen.getByTestId("tab-topics")).toHaveAttribute("aria-current", "page");
  });

  it("sorts by a column, toggles the order, and shows internal topics on request", async () => {
    const fetch = stubFetch({ "/api/v1/me": json(ADMIN), "/api/v1/clusters/local/topics": topicsRoute() });
    renderApp("/clusters/local/topics");
    await screen.findByTestId("topics-table");

    fireEvent.click(screen.getByTestId("sort-partition_count"));
    expect(rowNames()).toEqual(["orders", "payments", "audit"]); // numbers: biggest first
    fireEvent.click(screen.getByTestId("sort-partition_count"));
    expect(rowNames()).toEqual(["audit", "payments", "orders"]);
    fireEvent.click(screen.getByTestId("sort-under_replicated_count"));
    expect(rowNames()).toEqual(["orders", "payments", "audit"]);
    fireEvent.click(screen.getByTestId("sort-name"));
    expect(rowNames()).toEqual(["audit", "orders", "payments"]);

    fireEvent.click(screen.getByTestId("topic-internal"));
    await screen.findByTestId("topic-row-__consumer_offsets");
    expect(fetch).toHaveBeenLastCalledWith("/api/v1/clusters/local/topics?include_internal=true", expect.anything());
    expect(screen.getByTestId("topic-count")).toHaveAttribute("data-count", "4");
    expect(screen.getByTestId("create-topic")).toHaveAttribute("href", "/clusters/local/create-topic");
  });

  it("filters by health through the API and searches by substring on the client", async () => {
    const fetch = stubFetch({ "/api/v1/me": json(ME), "/api/v1/clusters/local/topics": topicsRoute() });
    renderApp("/clusters/local/topics?search=ORD");
    await screen.findByTestId("topics-table");
    expect(screen.getByTestId("topic-search")).toHaveValue("ORD");
    expect(rowNames()).toEqual(["orders"]);
    expect(screen.getByTestId("topic-count")).toHaveTextContent("1 of 3 topics");

    fireEvent.change(screen.getByTestId("topic-search"), { target: { value: "" } });
    expect(rowNames()).toHaveLength(3);

    fireEvent.change(screen.getByTestId("topic-filter"), { target: { value: "unavailable" } });
    await screen.findByTestId("topic-row-payments");
    expect(fetch).toHaveBeenLastCalledWith(
      "/api/v1/clusters/local/topics?include_internal=false&filter=unavailable",
      expect.anything(),
    );
    expect(rowNames()).toEqual(["payments"]);
    expect(screen.getByTestId("topic-filter")).toHaveValue("unavailable");
  });

  it("opens with the health filter and internal topics from the URL (the overview's links)", async () => {
    const fetch = stubFetch({ "/api/v1/me": json(ME), "/api/v1/clusters/local/topics": topicsRoute() });
    renderApp("/clusters/local/topics?filter=under_replicated&internal=true");
    await screen.findByTestId("topics-table");
    expect(fetch).toHaveBeenCalledWith(
      "/api/v1/clusters/local/topics?include_internal=true&filter=under_replicated",
      expect.anything(),
    );
    expect(rowNames()).toEqual(["__consumer_offsets", "orders", "payments"]);
    expect(screen.getByTestId("topic-internal")).toBeChecked();
  });

  it("renders only a screenful of rows out of 5,000 topics", async () => {
    stubFetch({ "/api/v1/me": json(ME), "/api/v1/clusters/local/topics": json(manyTopics(5000)) });
    renderApp("/clusters/local/topics");
    await screen.findByTestId("topics-table");
    expect(screen.getByTestId("topic-count")).toHaveTextContent("5,000 topics");
    expect(screen.getByTestId("topics-table")).toHaveAttribute("aria-rowcount", "5001");

    const shown = rowNames();
    expectScreenful(shown);
    expect(shown[0]).toBe("topic-00000");
    expect(screen.queryByTestId("topic-row-topic-04999")).toBeNull();

    // Scrolled to the end, the last rows are in the DOM and the first are gone.
    await scrollToEnd("topics", 5000);
    expect(screen.getByTestId("topic-row-topic-04999")).toBeInTheDocument();
    expect(screen.queryByTestId("topic-row-topic-00000")).toBeNull();
    expect(rowNames().length).toBeLessThan(60);

    // Searching narrows the list without refetching.
    fireEvent.change(screen.getByTestId("topic-search"), { target: { value: "topic-0420" } });
    expect(await screen.findByTestId("topic-row-topic-04200")).toBeInTheDocument();
    expect(screen.getByTestId("topic-count")).toHaveTextContent("10 of 5,000 topics");
  });
});

describe("TopicsPage sizes, messages and readers", () => {
  it("shows each topic's size, message count and reading groups, unknown as a dash", async () => {
    stubFetch({ "/api/v1/me": json(ME), "/api/v1/clusters/local/topics": topicsRoute() });
    renderApp("/clusters/local/topics?internal=true");
    await screen.findByTestId("topic-row-__consumer_offsets");

    const size = screen.getByTestId("topic-size-orders");
    expect(size).toHaveTextContent("1.50 MiB");
    expect(size).toHaveAttribute("data-bytes", "1572864");
    expect(size).toHaveAttribute("title", "4.50 MiB on all replicas");
    // A leader's size unknown: no size, but the replicas' size still in the tooltip.
    expect(screen.getByTestId("topic-size-payments")).toHaveTextContent(/^—$/);
    expect(screen.getByTestId("topic-size-payments")).toHaveAttribute("data-bytes", "");
    expect(screen.getByTestId("topic-size-payments")).toHaveAttribute("title", "8.00 KiB on all replicas");

    const orders = screen.getByTestId("topic-messages-orders");
    expect(orders).toHaveTextContent(/^1,234,567$/);
    expect(orders).toHaveAttribute("data-count", "1234567");
    expect(orders).not.toHaveAttribute("title");
    // Compacted: only an upper bound.
    const audit = screen.getByTestId("topic-messages-audit");
    expect(audit).toHaveTextContent(/^≤ 42$/);
    expect(audit).toHaveAttribute("data-count", "42");
    expect(audit).toHaveAttribute("title", "compacted: an upper bound");

    expect(screen.getByTestId("topic-readers-orders")).toHaveTextContent(/^3 groups$/);
    expect(screen.getByTestId("topic-readers-orders")).toHaveAttribute("data-count", "3");
    expect(screen.getByTestId("topic-readers-__consumer_offsets")).toHaveTextContent(/^1 group$/);
    expect(screen.getByTestId("topic-readers-audit")).toHaveTextContent(/^0 groups$/);
    const unknown = screen.getByTestId("topic-readers-payments");
    expect(unknown).toHaveTextContent(/^—$/);
    expect(unknown).toHaveAttribute("data-count", "");
    expect(unknown).toHaveAttribute("title", "unknown: no lag sampler pass");
  });

  it("sorts by size, messages and readers, the unknown ones last in both orders", async () => {
    stubFetch({ "/api/v1/me": json(ME), "/api/v1/clusters/local/topics": topicsRoute() });
    renderApp("/clusters/local/topics");
    await screen.findByTestId("topics-table");

    fireEvent.click(screen.getByTestId("sort-size_bytes"));
    expect(rowNames()).toEqual(["orders", "audit", "payments"]); // biggest first, unknown last
    expect(screen.getByTestId("sort-size_bytes").closest("th")).toHaveAttribute("aria-sort", "descending");
    fireEvent.click(screen.getByTestId("sort-size_bytes"));
    expect(rowNames()).toEqual(["audit", "orders", "payments"]); // still last

    fireEvent.click(screen.getByTestId("sort-reader_groups"));
    expect(rowNames()).toEqual(["orders", "audit", "payments"]);
    fireEvent.click(screen.getByTestId("sort-reader_groups"));
    expect(rowNames()).toEqual(["audit", "orders", "payments"]);

    fireEvent.click(screen.getByTestId("sort-message_count"));
    expect(rowNames()).toEqual(["orders", "audit", "payments"]);
    fireEvent.click(screen.getByTestId("sort-message_count"));
    expect(rowNames()).toEqual(["payments", "audit", "orders"]);
  });

  it("opens sorted by size from the URL, unknown sizes of many topics at the end", async () => {
    const rows = manyTopics(300).map((t, i) => ({ ...t, size_bytes: i % 2 ? null : i }));
    stubFetch({ "/api/v1/me": json(ME), "/api/v1/clusters/local/topics": json(rows) });
    renderApp("/clusters/local/topics?sort=size_bytes&order=desc");
    await screen.findByTestId("topics-table");
    const shown = rowNames();
    expectScreenful(shown);
    expect(shown.slice(0, 3)).toEqual(["topic-00298", "topic-00296", "topic-00294"]);

    await scrollToEnd("topics", 300);
    const last = screen.getByTestId("topic-row-topic-00299");
    expect(within(last).getByTestId("topic-size-topic-00299")).toHaveAttribute("data-bytes", "");
    expect(rowNames().at(-1)).toBe("topic-00299"); // the unknown ones by name, after every size
  });
});

describe("TopicsPage misconfigured topics (replication factor below min.insync.replicas)", () => {
  const ALL = [...TOPICS, ...MISCONFIGURED_TOPICS];

  it("shows RF < min ISR as an amber configuration warning, not as red under min ISR", async () => {
    stubFetch({ "/api/v1/me": json(ME), "/api/v1/clusters/local/topics": topicsRoute(ALL) });
    renderApp("/clusters/local/topics");
    await screen.findByTestId("topics-table");

    // "ledger" (RF 1, min ISR 2) is under min ISR only by its configuration: amber everywhere.
    const ledger = screen.getByTestId("topic-row-ledger");
    expect(ledger).toHaveAttribute("data-severity", "warn");
    expect(ledger).toHaveAttribute("data-misconfigured", "true");
    expect(within(ledger).getByTestId("topic-warning")).toHaveClass("marker-warn");
    expect(within(ledger).getByTestId("topic-warning")).not.toHaveClass("marker-error");
    expect(within(ledger).getByTestId("topic-warning").title).toContain(RF1_MIN2_MESSAGE);
    const badge = within(ledger).getByTestId("topic-config-warning");
    expect(badge).toHaveTextContent("misconfigured: RF < min ISR");
    expect(badge).toHaveClass("badge-warn");
    expect(badge).toHaveAttribute("title", RF1_MIN2_MESSAGE);
    const cell = within(ledger).getByTestId("count-under_min_isr");
    expect(cell).toHaveTextContent("4"); // TopicCommand's count, unchanged
    expect(cell).toHaveClass("cell-warn");
    expect(cell).not.toHaveClass("cell-error");
    expect(cell).toHaveAttribute("title", "4 misconfigured (RF < min ISR), 0 with lost replicas");

    // "invoices" is misconfigured AND lost replicas in another partition: still red for those.
    const invoices = screen.getByTestId("topic-row-invoices");
    expect(invoices).toHaveAttribute("data-severity", "error");
    expect(within(invoices).getByTestId("topic-warning")).toHaveClass("marker-error");
    expect(within(invoices).getByTestId("topic-config-warning")).toHaveTextContent("misconfigured: RF < min ISR");
    expect(within(invoices).getByTestId("count-under_min_isr")).toHaveClass("cell-error");

    // A topic that only lost replicas is red as before, with no configuration badge.
    const payments = screen.getByTestId("topic-row-payments");
    expect(payments).toHaveAttribute("data-severity", "error");
    expect(within(payments).queryByTestId("topic-config-warning")).toBeNull();
    expect(within(payments).getByTestId("count-under_min_isr")).toHaveClass("cell-error");
    expect(within(screen.getByTestId("topic-row-audit")).queryByTestId("topic-config-warning")).toBeNull();
  });

  it("filters the misconfigured topics on the client (the overview's link)", async () => {
    const fetch = stubFetch({ "/api/v1/me": json(ME), "/api/v1/clusters/local/topics": topicsRoute(ALL) });
    renderApp("/clusters/local/topics?filter=min_isr_unreachable&internal=true");
    await screen.findByTestId("topics-table");
    // No such server-side filter: every topic is fetched, the rows say which are misconfigured.
    expect(fetch).toHaveBeenCalledWith("/api/v1/clusters/local/topics?include_internal=true", expect.anything());
    expect(rowNames()).toEqual(["invoices", "ledger"]);
    expect(screen.getByTestId("topic-filter")).toHaveValue("min_isr_unreachable");
    expect(screen.getByTestId("topic-count")).toHaveTextContent("2 topics");

    fireEvent.change(screen.getByTestId("topic-filter"), { target: { value: "" } });
    await waitFor(() => expect(rowNames()).toHaveLength(6));
  });

  it("says so when no topic is misconfigured", async () => {
    stubFetch({ "/api/v1/me": json(ME), "/api/v1/clusters/local/topics": topicsRoute(TOPICS) });
    renderApp("/clusters/local/topics?filter=min_isr_unreachable");
    await screen.findByTestId("topics-table");
    expect(rowNames()).toEqual([]);
    expect(screen.getByTestId("topics-table")).toHaveTextContent(
      "No topic has a replication factor below its min.insync.replicas.",
    );
  });
});

describe("TopicsPage live", () => {
  it("shows a topic created elsewhere as soon as the metadata socket says so", async () => {
    let rows = TOPICS;
    stubFetch({ "/api/v1/me": json(ME), "/api/v1/clusters/local/topics": (url) => topicsRoute(rows)(url) });
    renderApp("/clusters/local/topics");
    await screen.findByTestId("topics-table");
    const socket = await waitFor(() => FakeWebSocket.last("/metadata"));
    await pushLive(socket);
    expect(screen.getByTestId("live-indicator")).toHaveAttribute("data-status", "live");

    rows = [...TOPICS, { ...TOPICS[0]!, name: "brand-new", internal: false }];
    await pushLive(socket, metadataMessage({ changes: [], topics_added: ["brand-new"] }));
    await waitFor(() => expect(rowNames()).toContain("brand-new"));
  });
});

import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { LIVE_FALLBACK_POLL_MS } from "../hooks/useLiveSocket";
import { RISK_HELP } from "../lib/lagStatus";
import { FakeWebSocket, pushLive } from "../test/fakeWebSocket";
import { apiError, json, stubFetch } from "../test/fetchStub";
import { GROUPS, ME, manyGroups } from "../test/fixtures";
import { at, groupStateMessage, lagMessage, topicLag } from "../test/liveFixtures";
import { renderApp } from "../test/render";
import { expectScreenful, giveScrollBoxHeight, renderedRowIds, scrollToEnd } from "../test/virtualTable";
import { GROUPS_POLL_MS } from "./GroupsPage";

giveScrollBoxHeight("groups");

const rowIds = () => renderedRowIds("groups", "group-row-");

const GROUPS_URL = "/api/v1/clusters/local/groups";

describe("GroupsPage", () => {
  it("says when Kafka was read for the list (the sampler's pass) and reads it now on request", async () => {
    const pass = "2026-11-29T10:00:05Z";
    const passed = GROUPS.map((g) => ({ ...g, sampled_at: g.group_id === "billing" ? pass : "2026-11-29T10:00:01Z" }));
    const read = "2026-11-29T10:00:09Z";
    const live = [...GROUPS, { ...GROUPS[0], group_id: "newcomer" }].map((g) => ({ ...g, sampled_at: read }));
    const fetch = stubFetch({
      "/api/v1/me": json(ME),
      [GROUPS_URL]: (url) => json(url.includes("fresh=true") ? live : passed),
    });
    renderApp("/clusters/local/groups");
    await screen.findByTestId("groups-table");
    expect(screen.getByTestId("updated-at").querySelector("time")).toHaveAttribute("dateTime", "2026-11-29T10:00:05.000Z");
    expect(rowIds()).not.toContain("newcomer");

    fireEvent.click(screen.getByTestId("groups-read-now"));
    await waitFor(() => expect(rowIds()).toContain("newcomer"));
    expect(screen.getByTestId("updated-at").querySelector("time")).toHaveAttribute("dateTime", "2026-11-29T10:00:09.000Z");
    expect(fetch.mock.calls.some(([url]) => String(url).includes("fresh=true"))).toBe(true);
  });

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
    // Not sampled yet: status UNKNOWN, no lag in time, no catch-up time.
    expect(cells).toEqual(["billing", "Stable", "UNKNOWN", "2", "audit, invoices, orders +2", "5", "3", "—", "—"]);
    expect(within(billing).getByTestId("topics-more")).toHaveTextContent("+2");

    const tone = (id: string) => within(screen.getByTestId(`group-row-${id}`)).getByText(/./, { selector: ".state-badge .badge" });
    expect(tone("billing")).toHaveAttribute("data-tone", "ok");
    expect(tone("orders-app")).toHaveAttribute("data-tone", "neutral");
    expect(tone("search-indexer")).toHaveAttribute("data-tone", "warn");
    expect(tone("old-batch")).toHaveAttribute("data-tone", "error");

    const dead = within(screen.getByTestId("group-row-old-batch")).getAllByRole("cell");
    expect(dead[4]).toHaveTextContent("—");
    expect(dead[5]).toHaveTextContent("—");
  });

  it("explains a row's retention risk in its badge's tooltip: the server's reason, else the generic help", async () => {
    const reason = "orders-3: retention deleted 10 records the group had not read";
    const groups = GROUPS.map((g) =>
      g.group_id === "billing"
        ? { ...g, retention_risk: "lost" as const, retention_reason: reason }
        : g.group_id === "search-indexer"
          ? { ...g, retention_risk: "near" as const, retention_reason: null }
          : g,
    );
    stubFetch({ "/api/v1/me": json(ME), [GROUPS_URL]: json(groups) });
    renderApp("/clusters/local/groups");
    await screen.findByTestId("groups-table");
    expect(screen.getByTestId("group-risk-billing")).toHaveTextContent("lost");
    expect(screen.getByTestId("group-risk-billing")).toHaveAttribute("title", reason);
    expect(screen.getByTestId("group-risk-search-indexer")).toHaveAttribute("title", RISK_HELP.near);
    expect(RISK_HELP.near).not.toMatch(/oldest part|segment deletion/);
    expect(screen.queryByTestId("group-risk-orders-app")).toBeNull();
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
    expectScreenful(rowIds());

    await scrollToEnd("groups", 3000);
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
      [GROUPS_URL]: apiError(504, "kafka_timeout", "Kafka did not answer in time."),
    });
    renderApp("/clusters/local/groups");
    expect(await screen.findByTestId("error-banner")).toHaveTextContent("Kafka did not answer in time.");
    expect(screen.getByTestId("error-banner")).toHaveTextContent("HTTP 504");
  });
});

describe("GroupsPage live", () => {
  const cellsOf = (id: string) => within(screen.getByTestId(`group-row-${id}`)).getAllByRole("cell").map((c) => c.textContent);
  const listCalls = (fetch: ReturnType<typeof stubFetch>) => fetch.mock.calls.filter(([url]) => String(url) === GROUPS_URL).length;

  it("subscribes to every group and updates rows from the lag messages", async () => {
    stubFetch({ "/api/v1/me": json(ME), [GROUPS_URL]: json(GROUPS) });
    renderApp("/clusters/local/groups");
    await screen.findByTestId("groups-table");
    const socket = await waitFor(() => FakeWebSocket.last("/lag"));
    expect(socket.url).toMatch(/^ws:\/\/[^/]+\/ws\/clusters\/local\/lag$/);
    expect(screen.getByTestId("live-indicator")).toHaveAttribute("data-status", "connecting");

    await pushLive(
      socket,
      lagMessage("billing", {
        ts: at(0),
        total_lag: 900,
        max_lag: 800,
        max_lag_seconds: 65,
        status: "STALL",
        catch_up_seconds: null,
        retention_risk: "lost",
        retention_reason: "orders-4: retention deleted 10 records the group had not read",
        state: "Stable",
        member_count: 2,
        topics: { orders: topicLag({ write_per_s: 5, consume_per_s: 1 }) },
      }),
      lagMessage("search-indexer", {
        ts: at(0),
        total_lag: 40_000,
        max_lag: 40_000,
        max_lag_seconds: 3 * 3600 + 125,
        status: "WARN",
        catch_up_seconds: 125,
        retention_risk: "near",
        retention_reason:
          "orders-0: unread records can be deleted in 3 h: retention.ms is 7 d and the oldest unread record is 6 d 21 h old; the group is not catching up",
        state: "Stable",
        member_count: 1,
        topics: { orders: topicLag({ write_per_s: 100, consume_per_s: 420 }) },
      }),
    );
    expect(socket.sent).toEqual([{ subscribe: { all: true } }]);
    expect(screen.getByTestId("live-indicator")).toHaveAttribute("data-status", "live");
    expect(cellsOf("billing")).toEqual(["billing", "Stable", "STALL⚠ lost", "2", "audit, invoices, orders +2", "900", "800", "1 m 05 s", "never"]);
    expect(screen.getByTestId("group-row-billing")).toHaveAttribute("data-status", "STALL");
    expect(screen.getByTestId("group-row-billing")).toHaveAttribute("data-risk", "lost");
    expect(screen.getByTestId("group-risk-billing")).toHaveAttribute("title", "orders-4: retention deleted 10 records the group had not read");
    expect(screen.getByTestId("group-risk-search-indexer")).toHaveAttribute(
      "title",
      "orders-0: unread records can be deleted in 3 h: retention.ms is 7 d and the oldest unread record is 6 d 21 h old; the group is not catching up",
    );
    // The state came with the sample too: PreparingRebalance -> Stable.
    expect(screen.getByTestId("group-row-search-indexer")).toHaveAttribute("data-state", "Stable");
    expect(cellsOf("search-indexer").slice(2)).toEqual(["WARN⚠ near", "1", "orders", "40,000", "40,000", "3 h 02 m", "2 m 05 s"]);
    // Groups without a message keep the REST row.
    expect(cellsOf("orders-app")[2]).toBe("UNKNOWN");

    // A later sample replaces the earlier one; an older one is ignored.
    await pushLive(socket, lagMessage("billing", { ts: at(5), total_lag: 0, max_lag: 0, max_lag_seconds: 0, catch_up_seconds: 0, status: "OK", member_count: 2 }));
    expect(cellsOf("billing").slice(2)).toEqual(["OK", "2", "audit, invoices, orders +2", "0", "0", "0 s", "caught up"]);
    expect(screen.queryByTestId("group-risk-billing")).toBeNull();
    await pushLive(socket, lagMessage("billing", { ts: at(1), total_lag: 77 }));
    expect(cellsOf("billing")[5]).toBe("0");

    // Sorting by status uses the live statuses (worst first; UNKNOWN last).
    fireEvent.click(screen.getByTestId("sort-status"));
    expect(rowIds()).toEqual(["search-indexer", "billing", "old-batch", "orders-app"]);
    // Its header is aligned like its badges (left), not like the numbers beside it.
    expect(screen.getByTestId("sort-status").closest("th")).not.toHaveClass("num");
    expect(screen.getByTestId("sort-member_count").closest("th")).toHaveClass("num");
  });

  /** The page over 3,000 groups with its lag socket open; `subscribed`: the groups of its last subscription. */
  async function openManyGroups() {
    stubFetch({ "/api/v1/me": json(ME), [GROUPS_URL]: json(manyGroups(3000)) });
    renderApp("/clusters/local/groups");
    await screen.findByTestId("groups-table");
    const socket = await waitFor(() => FakeWebSocket.last("/lag"));
    await act(async () => socket.open());
    const subscribed = () => {
      const last = socket.sent[socket.sent.length - 1] as { subscribe: { groups?: string[] } } | undefined;
      return last?.subscribe.groups ?? null;
    };
    return { socket, subscribed };
  }

  it("above 1,000 groups subscribes to the rows it shows only, and follows a scroll", async () => {
    const { socket, subscribed } = await openManyGroups();
    await waitFor(() => expect(subscribed()).toEqual(rowIds().sort()));
    expect(subscribed()).toContain("group-00000");
    expect(socket.sent).not.toContainEqual({ subscribe: { all: true } });

    await scrollToEnd("groups", 3000);
    await waitFor(() => expect(subscribed()).toContain("group-02999"));
    expect(subscribed()).toEqual(rowIds().sort());
    expect(subscribed()).not.toContain("group-00000");
  });

  it("above 1,000 groups follows a sort and a filter that leave the scroll at the top", async () => {
    const { subscribed } = await openManyGroups();
    await waitFor(() => expect(subscribed()).toContain("group-00000"));

    // The same rows' places, other groups in them: the subscription moves to those.
    fireEvent.click(screen.getByTestId("sort-total_lag"));
    if (rowIds()[0] !== "group-02999") fireEvent.click(screen.getByTestId("sort-total_lag"));
    expect(rowIds()[0]).toBe("group-02999");
    await waitFor(() => expect(subscribed()).toContain("group-02999"));
    expect(subscribed()).toEqual(rowIds().sort());
    expect(subscribed()).not.toContain("group-00000");

    fireEvent.change(screen.getByTestId("group-search"), { target: { value: "group-0150" } });
    await waitFor(() => expect(rowIds()).toHaveLength(10));
    await waitFor(() => expect(subscribed()).toEqual(rowIds().sort()));
    expect(subscribed()).toContain("group-01500");
  });

  it("refetches the list for a group it does not have yet, and for one that is gone", async () => {
    let groups = GROUPS;
    const fetch = stubFetch({ "/api/v1/me": json(ME), [GROUPS_URL]: () => json(groups) });
    renderApp("/clusters/local/groups");
    await screen.findByTestId("groups-table");
    const socket = await waitFor(() => FakeWebSocket.last("/lag"));
    await pushLive(socket);
    expect(listCalls(fetch)).toBe(1);

    groups = [...GROUPS, { ...GROUPS[0]!, group_id: "brand-new" }];
    await pushLive(socket, groupStateMessage("brand-new", { previous_state: null }));
    await waitFor(() => expect(listCalls(fetch)).toBe(2));
    expect(await screen.findByTestId("group-row-brand-new")).toBeInTheDocument();

    groups = GROUPS.filter((g) => g.group_id !== "old-batch");
    await pushLive(socket, groupStateMessage("old-batch", { state: "Dead", member_count: 0, ts: at(9) }));
    await waitFor(() => expect(screen.queryByTestId("group-row-old-batch")).toBeNull());
    expect(listCalls(fetch)).toBe(3);
  });

  it("shows the paused banner when the socket drops, and is live again after reconnecting by itself", async () => {
    stubFetch({ "/api/v1/me": json(ME), [GROUPS_URL]: json(GROUPS) });
    renderApp("/clusters/local/groups");
    await screen.findByTestId("groups-table");
    const first = await waitFor(() => FakeWebSocket.last("/lag"));
    await pushLive(first, lagMessage("billing"));
    expect(screen.queryByTestId("live-banner")).toBeNull();

    act(() => first.drop());
    expect(screen.getByTestId("live-banner")).toHaveTextContent("Live updates paused — reconnecting…");
    expect(screen.queryByTestId("live-indicator")).toBeNull();

    await waitFor(() => expect(FakeWebSocket.instances.filter((s) => s.url.endsWith("/lag"))).toHaveLength(2), { timeout: 2000 });
    const second = FakeWebSocket.last("/lag");
    await pushLive(second);
    expect(second.sent).toEqual([{ subscribe: { all: true } }]);
    expect(screen.queryByTestId("live-banner")).toBeNull();
    expect(screen.getByTestId("live-indicator")).toHaveAttribute("data-status", "live");
  });

  it("polls every 30 s while live and every 5 s again once the socket drops", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      const fetch = stubFetch({ "/api/v1/me": json(ME), [GROUPS_URL]: json(GROUPS) });
      renderApp("/clusters/local/groups");
      await act(() => vi.advanceTimersByTimeAsync(0));
      expect(listCalls(fetch)).toBe(1);
      await act(() => vi.advanceTimersByTimeAsync(0)); // the socket follows the list
      const socket = FakeWebSocket.last("/lag");
      act(() => {
        socket.open();
        socket.receive({ type: "status", live: true, sample_seconds: 5 });
        socket.receive(lagMessage("billing"));
      });
      await act(() => vi.advanceTimersByTimeAsync(GROUPS_POLL_MS * 2));
      expect(listCalls(fetch)).toBe(1);
      act(() => socket.receive(lagMessage("billing", { ts: at(10) }))); // keep the watchdog quiet
      await act(() => vi.advanceTimersByTimeAsync(LIVE_FALLBACK_POLL_MS - GROUPS_POLL_MS * 2));
      expect(listCalls(fetch)).toBe(2);

      act(() => socket.drop());
      await act(() => vi.advanceTimersByTimeAsync(GROUPS_POLL_MS));
      expect(listCalls(fetch)).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });
});

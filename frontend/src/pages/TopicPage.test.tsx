import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TopicDetail } from "../api/types";
import { FakeWebSocket, pushLive } from "../test/fakeWebSocket";
import { apiError, bodiesTo, callsTo, json, stubFetch } from "../test/fetchStub";
import { metadataMessage } from "../test/liveFixtures";
import { ADMIN, INVOICES, INVOICES_MESSAGE, LEDGER, ME, ORDERS, RF1_MIN2_MESSAGE, VIEWER } from "../test/fixtures";
import { renderApp } from "../test/render";
import { TOPIC_POLL_MS } from "./TopicPage";

afterEach(() => {
  vi.useRealTimers();
});

const TOPIC_URL = "/api/v1/clusters/local/topics/orders";

describe("TopicPage", () => {
  it("shows the header, the leadership map, partitions and configs", async () => {
    stubFetch({ "/api/v1/me": json(ME), [TOPIC_URL]: json(ORDERS) });
    renderApp("/clusters/local/topics/orders");

    expect(await screen.findByTestId("leadership-map")).toBeInTheDocument();
    expect(screen.getByTestId("topic-partition-count")).toHaveTextContent("3");
    expect(screen.getByTestId("topic-rf")).toHaveTextContent("3");
    expect(screen.getByTestId("topic-min-isr")).toHaveTextContent("2");
    expect(screen.getByTestId("topic-health-under_replicated")).toHaveAttribute("data-count", "2");
    expect(screen.getByTestId("topic-health-under_min_isr")).toHaveAttribute("data-count", "1");
    expect(screen.getByTestId("topic-health-unavailable")).toHaveAttribute("data-count", "0");

    const p0 = screen.getByTestId("partition-row-0");
    expect(within(p0).getAllByRole("cell").map((c) => c.textContent)).toEqual([
      "0", "1", "1, 2, 3", "1, 2, 3", "—", "yes", "—", "10", "110", "100", "1.00 MiB",
    ]);
    const p1 = screen.getByTestId("partition-row-1");
    expect(within(p1).getByTestId("preferred-1")).toHaveTextContent("no (prefers 2)");
    expect(within(p1).getByTestId("flag-under_replicated")).toBeInTheDocument();
    expect(within(p1).getByTestId("flag-at_min_isr")).toBeInTheDocument();
    const p2 = screen.getByTestId("partition-row-2");
    expect(within(p2).getByTestId("flag-under_min_isr")).toBeInTheDocument();
    expect(within(p2).getAllByRole("cell")[9]).toHaveTextContent("—"); // log end unknown

    // The topic's own values first, in human units; the inherited ones folded away.
    expect(screen.getByTestId("config-row-retention.ms")).toHaveTextContent("set on topic");
    expect(screen.getByTestId("config-human-retention.ms")).toHaveTextContent("1 d");
    expect(screen.queryByTestId("config-row-cleanup.policy")).toBeNull();
    fireEvent.click(screen.getByTestId("config-defaults-toggle"));
    expect(screen.getByTestId("config-row-cleanup.policy")).toHaveTextContent("Kafka default");
    fireEvent.click(screen.getByTestId("hide-defaults"));
    expect(screen.queryByTestId("config-row-cleanup.policy")).toBeNull();

    // Not an admin: no edit, no actions.
    expect(screen.queryByTestId("config-edit-retention.ms")).toBeNull();
    expect(screen.queryByTestId("delete-topic")).toBeNull();
    expect(screen.queryByTestId("elect-preferred")).toBeNull();
    expect(screen.queryByTestId("topic-reassign")).toBeNull();
    expect(screen.queryByTestId("topic-change-rf")).toBeNull();
  });

  it("links admins to the Reassign tab with the topic chosen: its partitions, or its replication factor", async () => {
    stubFetch({ "/api/v1/me": json(ADMIN), [TOPIC_URL]: json(ORDERS) });
    renderApp("/clusters/local/topics/orders");
    const reassign = await screen.findByTestId("topic-reassign");
    expect(reassign).toHaveTextContent("Reassign partitions…");
    expect(reassign).toHaveAttribute("href", "/clusters/local/reassignments?topics=orders");
    expect(screen.getByTestId("topic-change-rf")).toHaveTextContent("Change replication factor…");
    expect(screen.getByTestId("topic-change-rf")).toHaveAttribute("href", "/clusters/local/reassignments?mode=rf&topic=orders");
  });

  it("has no Reassign links for a viewer", async () => {
    stubFetch({ "/api/v1/me": json(VIEWER), [TOPIC_URL]: json(ORDERS) });
    renderApp("/clusters/local/topics/orders");
    await screen.findByTestId("partitions-table");
    expect(await screen.findByTestId("current-user")).toHaveAttribute("data-role", "viewer");
    expect(screen.queryByTestId("topic-reassign")).toBeNull();
    expect(screen.queryByTestId("topic-change-rf")).toBeNull();
  });

  it("polls, so a broker going down shows in the map without a reload", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    let detail: TopicDetail = ORDERS;
    stubFetch({ "/api/v1/me": json(ME), [TOPIC_URL]: () => json(detail) });
    renderApp("/clusters/local/topics/orders");
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByTestId("lm-cell-0-1")).toHaveAttribute("data-state", "leader");
    expect(screen.getByTestId("lm-broker-1")).toHaveAttribute("data-down", "false");

    // Broker 1 dies: 2 takes over p0, 1 leaves every ISR and is offline.
    detail = {
      ...ORDERS,
      live_brokers: [2, 3],
      partitions: ORDERS.partitions.map((p) => ({
        ...p,
        leader: p.leader === 1 ? 2 : p.leader,
        isr: p.isr.filter((b) => b !== 1),
        offline_replicas: p.replicas.includes(1) ? [...p.offline_replicas, 1] : p.offline_replicas,
      })),
    };
    await act(() => vi.advanceTimersByTimeAsync(TOPIC_POLL_MS));
    expect(TOPIC_POLL_MS).toBeLessThanOrEqual(5_000);
    expect(screen.getByTestId("lm-cell-0-1")).toHaveAttribute("data-state", "offline");
    expect(screen.getByTestId("lm-cell-0-2")).toHaveAttribute("data-state", "leader");
    expect(screen.getByTestId("lm-broker-1")).toHaveAttribute("data-down", "true");
  });

  it("deletes only after the exact topic name is typed", async () => {
    const fetch = stubFetch({
      "/api/v1/me": json(ADMIN),
      [TOPIC_URL]: (_url, init) => (init?.method === "DELETE" ? { status: 204 } : json(ORDERS)),
      "/api/v1/clusters/local/topics": json([]),
    });
    renderApp("/clusters/local/topics/orders");
    fireEvent.click(await screen.findByTestId("delete-topic"));

    const input = screen.getByTestId("confirm-input");
    const confirm = screen.getByTestId("confirm-button");
    expect(confirm).toBeDisabled();
    for (const wrong of ["order", "Orders", "orders ", " orders", "orders2"]) {
      fireEvent.change(input, { target: { value: wrong } });
      expect(confirm).toBeDisabled();
    }
    fireEvent.submit(input.closest("form")!); // Enter with a wrong name does nothing
    expect(callsTo(fetch, TOPIC_URL, "DELETE")).toHaveLength(0);

    fireEvent.change(input, { target: { value: "orders" } });
    expect(confirm).toBeEnabled();
    fireEvent.click(confirm);

    expect(await screen.findByTestId("flash")).toHaveTextContent("Topic orders was deleted.");
    expect(callsTo(fetch, TOPIC_URL, "DELETE")).toHaveLength(1);
  });

  it("on a protected cluster says the delete was sent for approval, and stays on the topic", async () => {
    const approval = { id: 5, summary: "Delete topic orders and every record in it.", expires_at: "2026-07-01T15:00:00Z", state: "pending" };
    stubFetch({
      "/api/v1/me": json(ADMIN),
      [TOPIC_URL]: (_url, init) => (init?.method === "DELETE" ? json({ approval }, 202) : json(ORDERS)),
    });
    renderApp("/clusters/local/topics/orders");
    fireEvent.click(await screen.findByTestId("delete-topic"));
    fireEvent.change(screen.getByTestId("confirm-input"), { target: { value: "orders" } });
    fireEvent.click(screen.getByTestId("confirm-button"));

    const notice = await screen.findByTestId("approval-notice");
    expect(notice).toHaveTextContent(
      "Sent for approval as request #5: Delete topic orders and every record in it. It runs once someone else with the role approves it.",
    );
    expect(screen.getByTestId("approval-notice-link")).toHaveAttribute("href", "/approvals?id=5");
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
    expect(screen.queryByTestId("error-banner")).toBeNull();
    expect(screen.queryByTestId("flash")).toBeNull();
    expect(screen.getByTestId("topic-actions")).toBeInTheDocument();
  });

  it("cancels the unclean election dialog, then runs it on every partition and shows the results", async () => {
    const fetch = stubFetch({
      "/api/v1/me": json(ADMIN),
      [TOPIC_URL]: json(ORDERS),
      "/api/v1/clusters/local/elect-leaders": (_url, init) => {
        const body = JSON.parse(String(init?.body)) as { election: string; partitions: { partition: number }[] };
        return json(
          body.partitions.map((p) => ({
            topic: "orders",
            partition: p.partition,
            outcome: p.partition === 2 ? "failed" : "not_needed",
            error: p.partition === 2 ? "ELIGIBLE_LEADERS_NOT_AVAILABLE" : null,
          })),
        );
      },
    });
    renderApp("/clusters/local/topics/orders");
    fireEvent.click(await screen.findByTestId("elect-unclean"));
    expect(screen.getByTestId("confirm-button")).toBeDisabled();
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();

    fireEvent.click(screen.getByTestId("elect-unclean"));
    fireEvent.change(screen.getByTestId("confirm-input"), { target: { value: "orders" } });
    fireEvent.click(screen.getByTestId("confirm-button"));

    const results = await screen.findByTestId("election-results");
    expect(results).toHaveAttribute("data-election", "unclean");
    expect(results).toHaveTextContent("0 elected, 2 not needed, 1 failed");
    expect(within(results).getByTestId("election-row-2")).toHaveTextContent("ELIGIBLE_LEADERS_NOT_AVAILABLE");
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
    const [, init] = callsTo(fetch, "/api/v1/clusters/local/elect-leaders", "POST")[0]!;
    expect(JSON.parse(String(init?.body))).toEqual({
      election: "unclean",
      partitions: [0, 1, 2].map((partition) => ({ topic: "orders", partition })),
    });
  });

  it("runs a preferred election without a dialog, adds partitions only above the current count, edits a config", async () => {
    const fetch = stubFetch({
      "/api/v1/me": json(ADMIN),
      [TOPIC_URL]: json(ORDERS),
      [`${TOPIC_URL}/partitions`]: json({ ...ORDERS, partition_count: 5 }),
      [`${TOPIC_URL}/configs`]: json(ORDERS),
      "/api/v1/clusters/local/elect-leaders": json([
        { topic: "orders", partition: 0, outcome: "not_needed", error: null },
        { topic: "orders", partition: 1, outcome: "elected", error: null },
        { topic: "orders", partition: 2, outcome: "not_needed", error: null },
      ]),
    });
    renderApp("/clusters/local/topics/orders");

    fireEvent.click(await screen.findByTestId("elect-preferred"));
    expect(await screen.findByTestId("election-results")).toHaveTextContent("1 elected, 2 not needed, 0 failed");

    const count = screen.getByTestId("add-partitions-count");
    expect(count).toHaveValue(4);
    fireEvent.change(count, { target: { value: "3" } });
    expect(screen.getByTestId("add-partitions")).toBeDisabled();
    fireEvent.change(count, { target: { value: "5" } });
    fireEvent.click(screen.getByTestId("add-partitions"));
    expect(await screen.findByTestId("action-message")).toHaveTextContent("orders now has 5 partitions.");
    expect(screen.getByTestId("topic-partition-count")).toHaveTextContent("5"); // the answer, shown at once
    expect(count).toHaveValue(6);
    const [, addInit] = callsTo(fetch, `${TOPIC_URL}/partitions`, "POST")[0]!;
    expect(JSON.parse(String(addInit?.body))).toEqual({ count: 5 });

    fireEvent.click(screen.getByTestId("config-edit-retention.ms"));
    fireEvent.change(screen.getByTestId("config-input-retention.ms"), { target: { value: "3600000" } });
    fireEvent.click(screen.getByTestId("config-save-retention.ms"));
    expect(await screen.findByTestId("config-saved")).toHaveTextContent("retention.ms set to 3600000.");
    fireEvent.click(screen.getByTestId("config-reset-retention.ms"));
    expect(await screen.findByTestId("config-saved")).toHaveTextContent("retention.ms reset to its default.");
    expect(screen.queryByTestId("config-reset-cleanup.policy")).toBeNull(); // not a topic override
    const patches = bodiesTo(fetch, `${TOPIC_URL}/configs`, "PATCH");
    expect(patches).toEqual([{ set: { "retention.ms": "3600000" } }, { delete: ["retention.ms"] }]);
  });

  it("shows a 404 for an unknown topic", async () => {
    stubFetch({
      "/api/v1/me": json(ME),
      "/api/v1/clusters/local/topics/nope": apiError(404, "topic_not_found", "No topic named 'nope'."),
    });
    renderApp("/clusters/local/topics/nope");
    expect(await screen.findByTestId("error-banner")).toHaveTextContent("No topic named 'nope'.");
  });
});

describe("TopicPage sizes and readers", () => {
  it("shows the sizes and message count in the header and each partition's size", async () => {
    stubFetch({ "/api/v1/me": json(ME), [TOPIC_URL]: json(ORDERS) });
    renderApp("/clusters/local/topics/orders");

    const size = await screen.findByTestId("topic-size");
    expect(size).toHaveTextContent("1.50 MiB");
    expect(size).toHaveAttribute("data-bytes", "1572864");
    expect(screen.getByTestId("topic-replicas-size")).toHaveTextContent("3.50 MiB");
    expect(screen.getByTestId("topic-replicas-size")).toHaveAttribute("data-bytes", "3670016");
    const count = screen.getByTestId("topic-message-count");
    expect(count).toHaveTextContent(/^200$/);
    expect(count).toHaveAttribute("data-count", "200");
    expect(count).not.toHaveAttribute("data-upper-bound");

    expect(screen.getByTestId("partition-size-0")).toHaveTextContent("1.00 MiB");
    expect(screen.getByTestId("partition-size-0")).toHaveAttribute("data-bytes", "1048576");
    expect(screen.getByTestId("partition-size-1")).toHaveTextContent("512 KiB");
    // p2's leader size unknown.
    expect(screen.getByTestId("partition-size-2")).toHaveTextContent(/^—$/);
    expect(screen.getByTestId("partition-size-2")).toHaveAttribute("data-bytes", "");
  });

  it("marks a compacted topic's message count as an upper bound, and unknown sizes with a dash", async () => {
    const compacted: TopicDetail = {
      ...ORDERS,
      size_bytes: null,
      replicas_size_bytes: null,
      message_count: 12_345,
      message_count_is_upper_bound: true,
    };
    stubFetch({ "/api/v1/me": json(ME), [TOPIC_URL]: json(compacted) });
    renderApp("/clusters/local/topics/orders");

    const count = await screen.findByTestId("topic-message-count");
    expect(count).toHaveTextContent("≤ 12,345 (compacted: an upper bound)");
    expect(count).toHaveAttribute("data-count", "12345");
    expect(count).toHaveAttribute("data-upper-bound", "true");
    expect(count).toHaveAttribute("title", "compacted: an upper bound");
    expect(screen.getByTestId("topic-size")).toHaveTextContent(/^—$/);
    expect(screen.getByTestId("topic-size")).toHaveAttribute("data-bytes", "");
    expect(screen.getByTestId("topic-replicas-size")).toHaveTextContent(/^—$/);
  });

  it("lists the reading groups by id with their lag on the topic, status and a link", async () => {
    stubFetch({ "/api/v1/me": json(ME), [TOPIC_URL]: json(ORDERS) });
    renderApp("/clusters/local/topics/orders");

    const section = await screen.findByTestId("topic-readers");
    expect(within(section).getByRole("heading")).toHaveTextContent("Consumer groups");
    const rows = within(section)
      .getAllByRole("row")
      .map((r) => r.getAttribute("data-testid"))
      .filter(Boolean);
    expect(rows).toEqual(["topic-reader-billing", "topic-reader-orders-app", "topic-reader-search-indexer"]);

    const billing = screen.getByTestId("topic-reader-billing");
    expect(within(billing).getByRole("link", { name: "billing" })).toHaveAttribute("href", "/clusters/local/groups/billing");
    expect(within(billing).getAllByRole("cell")[1]).toHaveTextContent(/^5$/);
    expect(within(billing).getByTestId("topic-reader-status-billing")).toHaveAttribute("data-status", "OK");

    const indexer = screen.getByTestId("topic-reader-search-indexer");
    expect(within(indexer).getAllByRole("cell")[1]).toHaveTextContent(/^40,000$/);
    expect(within(indexer).getAllByRole("cell")[1]).toHaveAttribute("data-lag", "40000");
    expect(within(indexer).getByTestId("topic-reader-status-search-indexer")).toHaveAttribute("data-status", "ERR");

    // Lag and status not known yet.
    const app = screen.getByTestId("topic-reader-orders-app");
    expect(within(app).getAllByRole("cell")[1]).toHaveTextContent(/^—$/);
    expect(within(app).getByTestId("topic-reader-status-orders-app")).toHaveAttribute("data-status", "UNKNOWN");

    expect(screen.queryByTestId("topic-readers-empty")).toBeNull();
    expect(screen.queryByTestId("topic-readers-unknown")).toBeNull();
  });

  it("says so when no group reads the topic", async () => {
    stubFetch({ "/api/v1/me": json(ME), [TOPIC_URL]: json({ ...ORDERS, readers: [] }) });
    renderApp("/clusters/local/topics/orders");

    expect(await screen.findByTestId("topic-readers-empty")).toHaveTextContent(
      "No consumer group has committed offsets on this topic.",
    );
    expect(screen.queryByTestId("topic-readers-table")).toBeNull();
    expect(screen.queryByTestId("topic-readers-unknown")).toBeNull();
  });

  it("says the readers are unknown before the lag sampler's first pass", async () => {
    stubFetch({ "/api/v1/me": json(ME), [TOPIC_URL]: json({ ...ORDERS, readers: null }) });
    renderApp("/clusters/local/topics/orders");

    const unknown = await screen.findByTestId("topic-readers-unknown");
    expect(unknown).toHaveTextContent("Readers unknown: the lag sampler has not passed yet.");
    expect(unknown).toHaveClass("muted");
    expect(within(screen.getByTestId("topic-readers")).queryAllByRole("row")).toHaveLength(0);
    expect(screen.queryByTestId("topic-readers-empty")).toBeNull();
  });
});

describe("TopicPage misconfigured (replication factor below min.insync.replicas)", () => {
  it("shows RF 1 with min ISR 2 as an amber configuration warning, not as red under min ISR", async () => {
    stubFetch({ "/api/v1/me": json(ME), "/api/v1/clusters/local/topics/ledger": json(LEDGER) });
    renderApp("/clusters/local/topics/ledger");

    const warning = await screen.findByTestId("topic-config-warning");
    expect(warning).toHaveClass("notice-warn");
    expect(warning).toHaveAttribute("data-code", "min_isr_unreachable");
    expect(warning).toHaveTextContent(`Misconfigured: RF < min ISR — ${RF1_MIN2_MESSAGE}`);

    // TopicCommand's count is kept, amber: no partition lost anything.
    const under = screen.getByTestId("topic-health-under_min_isr");
    expect(under).toHaveAttribute("data-count", "2");
    expect(under).toHaveClass("summary-warn");
    expect(under).not.toHaveClass("summary-bad");
    expect(screen.getByTestId("topic-health-min_isr_unreachable")).toHaveTextContent("2 misconfigured: RF < min ISR");

    for (const partition of [0, 1]) {
      const row = screen.getByTestId(`partition-row-${partition}`);
      const flag = within(row).getByTestId("flag-min_isr_unreachable");
      expect(flag).toHaveTextContent("misconfigured: RF < min ISR");
      expect(flag).toHaveAttribute("data-tone", "warn");
      expect(flag).toHaveAttribute("title", RF1_MIN2_MESSAGE);
      expect(within(row).queryByTestId("flag-under_min_isr")).toBeNull();
    }
    expect(document.querySelector(".summary-bad")).toBeNull();
    expect(screen.getByTestId("partitions-table").querySelector(".badge-error")).toBeNull();
  });

  it("keeps red for the partitions of a misconfigured topic that lost replicas", async () => {
    stubFetch({ "/api/v1/me": json(ME), "/api/v1/clusters/local/topics/invoices": json(INVOICES) });
    renderApp("/clusters/local/topics/invoices");

    expect(await screen.findByTestId("topic-config-warning")).toHaveTextContent(INVOICES_MESSAGE);
    const under = screen.getByTestId("topic-health-under_min_isr");
    expect(under).toHaveAttribute("data-count", "2");
    expect(under).toHaveClass("summary-bad");
    expect(screen.getByTestId("topic-health-min_isr_unreachable")).toHaveAttribute("data-count", "1");

    const p0 = screen.getByTestId("partition-row-0");
    expect(within(p0).getByTestId("flag-min_isr_unreachable")).toHaveAttribute("data-tone", "warn");
    expect(within(p0).queryByTestId("flag-under_min_isr")).toBeNull();
    expect(screen.getByTestId("partition-row-1").querySelector("td.flags")).toHaveTextContent(/^—$/);
    const p2 = screen.getByTestId("partition-row-2");
    expect(within(p2).getByTestId("flag-under_min_isr")).toHaveAttribute("data-tone", "error");
    expect(within(p2).queryByTestId("flag-min_isr_unreachable")).toBeNull();
  });

  it("shows no configuration warning for a topic that only lost replicas", async () => {
    stubFetch({ "/api/v1/me": json(ME), [TOPIC_URL]: json(ORDERS) });
    renderApp("/clusters/local/topics/orders");
    await screen.findByTestId("leadership-map");
    expect(screen.queryByTestId("topic-config-warning")).toBeNull();
    expect(screen.queryByTestId("topic-health-min_isr_unreachable")).toBeNull();
    expect(screen.getByTestId("topic-health-under_min_isr")).toHaveClass("summary-bad");
  });
});

describe("TopicPage live", () => {
  it("refetches the topic when a leader or ISR changes, instead of polling every 3 s", async () => {
    let detail: TopicDetail = ORDERS;
    stubFetch({ "/api/v1/me": json(ME), [TOPIC_URL]: () => json(detail) });
    renderApp("/clusters/local/topics/orders");
    await screen.findByTestId("leadership-map");
    const socket = FakeWebSocket.last("/metadata");
    await pushLive(socket);
    expect(screen.getByTestId("lm-cell-0-1")).toHaveAttribute("data-state", "leader");

    detail = { ...ORDERS, partitions: ORDERS.partitions.map((p) => (p.partition === 0 ? { ...p, leader: 2 } : p)) };
    await pushLive(socket, metadataMessage({ changes: [{ topic: "orders", partition: 0, leader: 2, isr: [1, 2, 3] }] }));
    await waitFor(() => expect(screen.getByTestId("lm-cell-0-2")).toHaveAttribute("data-state", "leader"));
  });
});

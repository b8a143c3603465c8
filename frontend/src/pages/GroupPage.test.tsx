import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { GroupDetail, LagHistory, LagPoint, OffsetReset } from "../api/types";
import { FakeWebSocket, pushLive } from "../test/fakeWebSocket";
import { apiError, callsTo, json, stubFetch } from "../test/fetchStub";
import { BILLING, executedResetOf, GROUPS, ME, ORDERS_APP, UNDO_9_OF_8, undoOf, VIEWER, resetOf } from "../test/fixtures";
import { at, groupStateMessage, lagMessage, partitionLag, topicLag } from "../test/liveFixtures";
import { RISK_HELP } from "../lib/lagStatus";
import { renderApp } from "../test/render";

const GROUP_URL = "/api/v1/clusters/local/groups/orders-app";
const RESETS_URL = `${GROUP_URL}/offset-resets`;

/** The reasons the retention notice lists under its heading for a risk. */
function noticeReasons(risk: "near" | "lost"): (string | null)[] {
  const list = within(screen.getByTestId("group-retention-risk")).queryByTestId(`group-retention-reasons-${risk}`);
  return list ? within(list).getAllByRole("listitem").map((li) => li.textContent) : [];
}

const EXECUTED: OffsetReset = executedResetOf({
  id: 8,
  state: "partially_failed",
  executed_at: "2026-07-01T14:01:00.000Z",
  result: [
    { topic: "orders", partition: 0, new_offset: 10, committed: true, error: null },
    { topic: "orders", partition: 1, new_offset: 150, committed: false, error: "NOT_COORDINATOR" },
  ],
});
const UNDO_OF_5 = undoOf(5, { id: 6, reason: "oops", result: [] });
const FIVE = executedResetOf({ id: 5, strategy: { type: "latest" } });
const HISTORY = [EXECUTED, resetOf({ id: 7 }), UNDO_OF_5, FIVE];

describe("GroupPage", () => {
  it("shows the header, lag chart, offsets and export link; viewers get no write controls", async () => {
    stubFetch({ "/api/v1/me": json(VIEWER), [GROUP_URL]: json(ORDERS_APP), [RESETS_URL]: json([]) });
    renderApp("/clusters/local/groups/orders-app");

    expect(await screen.findByTestId("group-offsets-table")).toBeInTheDocument();
    expect(screen.getByTestId("group-state")).toHaveAttribute("data-state", "Empty");
    expect(screen.getByTestId("group-members")).toHaveAttribute("data-count", "0");
    expect(screen.getByTestId("group-total-lag")).toHaveTextContent("120");
    expect(screen.getByTestId("group-coordinator")).toHaveTextContent("broker 2");
    expect(screen.getByTestId("tab-groups")).toHaveAttribute("aria-current", "page");

    const cells = (id: string) => within(screen.getByTestId(id)).getAllByRole("cell").map((c) => c.textContent);
    expect(cells("offset-row-orders-0")).toEqual(["orders", "0", "90", "10", "110", "20", "—", "UNKNOWN", "—"]);
    expect(cells("offset-row-orders-2")).toEqual(["orders", "2", "—", "0", "50", "—", "—", "UNKNOWN", "—"]);
    expect(screen.getByTestId("group-members-empty")).toBeInTheDocument();

    const chart = await screen.findByTestId("lag-chart");
    expect(chart).toHaveAttribute("data-partitions", "3"); // orders-2 has no lag to draw
    expect(chart).toHaveTextContent("Total lag 120 over 3 partitions");
    await waitFor(() => expect(chart.querySelector(".recharts-wrapper")).not.toBeNull());

    expect(screen.getByTestId("export-csv")).toHaveAttribute(
      "href",
      "/api/v1/clusters/local/groups/orders-app/offsets.csv",
    );
    expect(screen.queryByTestId("reset-open")).toBeNull();
    expect(screen.queryByTestId("delete-group")).toBeNull();
    expect(await screen.findByText("No offset reset was planned or run for this group.")).toBeInTheDocument();
  });

  it("lists members with their assignments and disables delete while the group has members", async () => {
    stubFetch({
      "/api/v1/me": json(ME),
      "/api/v1/clusters/local/groups/billing": json(BILLING),
      "/api/v1/clusters/local/groups/billing/offset-resets": json([]),
    });
    renderApp("/clusters/local/groups/billing");
    const members = await screen.findByTestId("group-members-table");
    expect(within(members).getByTestId("member-row-billing-1-aaa")).toHaveTextContent("orders: 0, 1");
    expect(within(members).getByTestId("member-row-billing-2-bbb")).toHaveTextContent("/10.0.0.6");
    expect(screen.getByTestId("group-state")).toHaveAttribute("data-state", "Stable");
    expect(screen.getByTestId("group-members")).toHaveTextContent("2");
    expect(screen.getByTestId("offset-row-orders-1")).toHaveTextContent("billing-1 (/10.0.0.5)");

    expect(screen.getByTestId("delete-group")).toBeDisabled();
    expect(screen.getByTestId("delete-group-hint")).toHaveTextContent("stop its 2 members first");
    expect(screen.getByTestId("reset-open")).toBeEnabled();
  });

  it("deletes an empty group after the id is typed, and shows a refusal in the dialog", async () => {
    let answer = apiError(409, "group_active", "Group 'orders-app' has 1 member.");
    const fetch = stubFetch({
      "/api/v1/me": json(ME),
      [GROUP_URL]: (_url, init) => (init?.method === "DELETE" ? answer : json(ORDERS_APP)),
      [RESETS_URL]: json([]),
      "/api/v1/clusters/local/groups": json(GROUPS),
    });
    renderApp("/clusters/local/groups/orders-app");
    fireEvent.click(await screen.findByTestId("delete-group"));
    const button = screen.getByTestId("confirm-button");
    expect(button).toBeDisabled();
    fireEvent.change(screen.getByTestId("confirm-input"), { target: { value: "orders-app " } });
    expect(button).toBeDisabled();
    fireEvent.change(screen.getByTestId("confirm-input"), { target: { value: "orders-app" } });
    fireEvent.click(button);
    expect(await within(screen.getByTestId("confirm-dialog")).findByRole("alert")).toHaveTextContent(
      "Group 'orders-app' has 1 member.",
    );

    answer = { status: 204 };
    fireEvent.click(screen.getByTestId("confirm-button"));
    expect(await screen.findByTestId("flash")).toHaveTextContent("Consumer group orders-app was deleted.");
    expect(callsTo(fetch, GROUP_URL, "DELETE")).toHaveLength(2);
    expect(await screen.findByTestId("groups-table")).toBeInTheDocument();
  });
});

describe("Reset history", () => {
  it("lists resets newest first, expands plan and result, and offers undo on executed resets not undone", async () => {
    const fetch = stubFetch({
      "/api/v1/me": json(ME),
      [GROUP_URL]: json(ORDERS_APP),
      [RESETS_URL]: json(HISTORY),
      "/api/v1/offset-resets/8/undo": json(UNDO_9_OF_8, 201),
    });
    renderApp("/clusters/local/groups/orders-app");

    const history = await screen.findByTestId("reset-history");
    const rows = await within(history).findAllByTestId(/^history-row-/);
    expect(rows.map((r) => r.getAttribute("data-testid"))).toEqual([
      "history-row-8",
      "history-row-7",
      "history-row-6",
      "history-row-5",
    ]);
    const row8 = screen.getByTestId("history-row-8");
    expect(row8).toHaveTextContent("alice");
    expect(row8).toHaveTextContent("To date-time 2026-07-01T09:30:00.000-04:00");
    expect(row8).toHaveTextContent("executed");
    expect(row8).toHaveTextContent("partially failed");
    expect(row8).toHaveTextContent("INC-1: replay");
    expect(screen.getByTestId("history-row-7")).toHaveTextContent("dry run");
    expect(screen.getByTestId("history-undo-of-6")).toHaveTextContent("undo of #5");
    expect(screen.getByTestId("history-row-5")).toHaveTextContent("undone by #6");

    expect(screen.getByTestId("history-undo-8")).toBeInTheDocument();
    expect(screen.queryByTestId("history-undo-7")).toBeNull(); // dry run
    expect(screen.queryByTestId("history-undo-5")).toBeNull(); // already undone

    fireEvent.click(screen.getByTestId("history-toggle-7"));
    expect(screen.getByTestId("history-7-reset-plan")).toBeInTheDocument();
    expect(screen.getByTestId("history-7-clamped-orders-0")).toBeInTheDocument();

    fireEvent.click(screen.getByTestId("history-undo-8"));
    const detail = screen.getByTestId("history-detail-8");
    expect(within(detail).getByTestId("history-result-8")).toHaveAttribute("data-failed", "1");
    expect(within(detail).getByTestId("history-8-result-row-orders-1")).toHaveTextContent("NOT_COORDINATOR");
    fireEvent.change(screen.getByTestId("history-undo-reason-8"), { target: { value: "back out" } });
    fireEvent.click(screen.getByTestId("history-undo-confirm-8"));
    expect(await screen.findByTestId("history-undo-result-8")).toHaveTextContent("Undo of reset #8");
    const posts = callsTo(fetch, "/api/v1/offset-resets/8/undo", "POST");
    expect(posts).toHaveLength(1);
    expect(JSON.parse(String(posts[0]![1]!.body))).toEqual({ reason: "back out" });
  });

  it("shows a group_active refusal of an undo prominently", async () => {
    stubFetch({
      "/api/v1/me": json(ME),
      [GROUP_URL]: json(ORDERS_APP),
      [RESETS_URL]: json(HISTORY),
      "/api/v1/offset-resets/8/undo": json(
        {
          error: {
            code: "group_active",
            message: "Offsets can only be changed while group 'orders-app' is inactive, but it is Stable with 3 members.",
            details: {},
          },
        },
        409,
      ),
    });
    renderApp("/clusters/local/groups/orders-app");
    fireEvent.click(await screen.findByTestId("history-undo-8"));
    fireEvent.click(screen.getByTestId("history-undo-confirm-8"));
    expect(await screen.findByTestId("history-undo-error-8")).toHaveTextContent("it is Stable with 3 members");
    expect(screen.getByTestId("history-undo-error-8")).toHaveTextContent("Not undone: the group is active.");
  });

  it("is empty-safe for viewers (no undo)", async () => {
    stubFetch({ "/api/v1/me": json(VIEWER), [GROUP_URL]: json(ORDERS_APP), [RESETS_URL]: json(HISTORY) });
    renderApp("/clusters/local/groups/orders-app");
    await screen.findByTestId("history-row-8");
    expect(screen.queryByTestId("history-undo-8")).toBeNull();
  });
});

describe("GroupPage live", () => {
  const BILLING_URL = "/api/v1/clusters/local/groups/billing";
  const HISTORY_URL = `${BILLING_URL}/lag-history`;
  const historyPoint = (seconds: number, lag: number): LagPoint => ({
    ts: at(seconds),
    topic: "orders",
    lag,
    lag_seconds: lag / 10,
    write_per_s: 4,
    consume_per_s: 3,
    status: "OK",
  });
  const SAMPLED: GroupDetail = {
    ...BILLING,
    status: "OK",
    sampled_at: at(0),
    max_lag_seconds: 1,
    catch_up_seconds: 5,
    rates: { write_per_s: 4, consume_per_s: 5 },
    topics: [
      { topic: "orders", lag: 5, max_lag_seconds: 1, rates: { write_per_s: 4, consume_per_s: 5 }, catch_up_seconds: 5, retention_risk: "none", retention_reason: null },
      { topic: "payments", lag: 0, max_lag_seconds: 0, rates: { write_per_s: 0, consume_per_s: 0 }, catch_up_seconds: 0, retention_risk: "none", retention_reason: null },
    ],
  };
  const NEAR_REASON =
    "orders-0: unread records can be deleted in 3 h: retention.ms is 7 d and the oldest unread record is 6 d 21 h old; the group is not catching up";
  const NEAR_REASON_LATER =
    "orders-0: unread records can be deleted in 2 h: retention.ms is 7 d and the oldest unread record is 6 d 22 h old; the group is not catching up";
  const LOST_REASON = "orders-1: retention deleted 10 records the group had not read";
  // A sample 60 s later: orders falls behind, partition 0 near deletion.
  const SAMPLE = lagMessage("billing", {
    ts: at(60),
    total_lag: 30,
    max_lag: 20,
    max_lag_seconds: 65,
    status: "WARN",
    state: "Stable",
    member_count: 2,
    catch_up_seconds: null,
    retention_risk: "near",
    retention_reason: NEAR_REASON,
    topics: {
      orders: topicLag({
        lag: 30,
        max_lag_seconds: 65,
        write_per_s: 6,
        consume_per_s: 2,
        catch_up_seconds: null,
        retention_risk: "near",
        retention_reason: NEAR_REASON,
      }),
      payments: topicLag({ lag: 0, max_lag_seconds: 0, write_per_s: 0, consume_per_s: 0 }),
    },
    partitions: [
      partitionLag("orders", 0, { committed_offset: 100, log_end_offset: 120, lag: 20, lag_seconds: 65, status: "WARN", retention_risk: "near" }),
      partitionLag("orders", 1, { committed_offset: 197, log_end_offset: 207, lag: 10, lag_seconds: 30, status: "OK" }),
      partitionLag("payments", 0, { committed_offset: 7, log_end_offset: 7, lag: 0, lag_seconds: 0, status: "OK" }),
    ],
  });

  function stubBilling(detail: () => GroupDetail = () => SAMPLED) {
    const history: string[] = [];
    const fetch = stubFetch({
      "/api/v1/me": json(ME),
      [BILLING_URL]: () => json(detail()),
      [`${BILLING_URL}/offset-resets`]: json([]),
      [HISTORY_URL]: (url) => {
        history.push(url);
        const window = new URL(url, "http://x").searchParams.get("window") === "24h" ? "24h" : "1h";
        const body: LagHistory = {
          group_id: "billing",
          window,
          points: window === "1h" ? [historyPoint(-10, 3), historyPoint(-5, 4), historyPoint(0, 5)] : [historyPoint(-600, 1)],
        };
        return json(body);
      },
    });
    return { fetch, history };
  }

  it("updates the facts, statuses, offsets and both charts from the group's lag messages", async () => {
    const { history } = stubBilling();
    renderApp("/clusters/local/groups/billing");
    await screen.findByTestId("group-offsets-table");
    expect(screen.getByTestId("group-status")).toHaveAttribute("data-status", "OK");
    expect(screen.getByTestId("group-catch-up")).toHaveTextContent("5 s");
    const chart = screen.getByTestId("lag-history");
    await waitFor(() => expect(chart).toHaveAttribute("data-points", "3"));
    expect(chart).toHaveAttribute("data-topic", "orders");
    expect(chart).toHaveAttribute("data-window", "1h");
    expect(history[0]).toBe(`${HISTORY_URL}?window=1h&topic=orders`);
    expect(screen.getByTestId("partition-lag-waiting")).toHaveTextContent("since this page opened");

    const socket = await waitFor(() => FakeWebSocket.last("/lag"));
    expect(socket.url).toMatch(/\/ws\/clusters\/local\/lag$/);
    await pushLive(socket, SAMPLE);
    expect(socket.sent).toEqual([{ subscribe: { groups: ["billing"] } }]);
    expect(screen.getByTestId("live-indicator")).toHaveAttribute("data-status", "live");

    expect(screen.getByTestId("group-status")).toHaveAttribute("data-status", "WARN");
    expect(screen.getByTestId("group-total-lag")).toHaveAttribute("data-lag", "30");
    expect(screen.getByTestId("group-lag-seconds")).toHaveTextContent("1 m 05 s");
    expect(screen.getByTestId("group-catch-up")).toHaveTextContent("never");
    expect(screen.getByTestId("group-rates")).toHaveTextContent("6/s / 2/s");
    const notice = screen.getByTestId("group-retention-risk");
    expect(notice).toHaveAttribute("data-risk", "near");
    expect(notice).toHaveTextContent("Records close to deletion:");
    expect(noticeReasons("near")).toEqual([NEAR_REASON]);
    expect(notice).not.toHaveTextContent("oldest part of the retained log");
    expect(notice).not.toHaveTextContent("segment deletion");
    expect(screen.getByTestId("group-risk")).toHaveAttribute("title", NEAR_REASON);
    expect(screen.getByTestId("group-topic-risk-orders")).toHaveAttribute("title", NEAR_REASON);
    // The message has no partition reasons, and the REST row had no risk: the generic help.
    expect(screen.getByTestId("offset-risk-orders-0")).toHaveAttribute("title", RISK_HELP.near);
    const cells = within(screen.getByTestId("offset-row-orders-0")).getAllByRole("cell").map((c) => c.textContent);
    expect(cells).toEqual(["orders", "0", "100", "10", "120", "20", "1 m 05 s", "WARN⚠ near", "billing-1 (/10.0.0.5)"]);
    expect(screen.getByTestId("offset-risk-orders-0")).toHaveAttribute("data-risk", "near");
    expect(screen.getByTestId("group-topic-row-orders")).toHaveTextContent("never");
    expect(screen.getByTestId("group-topic-row-payments")).toHaveTextContent("caught up");

    // The live sample is appended to the history without refetching it.
    expect(chart).toHaveAttribute("data-points", "4");
    expect(history).toHaveLength(1);
    await waitFor(() => expect(chart.querySelector(".recharts-wrapper")).not.toBeNull());
    const partitions = screen.getByTestId("partition-lag-history");
    expect(partitions).toHaveAttribute("data-samples", "1");
    expect(partitions).toHaveAttribute("data-lines", "3");
    await waitFor(() => expect(partitions.querySelector(".recharts-wrapper")).not.toBeNull());

    // The next sample: the same risk, a new reason (the margin shrank).
    await pushLive(
      socket,
      {
        ...SAMPLE,
        ts: at(65),
        retention_reason: NEAR_REASON_LATER,
        topics: { ...SAMPLE.topics, orders: { ...SAMPLE.topics.orders!, retention_reason: NEAR_REASON_LATER } },
      },
      lagMessage("other-group", { ts: at(70) }),
    );
    expect(partitions).toHaveAttribute("data-samples", "2");
    expect(chart).toHaveAttribute("data-points", "5");
    expect(noticeReasons("near")).toEqual([NEAR_REASON_LATER]);
    expect(screen.getByTestId("group-topic-risk-orders")).toHaveAttribute("title", NEAR_REASON_LATER);
    expect(screen.getByTestId("group-risk")).toHaveAttribute("title", NEAR_REASON_LATER);

    // 24 h: fetched again for that window (one point a minute), the live samples merged in.
    fireEvent.click(screen.getByTestId("lag-window-24h"));
    await waitFor(() => expect(history).toHaveLength(2));
    expect(history[1]).toBe(`${HISTORY_URL}?window=24h&topic=orders`);
    await waitFor(() => expect(chart).toHaveAttribute("data-window", "24h"));
    await waitFor(() => expect(chart).toHaveAttribute("data-points", "2")); // -600 s, and the live minute

    // 7 d: the week series (one point every 10 minutes), fetched for that window.
    fireEvent.click(screen.getByTestId("lag-window-7d"));
    await waitFor(() => expect(history).toHaveLength(3));
    expect(history[2]).toBe(`${HISTORY_URL}?window=7d&topic=orders`);
    await waitFor(() => expect(chart).toHaveAttribute("data-window", "7d"));
  });

  it("refetches the detail at once when the group's membership changes", async () => {
    let detail = SAMPLED;
    const { fetch } = stubBilling(() => detail);
    renderApp("/clusters/local/groups/billing");
    await screen.findByTestId("group-members-table");
    const socket = await waitFor(() => FakeWebSocket.last("/lag"));
    await pushLive(socket);
    const detailCalls = () => fetch.mock.calls.filter(([url]) => String(url) === BILLING_URL).length;
    expect(detailCalls()).toBe(1);

    detail = { ...SAMPLED, state: "Empty", members: [] };
    await pushLive(socket, groupStateMessage("billing", { ts: at(60), state: "Empty", member_count: 0, previous_state: "Stable" }));
    await waitFor(() => expect(detailCalls()).toBe(2));
    expect(await screen.findByTestId("group-members-empty")).toBeInTheDocument();
    expect(screen.getByTestId("group-state")).toHaveAttribute("data-state", "Empty");
  });

  it("says records were lost when retention deleted unread records, and why", async () => {
    const partitionReason = "retention deleted 10 records the group had not read";
    stubBilling(() => ({
      ...SAMPLED,
      retention_risk: "lost",
      retention_reason: LOST_REASON,
      topics: SAMPLED.topics.map((t) => (t.topic === "orders" ? { ...t, retention_risk: "lost" as const, retention_reason: LOST_REASON } : t)),
      offsets: SAMPLED.offsets.map((o) =>
        o.topic === "orders" && o.partition === 1 ? { ...o, retention_risk: "lost" as const, retention_reason: partitionReason } : o,
      ),
    }));
    renderApp("/clusters/local/groups/billing");
    const notice = await screen.findByTestId("group-retention-risk");
    expect(notice).toHaveAttribute("data-risk", "lost");
    expect(notice).toHaveAttribute("role", "alert");
    expect(within(notice).getAllByRole("paragraph").map((p) => p.textContent)).toEqual([
      "Records lost: retention deleted records of orders before this group consumed them. The group skips them when it resumes.",
    ]);
    expect(noticeReasons("lost")).toEqual([LOST_REASON]);
    expect(notice).not.toHaveTextContent("Records close to deletion");
    expect(screen.getByTestId("group-risk")).toHaveAttribute("title", LOST_REASON);
    expect(screen.getByTestId("group-topic-risk-orders")).toHaveAttribute("title", LOST_REASON);
    expect(screen.getByTestId("offset-risk-orders-1")).toHaveTextContent("lost");
    expect(screen.getByTestId("offset-risk-orders-1")).toHaveAttribute("title", partitionReason);
    expect(screen.getByTestId("offset-risk-orders-1").closest("td")).toHaveAttribute("title", partitionReason);
    expect(screen.getByTestId("offset-status-orders-0").closest("td")).not.toHaveAttribute("title");
  });

  it("shows a partition's reason from the detail until a live sample changes its risk", async () => {
    const partitionReason =
      "unread records can be deleted in 5 h: retention.ms is 7 d and the oldest unread record is 6 d 19 h old; the group is not catching up";
    stubBilling(() => ({
      ...SAMPLED,
      retention_risk: "near",
      retention_reason: `orders-0: ${partitionReason}`,
      topics: SAMPLED.topics.map((t) =>
        t.topic === "orders" ? { ...t, retention_risk: "near" as const, retention_reason: `orders-0: ${partitionReason}` } : t,
      ),
      offsets: SAMPLED.offsets.map((o) =>
        o.topic === "orders" && o.partition === 0 ? { ...o, retention_risk: "near" as const, retention_reason: partitionReason } : o,
      ),
    }));
    renderApp("/clusters/local/groups/billing");
    await screen.findByTestId("group-offsets-table");
    expect(noticeReasons("near")).toEqual([`orders-0: ${partitionReason}`]);
    expect(screen.getByTestId("offset-risk-orders-0")).toHaveAttribute("title", partitionReason);

    // Still near: the detail's partition reason stays; the group's and the topic's are the message's.
    const socket = await waitFor(() => FakeWebSocket.last("/lag"));
    await pushLive(socket, SAMPLE);
    expect(screen.getByTestId("offset-risk-orders-0")).toHaveAttribute("title", partitionReason);
    expect(noticeReasons("near")).toEqual([NEAR_REASON]);

    // Now lost: the detail's reason was about near, so the partition's is unknown (the generic help).
    await pushLive(
      socket,
      lagMessage("billing", {
        ts: at(120),
        retention_risk: "lost",
        retention_reason: LOST_REASON,
        topics: { orders: topicLag({ retention_risk: "lost", retention_reason: LOST_REASON }), payments: topicLag() },
        partitions: [partitionLag("orders", 0, { retention_risk: "lost" }), partitionLag("orders", 1), partitionLag("payments", 0)],
      }),
    );
    expect(screen.getByTestId("offset-risk-orders-0")).toHaveAttribute("title", RISK_HELP.lost);
    expect(screen.getByTestId("group-retention-risk")).toHaveAttribute("data-risk", "lost");
    expect(noticeReasons("lost")).toEqual([LOST_REASON]);
    expect(noticeReasons("near")).toEqual([]);

    // The risk is gone: no notice, no badge.
    await pushLive(
      socket,
      lagMessage("billing", {
        ts: at(180),
        topics: { orders: topicLag(), payments: topicLag() },
        partitions: [partitionLag("orders", 0), partitionLag("orders", 1), partitionLag("payments", 0)],
      }),
    );
    expect(screen.queryByTestId("group-retention-risk")).toBeNull();
    expect(screen.queryByTestId("offset-risk-orders-0")).toBeNull();
    expect(screen.queryByTestId("group-risk")).toBeNull();
  });
});

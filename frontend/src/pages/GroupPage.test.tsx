import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { OffsetReset } from "../api/types";
import { json, stubFetch } from "../test/fetchStub";
import { BILLING, GROUPS, ME, ORDERS_APP, VIEWER, resetOf } from "../test/fixtures";
import { renderApp } from "../test/render";

const GROUP_URL = "/api/v1/clusters/local/groups/orders-app";
const RESETS_URL = `${GROUP_URL}/offset-resets`;

function callsTo(fetch: ReturnType<typeof stubFetch>, path: string, method: string) {
  return fetch.mock.calls.filter(([url, init]) => String(url).split("?")[0] === path && (init?.method ?? "GET") === method);
}

const EXECUTED: OffsetReset = resetOf({
  id: 8,
  dry_run: false,
  executed: true,
  state: "partially_failed",
  executed_at: "2026-07-01T14:01:00.000Z",
  result: [
    { topic: "orders", partition: 0, new_offset: 10, committed: true, error: null },
    { topic: "orders", partition: 1, new_offset: 150, committed: false, error: "NOT_COORDINATOR" },
  ],
});
const UNDO_OF_5 = resetOf({
  id: 6,
  dry_run: false,
  executed: true,
  state: "succeeded",
  strategy: { type: "undo", undo_of: 5 },
  undo_of: 5,
  reason: "oops",
  result: [],
});
const FIVE = resetOf({ id: 5, dry_run: false, executed: true, state: "succeeded", strategy: { type: "latest" } });
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
    expect(cells("offset-row-orders-0")).toEqual(["orders", "0", "90", "10", "110", "20", "—"]);
    expect(cells("offset-row-orders-2")).toEqual(["orders", "2", "—", "0", "50", "—", "—"]);
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
    let answer = json({ error: { code: "group_active", message: "Group 'orders-app' has 1 member.", details: {} } }, 409);
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
    const undo = resetOf({
      id: 9,
      dry_run: false,
      executed: true,
      state: "succeeded",
      strategy: { type: "undo", undo_of: 8 },
      undo_of: 8,
      result: [{ topic: "orders", partition: 0, new_offset: 90, committed: true, error: null }],
    });
    const fetch = stubFetch({
      "/api/v1/me": json(ME),
      [GROUP_URL]: json(ORDERS_APP),
      [RESETS_URL]: json(HISTORY),
      "/api/v1/offset-resets/8/undo": json(undo, 201),
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

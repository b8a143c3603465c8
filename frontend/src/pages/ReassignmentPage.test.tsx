import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ElectionResult, Reassignment } from "../api/types";
import { FakeWebSocket, pushLive } from "../test/fakeWebSocket";
import { apiError, bodiesTo, callsTo, json, type Route, stubFetch } from "../test/fetchStub";
import { ADMIN } from "../test/fixtures";
import { COMPLETED, ELECT_URL, MIB, MOVING, REASSIGNMENT_7_URL } from "../test/reassignFixtures";
import { renderApp } from "../test/render";
import { reassignmentCompleted, reassignmentMoving } from "../test/socketSamples.gen";
import { expectScreenful, giveScrollBoxHeight, renderedRowIds } from "../test/virtualTable";

const SOCKET = "/ws/clusters/local/reassignments/7";
const CANCEL_URL = `${REASSIGNMENT_7_URL}/cancel`;

function routes(current: () => Reassignment, extra: Record<string, Route> = {}) {
  return {
    "/api/v1/me": json(ADMIN),
    [REASSIGNMENT_7_URL]: (_url: string, init: RequestInit | undefined) =>
      init?.method === "PATCH"
        ? json({ ...current(), throttle_bytes_per_s: JSON.parse(String(init.body)).throttle_bytes_per_s })
        : json(current()),
    ...extra,
  };
}

const progress = () => screen.getByTestId("reassign-progress");

afterEach(() => {
  vi.useRealTimers();
});

describe("ReassignmentPage", () => {
  it("shows a running reassignment, then follows its socket's pushes to the end", async () => {
    stubFetch(routes(() => MOVING));
    renderApp("/clusters/local/reassignments/7");
    expect(await screen.findByTestId("reassign-state")).toHaveTextContent("running");
    expect(document.title).toBe("Reassignment #7 · local · Kafka Console");
    expect(screen.getByTestId("tab-reassignments")).toHaveAttribute("aria-current", "page");

    // 32 MiB of 50 MiB: 64 %.
    expect(progress()).toHaveAttribute("role", "progressbar");
    expect(progress()).toHaveAttribute("aria-valuenow", "64");
    expect(screen.getByTestId("reassign-copied")).toHaveTextContent("32.0 MiB of 50.0 MiB copied");
    expect(screen.getByTestId("reassign-time-left")).toHaveTextContent("about 18 s left");
    expect(screen.getByTestId("reassign-throttle-value")).toHaveTextContent("1.00 MiB/s per broker");
    expect(screen.getByTestId("reassign-reason-value")).toHaveTextContent("drain broker 1");
    expect(screen.getByTestId("reassign-throttle-change")).toHaveValue("1");
    expect(screen.getByTestId("reassign-cancel")).toBeInTheDocument();
    expect(screen.queryByTestId("reassign-leaders")).toBeNull();

    const row0 = screen.getByTestId("reassign-row-orders-0");
    expect(row0).toHaveAttribute("data-state", "moving");
    // topic, partition, from → to, adding, removing, ISR, leader, copied, state
    expect(within(row0).getAllByRole("cell").map((c) => c.textContent)).toEqual([
      "orders", "0", "1, 2 → 2, 3", "3", "1", "1, 2", "1 ⚠", "40 %", "moving",
    ]);
    expect(within(row0).getByRole("progressbar")).toHaveAttribute("aria-valuenow", "40");
    expect(screen.getByTestId("reassign-row-orders-1")).toHaveAttribute("data-state", "done");
    expect(screen.getByTestId("reassign-download-plan")).toHaveAttribute("download", "reassignment-plan.json");

    const socket = await waitFor(() => FakeWebSocket.last(SOCKET));
    await pushLive(socket, reassignmentMoving);
    expect(screen.getByTestId("live-indicator")).toHaveAttribute("data-status", "live");

    await pushLive(socket, reassignmentCompleted);
    expect(screen.getByTestId("reassign-state")).toHaveTextContent("completed");
    expect(progress()).toHaveAttribute("aria-valuenow", "100");
    expect(screen.getByTestId("reassign-copied")).toHaveTextContent("50.0 MiB of 50.0 MiB copied");
    expect(screen.queryByTestId("reassign-time-left")).toBeNull();
    expect(screen.queryByTestId("reassign-cancel")).toBeNull();
    expect(screen.queryByTestId("reassign-throttle-change")).toBeNull();
    expect(screen.getByTestId("reassign-row-orders-0")).toHaveAttribute("data-state", "done");
    expect(screen.getByTestId("reassign-leaders-callout")).toHaveTextContent(
      "1 moved partition is not led by its preferred leader",
    );
  });

  it("polls every 2 s while its socket is not live, and no more once it is", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    let current = MOVING;
    const fetch = stubFetch(routes(() => current));
    renderApp("/clusters/local/reassignments/7");
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(progress()).toHaveAttribute("aria-valuenow", "64");

    current = { ...MOVING, bytes_copied: 47_185_920 };
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(progress()).toHaveAttribute("aria-valuenow", "90");
    expect(callsTo(fetch, REASSIGNMENT_7_URL)).toHaveLength(2);

    const socket = FakeWebSocket.last(SOCKET);
    await act(async () => {
      socket.open();
      socket.receive({ type: "status", live: true });
      socket.receive(reassignmentMoving);
      await vi.advanceTimersByTimeAsync(150);
    });
    expect(progress()).toHaveAttribute("aria-valuenow", "64");
    const polled = callsTo(fetch, REASSIGNMENT_7_URL).length;
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(callsTo(fetch, REASSIGNMENT_7_URL)).toHaveLength(polled);
  });

  it("elects preferred leaders on exactly the partitions not led by their first replica, then fetches it again", async () => {
    let current = COMPLETED;
    const fetch = stubFetch(
      routes(() => current, {
        [ELECT_URL]: () => {
          current = { ...COMPLETED, partitions: COMPLETED.partitions.map((p) => ({ ...p, leader: p.to[0]! })) };
          const rows: ElectionResult[] = [{ topic: "orders", partition: 0, outcome: "elected", error: null }];
          return json(rows);
        },
      }),
    );
    renderApp("/clusters/local/reassignments/7");
    const callout = await screen.findByTestId("reassign-leaders-callout");
    expect(callout).toHaveTextContent("1 moved partition is not led by its preferred leader");
    expect(screen.getByTestId("reassign-row-orders-0")).toHaveAttribute("data-preferred", "false");
    expect(screen.getByTestId("reassign-row-orders-1")).toHaveAttribute("data-preferred", "true");

    fireEvent.click(within(callout).getByTestId("reassign-elect-leaders"));
    expect(await screen.findByTestId("reassign-election-result")).toHaveTextContent(
      "Preferred election: 1 elected, 0 not needed, 0 failed.",
    );
    const posted = bodiesTo(fetch, ELECT_URL, "POST");
    expect(posted).toEqual([{ election: "preferred", partitions: [{ topic: "orders", partition: 0 }] }]);

    // Fetched again: every leader is the preferred one now.
    expect(await screen.findByTestId("reassign-leaders-ok")).toHaveTextContent(
      "Every moved partition is led by its preferred leader.",
    );
    expect(screen.queryByTestId("reassign-leaders-callout")).toBeNull();
    expect(screen.getByTestId("reassign-election-result")).toBeInTheDocument();
    expect(callsTo(fetch, REASSIGNMENT_7_URL).length).toBeGreaterThanOrEqual(2);
  });

  it("says so when every leader is the preferred one", async () => {
    stubFetch(routes(() => ({ ...COMPLETED, partitions: COMPLETED.partitions.map((p) => ({ ...p, leader: p.to[0]! })) })));
    renderApp("/clusters/local/reassignments/7");
    expect(await screen.findByTestId("reassign-leaders-ok")).toBeInTheDocument();
    expect(screen.queryByTestId("reassign-elect-leaders")).toBeNull();
  });

  it("changes the throttle of a running reassignment", async () => {
    const fetch = stubFetch(routes(() => MOVING));
    renderApp("/clusters/local/reassignments/7");
    const input = await screen.findByTestId("reassign-throttle-change");
    fireEvent.change(input, { target: { value: "abc" } });
    fireEvent.click(screen.getByTestId("reassign-throttle-apply"));
    expect(screen.getByTestId("reassign-throttle-error")).toHaveTextContent("Give the throttle in MiB/s");
    expect(callsTo(fetch, REASSIGNMENT_7_URL, "PATCH")).toHaveLength(0);

    fireEvent.change(input, { target: { value: "2.5" } });
    fireEvent.click(screen.getByTestId("reassign-throttle-apply"));
    expect(await screen.findByTestId("reassign-throttle-changed")).toHaveTextContent("Throttle now 2.50 MiB/s per broker.");
    expect(bodiesTo(fetch, REASSIGNMENT_7_URL, "PATCH")).toEqual([
      { throttle_bytes_per_s: 2.5 * MIB },
    ]);
    expect(screen.getByTestId("reassign-throttle-value")).toHaveTextContent("2.50 MiB/s per broker");
  });

  it("cancels only after the confirmation", async () => {
    let current = MOVING;
    const fetch = stubFetch(
      routes(() => current, {
        [CANCEL_URL]: () => {
          current = { ...MOVING, state: "cancelled", finished_at: "2026-07-01T10:00:20+00:00" };
          return json(current);
        },
      }),
    );
    renderApp("/clusters/local/reassignments/7");
    fireEvent.click(await screen.findByTestId("reassign-cancel"));
    expect(screen.getByTestId("confirm-dialog")).toHaveTextContent("Cancel reassignment #7?");
    fireEvent.click(screen.getByTestId("confirm-dismiss"));
    expect(callsTo(fetch, CANCEL_URL, "POST")).toHaveLength(0);

    fireEvent.click(screen.getByTestId("reassign-cancel"));
    fireEvent.click(screen.getByTestId("confirm-button"));
    await waitFor(() => expect(screen.getByTestId("reassign-state")).toHaveTextContent("cancelled"));
    expect(callsTo(fetch, CANCEL_URL, "POST")).toHaveLength(1);
    expect(callsTo(fetch, CANCEL_URL, "POST")[0]![1]?.body).toBeUndefined();
    expect(screen.queryByTestId("reassign-cancel")).toBeNull();
  });

  it("keeps the dialog open with the server's reason when the cancel is refused", async () => {
    stubFetch(routes(() => MOVING, { [CANCEL_URL]: apiError(409, "not_running", "Reassignment 7 is completed, not running.") }));
    renderApp("/clusters/local/reassignments/7");
    fireEvent.click(await screen.findByTestId("reassign-cancel"));
    fireEvent.click(screen.getByTestId("confirm-button"));
    expect(await screen.findByTestId("reassign-cancel-error")).toHaveTextContent("Reassignment 7 is completed, not running.");
  });

  it("shows a failed reassignment's error", async () => {
    stubFetch(routes(() => ({ ...MOVING, state: "failed", error: "orders-0 has replicas [1, 4], neither the old nor the plan's." })));
    renderApp("/clusters/local/reassignments/7");
    expect(await screen.findByTestId("reassign-error")).toHaveTextContent("The reassignment failed");
    expect(screen.getByTestId("reassign-error")).toHaveTextContent("orders-0 has replicas [1, 4]");
    expect(progress()).toHaveClass("progress-failed");
    expect(screen.queryByTestId("reassign-time-left")).toBeNull();
  });

  it("answers an id that is no number with the not-found page", async () => {
    const fetch = stubFetch(routes(() => MOVING));
    renderApp("/clusters/local/reassignments/seven");
    expect(await screen.findByTestId("not-found")).toBeInTheDocument();
    expect(callsTo(fetch, "/api/v1/clusters/local/reassignments/seven")).toHaveLength(0);
  });
});

describe("ReassignmentPage with many partitions", () => {
  giveScrollBoxHeight("reassign-partitions");

  it("renders only a screenful of 5,000 partitions", async () => {
    const base = MOVING.partitions[0]!;
    const partitions = Array.from({ length: 5000 }, (_, i) => ({
      ...base,
      topic: `t-${String(Math.floor(i / 10)).padStart(3, "0")}`,
      partition: i % 10,
    }));
    stubFetch(routes(() => ({ ...MOVING, partitions })));
    renderApp("/clusters/local/reassignments/7");
    await screen.findByTestId("reassign-partitions-table");
    const ids = renderedRowIds("reassign-partitions", "reassign-row-");
    expectScreenful(ids);
    expect(ids[0]).toBe("t-000-0");
    expect(screen.getByTestId("reassign-partitions-count")).toHaveTextContent("5,000 partitions");
  });
});

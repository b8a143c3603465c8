import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Approval, CurrentUser } from "../api/types";
import { APPROVALS_POLL_MS } from "../hooks/useApprovals";
import { FakeWebSocket, pushLive } from "../test/fakeWebSocket";
import { apiError, json, type Route, stubFetch } from "../test/fetchStub";
import { approvalOf, executedResetOf, ME, OLGA, resetOf, TOPIC_DELETE_REQUEST } from "../test/fixtures";
import { renderApp } from "../test/render";

const LIST_URL = "/api/v1/approvals";
const NOW = new Date("2026-07-01T14:10:00Z");

afterEach(() => {
  vi.useRealTimers();
});

/** alice's pending reset (#12, operators decide it) and bob's pending topic delete (#11, admins). */
const RESET_REQUEST = approvalOf();
const PENDING = [RESET_REQUEST, TOPIC_DELETE_REQUEST];

const FAILED = approvalOf({
  id: 9,
  state: "failed",
  decided_by: "olga",
  decided_at: "2026-07-01T14:05:00.000+00:00",
  error: {
    code: "plan_stale",
    message: "The committed offsets of orders-app moved since preview 7: preview again.",
    details: { changes: [{ topic: "orders", partition: 1, planned_current_offset: 100, current_offset: 130 }] },
  },
});
const EXECUTED = approvalOf({
  id: 8,
  state: "executed",
  decided_by: "olga",
  decided_at: "2026-07-01T13:40:00.000+00:00",
  decision_reason: "checked with the team",
  result: executedResetOf({ result: [{ topic: "orders", partition: 0, new_offset: 10, committed: true, error: null }] }),
});

/** The approvals API: the list by `?state=` (pending by default answers PENDING), one request,
 * preview #7; `extra` adds or replaces routes. */
function stubApprovals({ user = OLGA, list, extra = {} }: { user?: CurrentUser; list?: () => Approval[]; extra?: Record<string, Route> } = {}) {
  const all = () => list?.() ?? [...PENDING, FAILED, EXECUTED];
  return stubFetch({
    "/api/v1/me": json(user),
    [LIST_URL]: (url) => {
      const state = new URL(url, "http://x").searchParams.get("state");
      return json(all().filter((a) => state === null || a.state === state));
    },
    "/api/v1/approvals/8": json(EXECUTED),
    "/api/v1/approvals/9": json(FAILED),
    "/api/v1/offset-resets/7": json(resetOf()),
    ...extra,
  });
}

function listQueries(fetch: ReturnType<typeof stubFetch>): string[] {
  return fetch.mock.calls
    .map(([url]) => String(url))
    .filter((url) => url.split("?")[0] === LIST_URL)
    .map((url) => new URL(url, "http://x").searchParams.toString());
}

const cells = (testId: string) =>
  within(screen.getByTestId(testId))
    .getAllByRole("cell")
    .map((c) => c.textContent ?? "");

describe("ApprovalsPage", () => {
  it("lists the pending requests: cluster, action, target, summary, requester, age, expiry, state; the top bar counts them", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    const fetch = stubApprovals();
    renderApp("/approvals");
    await screen.findByTestId("approval-row-12");
    expect(document.title).toBe("Approvals · Kafka Console");
    expect(screen.getByTestId("approvals-table")).toHaveAttribute("data-count", "2");
    expect(cells("approval-row-12")).toEqual([
      "#12",
      "local",
      "Offset reset",
      "orders-app",
      "Execute preview 7: reset group orders-app on 4 partitions as planned (to_datetime).",
      "alice",
      "10 min",
      "50 min",
      "pending",
    ]);
    expect(cells("approval-row-11").slice(1, 4)).toEqual(["staging", "Topic delete", "ledger"]);
    expect(cells("approval-row-11").slice(6)).toEqual(["20 min", "40 min", "pending"]);
    expect(screen.getByTestId("approvals-count")).toHaveTextContent("2 pending requests");
    const nav = screen.getByRole("navigation", { name: "Main" });
    expect(within(nav).getByRole("link", { name: /Approvals/ })).toHaveClass("active");
    await waitFor(() => expect(screen.getByTestId("nav-approvals-count")).toHaveAttribute("data-count", "2"));
    expect(screen.getByTestId("approvals-filter-pending")).toHaveAttribute("aria-pressed", "true");
    expect(listQueries(fetch)).toContain("state=pending");

    // Every state: the failed and executed ones too, newest first.
    fireEvent.click(screen.getByTestId("approvals-filter-all"));
    await waitFor(() => expect(screen.getByTestId("approvals-table")).toHaveAttribute("data-count", "4"));
    expect(listQueries(fetch)).toContain("");
    expect(screen.getByTestId("approval-row-9")).toHaveAttribute("data-state", "failed");
    expect(cells("approval-row-8").slice(7)).toEqual(["—", "executed"]);
  });

  it("opens a request: its summary, reason, exact plan and the preview's plan table; approving asks first, then shows the result", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    const decisions: unknown[] = [];
    const done = approvalOf({
      state: "executed",
      decided_by: "olga",
      decided_at: "2026-07-01T14:10:00.000+00:00",
      decision_reason: "looks right",
      result: executedResetOf(),
    });
    stubApprovals({
      extra: {
        "/api/v1/approvals/12/approve": (_url, init) => {
          decisions.push(JSON.parse(String(init?.body)));
          return json(done);
        },
      },
    });
    renderApp("/approvals");
    fireEvent.click(await screen.findByTestId("approval-row-12"));

    const detail = await screen.findByTestId("approval-detail");
    expect(detail).toHaveAttribute("data-state", "pending");
    expect(screen.getByTestId("approval-row-12")).toHaveAttribute("aria-selected", "true");
    expect(screen.getByTestId("approval-summary")).toHaveTextContent(RESET_REQUEST.summary);
    expect(screen.getByTestId("approval-reason")).toHaveTextContent("Reason: INC-1: replay");
    expect(screen.getByTestId("approval-requested-by")).toHaveTextContent("alice");
    expect(JSON.parse(screen.getByTestId("approval-plan").textContent ?? "")).toEqual({ reset_id: 7, reason: "INC-1: replay" });
    // The preview it executes, fetched by its id, with a link to the group.
    expect(await screen.findByTestId("approval-reset-plan")).toHaveAttribute("data-rows", "4");
    expect(screen.getByTestId("approval-plan-row-orders-0")).toHaveAttribute("data-delta", "-80");
    expect(screen.getByTestId("approval-group-link")).toHaveAttribute("href", "/clusters/local/groups/orders-app");
    expect(screen.getByTestId("approval-target-link")).toHaveAttribute("href", "/clusters/local/groups/orders-app");

    fireEvent.change(screen.getByTestId("approval-decision-reason"), { target: { value: " looks right " } });
    fireEvent.click(screen.getByTestId("approval-approve"));
    const dialog = screen.getByTestId("confirm-dialog");
    expect(dialog).toHaveTextContent("Approve request #12");
    expect(dialog).toHaveTextContent("It runs now on cluster local, as you, exactly as planned (asked by alice).");
    expect(decisions).toEqual([]);
    fireEvent.click(within(dialog).getByTestId("approval-approve-confirm"));

    await waitFor(() => expect(screen.getByTestId("approval-detail")).toHaveAttribute("data-state", "executed"));
    expect(decisions).toEqual([{ reason: "looks right" }]);
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
    expect(screen.getByTestId("approval-result-reset")).toHaveAttribute("data-state", "succeeded");
    expect(screen.getByTestId("approval-decided-by")).toHaveTextContent("olga");
    expect(screen.getByTestId("approval-decision")).toHaveTextContent("looks right");
    // Decided: no longer in the pending list, nor in the count; no buttons.
    expect(screen.queryByTestId("approval-row-12")).toBeNull();
    expect(screen.getByTestId("approvals-table")).toHaveAttribute("data-count", "1");
    expect(screen.queryByTestId("approval-approve")).toBeNull();
    await waitFor(() => expect(screen.getByTestId("nav-approvals-count")).toHaveAttribute("data-count", "1"));
  });

  it("hides Approve and Reject from the requester and from users without the change's role there", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    stubApprovals({ user: ME });
    renderApp("/approvals?id=12");
    const note = await screen.findByTestId("approval-decide-note");
    expect(note).toHaveTextContent("You asked for this change: someone else with the operator role on local approves or rejects it.");
    expect(screen.queryByTestId("approval-approve")).toBeNull();
    expect(screen.queryByTestId("approval-reject")).toBeNull();

    // A topic delete: admins decide it, an operator does not.
    fireEvent.click(screen.getByTestId("approval-open-11"));
    await waitFor(() => expect(screen.getByTestId("approval-detail")).toHaveAttribute("data-id", "11"));
    expect(screen.getByTestId("approval-decide-note")).toHaveTextContent("Deciding this request needs the admin role on cluster staging.");
    expect(screen.queryByTestId("approval-approve")).toBeNull();
    expect(screen.getByTestId("approval-target-link")).toHaveAttribute("href", "/clusters/staging/topics/ledger");
  });

  it("shows the server's message when it refuses a decision anyway (403), and rejects with the reason", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    const rejects: unknown[] = [];
    stubApprovals({
      extra: {
        "/api/v1/approvals/12/approve": apiError(403, "permission_denied", "A request is approved or rejected by someone other than its requester."),
        "/api/v1/approvals/12/reject": (_url, init) => {
          rejects.push(JSON.parse(String(init?.body)));
          return json(approvalOf({ state: "rejected", decided_by: "olga", decision_reason: "wrong group" }));
        },
      },
    });
    renderApp("/approvals?id=12");
    fireEvent.click(await screen.findByTestId("approval-approve"));
    fireEvent.click(screen.getByTestId("approval-approve-confirm"));
    const banner = await screen.findByTestId("error-banner");
    expect(banner).toHaveTextContent("Not decided: A request is approved or rejected by someone other than its requester.");
    expect(banner).toHaveTextContent("HTTP 403");
    expect(screen.getByTestId("approval-detail")).toHaveAttribute("data-state", "pending");

    fireEvent.change(screen.getByTestId("approval-decision-reason"), { target: { value: "wrong group" } });
    fireEvent.click(screen.getByTestId("approval-reject"));
    await waitFor(() => expect(screen.getByTestId("approval-detail")).toHaveAttribute("data-state", "rejected"));
    expect(rejects).toEqual([{ reason: "wrong group" }]);
    expect(screen.queryByTestId("error-banner")).toBeNull();
  });

  it("shows a failed request's error with the partitions that moved, and an executed one's result", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    const fetch = stubApprovals();
    renderApp("/approvals?state=all&id=9");
    const failure = await screen.findByTestId("approval-failure");
    expect(failure).toHaveAttribute("data-code", "plan_stale");
    expect(failure).toHaveTextContent("Approved, but not run: The committed offsets of orders-app moved since preview 7: preview again.");
    expect(screen.getByTestId("plan-stale")).toHaveAttribute("data-count", "1");
    expect(cells("plan-stale-row-orders-1")).toEqual(["orders", "1", "100", "130"]);
    expect(screen.queryByTestId("preview-again")).toBeNull();
    expect(screen.queryByTestId("approval-decide")).toBeNull();

    fireEvent.click(screen.getByTestId("approval-row-8"));
    await waitFor(() => expect(screen.getByTestId("approval-detail")).toHaveAttribute("data-id", "8"));
    expect(screen.getByTestId("approval-result")).toHaveTextContent("Executed by olga");
    expect(screen.getByTestId("approval-result-reset")).toHaveTextContent("all 1 partition committed");
    expect(screen.getByTestId("approval-decision")).toHaveTextContent("checked with the team");
    // Both were in the list: no request fetched on its own.
    expect(fetch.mock.calls.map(([url]) => String(url)).filter((url) => /approvals\/\d+$/.test(url))).toEqual([]);
  });

  it("fetches a request the list shown lacks (a decided one while the pending ones are listed)", async () => {
    stubApprovals();
    renderApp("/approvals?id=8");
    const detail = await screen.findByTestId("approval-detail");
    expect(detail).toHaveAttribute("data-id", "8");
    expect(detail).toHaveAttribute("data-state", "executed");
    expect(screen.getByTestId("approvals-table")).toHaveAttribute("data-count", "2");
  });

  it("keeps the list live from each cluster's socket: a new request appears, a decided one leaves", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    stubApprovals();
    renderApp("/approvals");
    await screen.findByTestId("approval-row-12");
    await waitFor(() => expect(FakeWebSocket.instances.map((s) => s.url).filter((u) => u.endsWith("/approvals"))).toHaveLength(2));
    const local = FakeWebSocket.last("/ws/clusters/local/approvals");
    const staging = FakeWebSocket.last("/ws/clusters/staging/approvals");
    await pushLive(staging);

    const asked = approvalOf({ id: 13, summary: "Execute preview 9: reset group billing on 2 partitions as planned (earliest).", target: "billing" });
    await pushLive(local, { type: "approval", ...asked });
    expect(screen.getByTestId("approvals-table")).toHaveAttribute("data-count", "3");
    expect(cells("approval-row-13")[3]).toBe("billing");
    expect(screen.getByTestId("live-indicator")).toHaveAttribute("data-status", "live");

    await pushLive(local, { type: "approval", ...RESET_REQUEST, state: "running", decided_by: "olga" });
    expect(screen.queryByTestId("approval-row-12")).toBeNull();
    await waitFor(() => expect(screen.getByTestId("nav-approvals-count")).toHaveAttribute("data-count", "2"));
  });

  it("polls every 30 s while a socket says it cannot push (live: false)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: NOW });
    let list = PENDING;
    const fetch = stubApprovals({ list: () => list });
    renderApp("/approvals");
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(screen.getByTestId("approvals-table")).toHaveAttribute("data-count", "2");
    const local = FakeWebSocket.last("/ws/clusters/local/approvals");
    await act(async () => {
      local.open();
      local.receive({ type: "status", live: false, reason: "Live updates are unavailable (Redis)." });
      await vi.advanceTimersByTimeAsync(10);
    });
    expect(screen.getByTestId("live-indicator")).toHaveAttribute("data-status", "paused");

    list = [...PENDING, approvalOf({ id: 14 })];
    const before = listQueries(fetch).filter((q) => q === "state=pending").length;
    await act(() => vi.advanceTimersByTimeAsync(APPROVALS_POLL_MS));
    expect(APPROVALS_POLL_MS).toBe(30_000);
    expect(listQueries(fetch).filter((q) => q === "state=pending").length).toBeGreaterThan(before);
    expect(screen.getByTestId("approvals-table")).toHaveAttribute("data-count", "3");
  });
});

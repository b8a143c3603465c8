import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { AuditEntry } from "../api/types";
import { cells, change, click } from "../test/byTestId";
import { apiError, json, type Route, stubFetch, type StubResponse } from "../test/fetchStub";
import { ADMIN, CLUSTERS, ME, VIEWER } from "../test/fixtures";
import { renderApp } from "../test/render";
import { expectScreenful, giveScrollBoxHeight, renderedRowIds, scrollToEnd } from "../test/virtualTable";
import { browserTimeZone, zonedToInstant } from "../lib/time";
import { AUDIT_DETAIL_HEIGHT as DETAIL } from "../components/audit/AuditTable";

giveScrollBoxHeight("audit");

const AUDIT_URL = "/api/v1/audit";

function entry(id: number, overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id,
    at: "2026-07-01T09:30:00Z",
    actor: "alice",
    action: "topic.configs",
    cluster: "local",
    target: `topic-${id}`,
    outcome: "ok",
    request: { set: { "retention.ms": "1000" }, delete: [] },
    details: {},
    ...overrides,
  };
}

/** Entries `from` down to `to` (ids), newest first. */
function range(from: number, to: number, overrides: Partial<AuditEntry> = {}): AuditEntry[] {
  const out: AuditEntry[] = [];
  for (let id = from; id >= to; id--) out.push(entry(id, overrides));
  return out;
}

const USER_UPDATE = entry(12, {
  action: "user.update",
  cluster: "",
  target: "bob",
  actor: "root",
  request: { role: null, cluster_roles: { local: "admin" } },
  details: {
    before: { is_active: true, role: "viewer", cluster_roles: {} },
    after: { is_active: true, role: null, cluster_roles: { local: "admin" } },
  },
});
const RESET = entry(11, { action: "offsets.reset.execute", target: "orders-app", details: { reset_id: 4, state: "succeeded" }, request: { reason: "replay" } });
const REFUSED = entry(10, { action: "topic.delete", target: "ledger", outcome: "refused", request: {}, details: { error: "Only admins." } });

/** GET audit answers `list(query)` (the query as a plain object). */
function stubAudit({
  user = ME,
  list = () => [USER_UPDATE, RESET, REFUSED],
  extra = {},
}: {
  user?: typeof ME;
  list?: (query: Record<string, string>) => AuditEntry[] | StubResponse;
  extra?: Record<string, Route>;
} = {}) {
  return stubFetch({
    "/api/v1/me": json(user),
    "/api/v1/clusters": json(CLUSTERS),
    [AUDIT_URL]: (url) => {
      const answer = list(Object.fromEntries(new URL(url, "http://x").searchParams));
      return Array.isArray(answer) ? json(answer) : answer;
    },
    ...extra,
  });
}

function auditQueries(fetch: ReturnType<typeof stubFetch>): Record<string, string>[] {
  return fetch.mock.calls
    .filter(([url]) => String(url).split("?")[0] === AUDIT_URL)
    .map(([url]) => Object.fromEntries(new URL(String(url), "http://x").searchParams));
}

function exportQuery(): Record<string, string> {
  const href = screen.getByTestId("audit-export").getAttribute("href") ?? "";
  expect(href.split("?")[0]).toBe("/api/v1/audit/export");
  return Object.fromEntries(new URL(href, "http://x").searchParams);
}

describe("AuditPage", () => {
  it("lists the entries newest first: when, actor, action, cluster, target, outcome and what changed", async () => {
    const fetch = stubAudit();
    renderApp("/audit");
    await screen.findByTestId("audit-row-12");
    expect(document.title).toBe("Audit log · Kafka Console");
    expect(renderedRowIds("audit", "audit-row-")).toEqual(["12", "11", "10"]);
    const row = cells("audit-row-11");
    expect(row.slice(1, 3)).toEqual(["11", expect.stringMatching(/^2026-07-0[12] \d\d:\d\d:00$/)]);
    expect(row.slice(3, 9)).toEqual(["alice", "offsets.reset.execute", "local", "orders-app", "ok", "Group orders-app"]);
    expect(screen.getByTestId("audit-link-11")).toHaveAttribute("href", "/clusters/local/groups/orders-app");
    expect(cells("audit-row-12")[5]).toBe("—");
    expect(screen.queryByTestId("audit-link-12")).toBeNull();
    expect(screen.getByTestId("audit-row-10")).toHaveAttribute("data-outcome", "refused");
    expect(within(screen.getByTestId("audit-row-10")).getByText("refused")).toHaveAttribute("data-tone", "warn");
    // A short first page is the whole log.
    expect(screen.getByTestId("audit-count")).toHaveTextContent("3 entries");
    expect(screen.getByTestId("audit-end")).toHaveTextContent("The oldest entry is shown.");
    expect(screen.queryByTestId("audit-load-older")).toBeNull();
    expect(auditQueries(fetch)).toEqual([{ limit: "200" }]);
    expect(exportQuery()).toEqual({});
    // The nav entry is current.
    expect(screen.getByRole("link", { name: "Audit" })).toHaveClass("active");
  });

  it("opens an entry: its request and details as JSON, and a before → after for a user change", async () => {
    stubAudit();
    renderApp("/audit");
    await screen.findByTestId("audit-row-12");
    click("audit-toggle-12");
    expect(screen.getByTestId("audit-row-12")).toHaveAttribute("aria-expanded", "true");
    const detail = screen.getByTestId("audit-detail-12");
    expect(within(detail).getByTestId("audit-request-12").textContent).toBe(JSON.stringify(USER_UPDATE.request, null, 2));
    expect(within(detail).getByTestId("audit-details-12").textContent).toBe(JSON.stringify(USER_UPDATE.details, null, 2));
    expect(cells("audit-change-12-role")).toEqual(["viewer", "→", "null"]);
    expect(screen.getByTestId("audit-change-12-role")).toHaveAttribute("data-changed", "true");
    expect(cells("audit-change-12-is_active")).toEqual(["true", "→", "true"]);
    expect(screen.getByTestId("audit-change-12-is_active")).toHaveAttribute("data-changed", "false");
    expect(cells("audit-change-12-cluster_roles.local")).toEqual(["—", "→", "admin"]);

    // A click on the line (not its link) opens it too; no before → after without both.
    fireEvent.click(within(screen.getByTestId("audit-row-11")).getByText("alice"));
    expect(screen.getByTestId("audit-detail-11")).toBeInTheDocument();
    expect(screen.queryByTestId("audit-change-11")).toBeNull();
    expect(screen.getByTestId("audit-detail-link-11")).toHaveAttribute("href", "/clusters/local/groups/orders-app");
    // An empty request says so.
    click("audit-toggle-10");
    expect(screen.getByTestId("audit-request-10")).toHaveTextContent("No body");
    // Closing.
    click("audit-toggle-12");
    expect(screen.queryByTestId("audit-detail-12")).toBeNull();
    expect(screen.getByTestId("audit-row-12")).toHaveAttribute("aria-expanded", "false");
  });

  it("sends the filters of the URL, and keeps the ones chosen in the URL (the export link has them)", async () => {
    const fetch = stubAudit({ list: (q) => (q.action === "user." ? [USER_UPDATE] : q.outcome === "refused" ? [REFUSED] : [USER_UPDATE, RESET, REFUSED]) });
    renderApp("/audit?action=user.&cluster=local");
    await screen.findByTestId("audit-row-12");
    expect(auditQueries(fetch)[0]).toEqual({ action: "user.", cluster: "local", limit: "200" });
    expect(screen.getByTestId("audit-filter-action")).toHaveValue("user.");
    await waitFor(() => expect(screen.getByTestId("audit-filter-cluster")).toHaveValue("local"));
    expect(exportQuery()).toEqual({ action: "user.", cluster: "local" });
    expect(screen.getByTestId("audit-count")).toHaveTextContent("1 entry match");

    // Typing asks once it pauses; the select at once.
    change("audit-filter-action", "");
    change("audit-filter-cluster", "");
    change("audit-filter-outcome", "refused");
    await waitFor(() => expect(renderedRowIds("audit", "audit-row-")).toEqual(["10"]));
    expect(auditQueries(fetch).at(-1)).toEqual({ outcome: "refused", limit: "200" });
    expect(exportQuery()).toEqual({ outcome: "refused" });
    change("audit-filter-target", "led");
    await waitFor(() => expect(auditQueries(fetch).at(-1)).toEqual({ outcome: "refused", target: "led", limit: "200" }));
    expect(exportQuery()).toEqual({ outcome: "refused", target: "led" });

    click("audit-clear");
    await waitFor(() => expect(auditQueries(fetch).at(-1)).toEqual({ limit: "200" }));
    expect(exportQuery()).toEqual({});
    expect(screen.getByTestId("audit-filter-target")).toHaveValue("");
  });

  it("sends the time range as ISO-8601 with the browser's offset", async () => {
    const fetch = stubAudit();
    renderApp("/audit");
    await screen.findByTestId("audit-row-12");
    const zone = browserTimeZone();
    const since = zonedToInstant("2026-07-01T09:30", zone)!.iso;
    const until = zonedToInstant("2026-07-02T00:00", zone)!.iso;
    change("audit-filter-since", "2026-07-01T09:30");
    change("audit-filter-until", "2026-07-02T00:00");
    await waitFor(() => expect(auditQueries(fetch).at(-1)).toEqual({ since, until, limit: "200" }));
    expect(screen.getByTestId("audit-filter-since")).toHaveValue("2026-07-01T09:30");
    expect(screen.getByTestId("audit-filter-since")).toHaveAttribute("data-iso", since);
    expect(exportQuery()).toEqual({ since, until });
    // Emptied: no bound.
    change("audit-filter-since", "");
    await waitFor(() => expect(auditQueries(fetch).at(-1)).toEqual({ until, limit: "200" }));
  });

  it("loads older pages with before_id, virtualized, to the end of the log", async () => {
    // 950 entries: pages of 200, the fifth one short.
    const fetch = stubAudit({
      list: (q) => {
        const before = q.before_id ? Number(q.before_id) : 951;
        return range(before - 1, Math.max(1, before - 200));
      },
    });
    renderApp("/audit");
    await screen.findByTestId("audit-row-950");
    expect(screen.getByTestId("audit-count")).toHaveTextContent("200 entries shown, newest first");
    click("audit-load-older");
    await waitFor(() => expect(screen.getByTestId("audit-count")).toHaveAttribute("data-count", "400"));
    expect(auditQueries(fetch).at(-1)).toEqual({ limit: "200", before_id: "751" });
    // 400 rows: only a screenful rendered.
    expectScreenful(renderedRowIds("audit", "audit-row-"));
    expect(screen.getByTestId("audit-table")).toHaveAttribute("aria-rowcount", "401");
    await scrollToEnd("audit", 400);
    expect(renderedRowIds("audit", "audit-row-")).toContain("551");
    for (const count of [600, 800, 950]) {
      click("audit-load-older");
      await waitFor(() => expect(screen.getByTestId("audit-count")).toHaveAttribute("data-count", String(count)));
    }
    expect(screen.getByTestId("audit-end")).toBeInTheDocument();
    expect(screen.queryByTestId("audit-load-older")).toBeNull();
    expect(auditQueries(fetch).map((q) => q.before_id ?? "")).toEqual(["", "751", "551", "351", "151"]);
  });

  it("keeps an opened entry's height in the virtualized list: the rows below still render as it scrolls", async () => {
    stubAudit({
      list: (q) => {
        const before = q.before_id ? Number(q.before_id) : 501;
        return range(before - 1, Math.max(1, before - 200));
      },
    });
    renderApp("/audit");
    await screen.findByTestId("audit-row-500");
    click("audit-load-older");
    await waitFor(() => expect(screen.getByTestId("audit-count")).toHaveAttribute("data-count", "400"));
    click("audit-toggle-499");
    expect(screen.getByTestId("audit-detail-499")).toBeInTheDocument();
    // Scrolled halfway, the spacer above the rendered lines holds the lines before them and the
    // opened entry's height (a fixed 36 px a line would put the wrong lines on screen).
    const scroller = screen.getByTestId("audit-scroll");
    await act(async () => {
      scroller.scrollTop = DETAIL + 200 * 36;
      fireEvent.scroll(scroller);
    });
    const first = Number(renderedRowIds("audit", "audit-row-")[0]);
    const padTop = parseFloat(screen.getByTestId("audit-table").querySelector<HTMLElement>("tr.vpad td")!.style.height);
    // Line 200 (id 300) at the top, 12 lines of overscan above it.
    expect(first).toBe(300 + 12);
    expect(padTop).toBe((500 - first) * 36 + DETAIL);
    // Scrolled to the end, the last lines show.
    await scrollToEnd("audit", 400 + DETAIL / 36);
    expect(renderedRowIds("audit", "audit-row-")).toContain("101");
  });

  it("shows a refused filter in a banner, and a failed older page beside the button", async () => {
    stubAudit({
      list: (q) =>
        q.since ? apiError(400, "invalid", "since: give an ISO-8601 date-time with a time zone.", { field: "since" }) : q.before_id ? apiError(503, "unavailable", "Try later.") : range(300, 101),
    });
    renderApp("/audit");
    await screen.findByTestId("audit-row-300");
    click("audit-load-older");
    expect(await screen.findByText("Could not load older entries:")).toBeInTheDocument();
    expect(screen.getByText("Try later.")).toBeInTheDocument();
    change("audit-filter-since", "2026-07-01T09:30");
    expect(await screen.findByText("Give an ISO-8601 date-time with a time zone.")).toBeInTheDocument();
    // Nothing of the last filter's entries stays under it.
    await waitFor(() => expect(screen.queryByTestId("audit-row-300")).toBeNull());
  });

  it("is in the top bar for operators and admins only", async () => {
    stubAudit({ user: VIEWER });
    renderApp("/");
    await screen.findByTestId("current-user");
    expect(screen.queryByRole("link", { name: "Audit" })).toBeNull();
    cleanup();
    stubAudit({ user: ADMIN });
    renderApp("/");
    expect(await screen.findByRole("link", { name: "Audit" })).toHaveAttribute("href", "/audit");
  });
});

import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { WorklistItem, WorklistStatus } from "../api/maintenance";
import { apiError, json, type Route, stubFetch, type StubResponse } from "../test/fetchStub";
import { CLUSTERS, ME, VIEWER } from "../test/fixtures";
import { renderApp } from "../test/render";
import { sparkJob } from "../test/sparkFixtures";
import { expectScreenful, giveScrollBoxHeight, renderedRowIds } from "../test/virtualTable";

// ---- fixtures: the server's order (highest probability first), one item of each outcome ----

function item(overrides: Partial<WorklistItem> & Pick<WorklistItem, "equipment_id" | "failure_probability">): WorklistItem {
  return {
    day: "2026-06-29",
    model_id: 51,
    drivers: [],
    recent_alarms: [],
    outcome: null,
    outcome_at: null,
    outcome_detail: null,
    status: "open",
    note: "",
    marked_by: null,
    marked_at: null,
    marked_day: null,
    ...overrides,
  };
}

const ITEMS: WorklistItem[] = [
  item({
    equipment_id: "eq-0007",
    failure_probability: 0.9123,
    drivers: [
      { feature: "max_vibration_7d", value: 1.52, weight: 0.84 },
      { feature: "count_e303_vibration_7d", value: 4, weight: 0.31 },
    ],
    recent_alarms: [{ fault_code: "E303-VIBRATION", count: 4, days: 7 }],
    // Midday UTC: the same local day in every test machine's zone.
    outcome: "failure",
    outcome_at: "2026-07-01T12:00:00Z",
    outcome_detail: "FAILURE",
  }),
  item({
    equipment_id: "eq-0003",
    failure_probability: 0.42,
    drivers: [{ feature: "avg_temperature_3d", value: 81.25, weight: 0.2 }],
    outcome: "work_order",
    outcome_at: "2026-06-30T12:00:00Z",
    outcome_detail: "inspection",
    status: "acknowledged",
    note: "checking on Tuesday",
    marked_by: "bob",
    marked_at: "2026-06-29T15:00:00Z",
    marked_day: "2026-06-28",
  }),
  item({
    equipment_id: "eq-0011",
    failure_probability: 0.031,
    recent_alarms: [
      { fault_code: "E101-OVERHEAT", count: 2, days: 7 },
      { fault_code: "E205-PRESSURE", count: 1, days: 7 },
    ],
    status: "dismissed",
    note: "sensor fault",
    marked_by: "bob",
    marked_at: "2026-06-29T16:00:00Z",
    marked_day: "2026-06-29",
  }),
  item({ equipment_id: "eq-0099", failure_probability: 0.01, day: null, model_id: null, status: "inspected" }),
];

// ---- helpers ----

interface Setup {
  me?: typeof ME;
  worklist?: () => StubResponse;
  /** POST maintenance/worklist/{id}, by equipment id and body. */
  mark?: (id: string, body: { status: WorklistStatus; note?: string }) => StubResponse;
  runs?: () => StubResponse;
}

function setup({ me = ME, worklist = () => json(ITEMS), mark, runs = () => json([]) }: Setup = {}) {
  const routes: Record<string, Route> = {
    "/api/v1/me": json(me),
    "/api/v1/clusters": json(CLUSTERS),
    "/api/v1/spark/jobs": () => runs(),
    "/api/v1/maintenance/worklist": () => worklist(),
  };
  for (const { equipment_id: id } of ITEMS) {
    routes[`/api/v1/maintenance/worklist/${id}`] = (_url, init) =>
      mark ? mark(id, JSON.parse(String(init?.body))) : apiError(500, "x", "no");
  }
  return stubFetch(routes);
}

function calls(fetch: ReturnType<typeof stubFetch>, path: string, method = "GET") {
  return fetch.mock.calls.filter(([url, init]) => String(url).split("?")[0] === path && (init?.method ?? "GET") === method);
}

const params = (url: unknown) => new URL(String(url), "http://x").searchParams;
const shownRows = () => renderedRowIds("worklist", "worklist-row-");

describe("WorklistPage", () => {
  it("ranks the equipment in the server's order with why, what happened since and the crew's status", async () => {
    const fetch = setup();
    renderApp("/maintenance/worklist?cluster=local");

    expect(await screen.findByRole("heading", { name: "Maintenance worklist" })).toBeInTheDocument();
    // The nav: its own entry, current; the maintenance page's entry is not.
    const nav = within(screen.getByRole("navigation", { name: "Main" }));
    expect(nav.getByRole("link", { name: "Worklist" })).toHaveClass("active");
    expect(nav.getByRole("link", { name: "Worklist" })).toHaveAttribute("href", "/maintenance/worklist");
    expect(nav.getByRole("link", { name: "Predictive maintenance" })).not.toHaveClass("active");

    await screen.findByTestId("worklist-table");
    const asked = calls(fetch, "/api/v1/maintenance/worklist").map(([url]) => params(url));
    expect(asked[0]?.get("cluster")).toBe("local");
    expect(asked[0]?.get("limit")).toBe("50");

    // The dismissed one is hidden by default; the ranks are the server's all the same.
    expect(shownRows()).toEqual(["eq-0007", "eq-0003", "eq-0099"]);
    expect(within(screen.getByTestId("worklist-row-eq-0099")).getAllByRole("cell")[0]).toHaveTextContent(/^4$/);
    expect(screen.getByTestId("worklist-row-eq-0007")).toHaveAttribute("data-status", "open");
    expect(screen.getByTestId("worklist-row-eq-0003")).toHaveAttribute("data-status", "acknowledged");
    expect(screen.getByTestId("worklist-probability-eq-0007")).toHaveTextContent("91.2 %");

    // Drivers as chips, largest weight first; alarms per fault code over their window.
    const drivers = screen.getByTestId("worklist-drivers-eq-0007");
    expect([...drivers.querySelectorAll(".wl-chip")].map((c) => c.textContent)).toEqual([
      "max_vibration_7d 1.52",
      "count_e303_vibration_7d 4",
    ]);
    expect(screen.getByTestId("worklist-drivers-eq-0099")).toHaveTextContent("—");
    expect(screen.getByTestId("worklist-alarms-eq-0007")).toHaveTextContent("E303-VIBRATION ×4 (7d)");
    expect(screen.getByTestId("worklist-alarms-eq-0003")).toHaveTextContent("none");

    // What happened since: failure in red, a work order in amber, else nothing yet.
    const failure = screen.getByTestId("worklist-outcome-eq-0007");
    expect(failure).toHaveAttribute("data-outcome", "failure");
    expect(failure).toHaveTextContent("failure on 2026-07-01 (FAILURE)");
    expect(failure.querySelector(".badge")).toHaveClass("badge-error");
    const workOrder = screen.getByTestId("worklist-outcome-eq-0003");
    expect(workOrder).toHaveAttribute("data-outcome", "work_order");
    expect(workOrder).toHaveTextContent("work order inspection on 2026-06-30");
    expect(workOrder.querySelector(".badge")).toHaveClass("badge-warn");
    expect(screen.getByTestId("worklist-outcome-eq-0099")).toHaveAttribute("data-outcome", "none");
    expect(screen.getByTestId("worklist-outcome-eq-0099")).toHaveTextContent("nothing yet");

    // The note, who marked it and when (on an earlier prediction: said so).
    const note = screen.getByTestId("worklist-note-eq-0003");
    expect(note).toHaveTextContent("checking on Tuesday");
    expect(note.getAttribute("title")).toMatch(/acknowledged by bob, 2026-06-29 \d\d:\d\d \(for the prediction of 2026-06-28\)/);
    expect(screen.getByTestId("worklist-note-eq-0007")).not.toHaveAttribute("title");
    expect(screen.getByTestId("worklist-status-eq-0003")).toHaveTextContent("acknowledged");
    expect(within(screen.getByTestId("worklist-row-eq-0007")).getByRole("link", { name: "#51" })).toHaveAttribute("href", "/spark/jobs/51");
  });

  it("hides the dismissed by default and shows them on All, with the counts in the filter", async () => {
    setup();
    renderApp("/maintenance/worklist?cluster=local");
    const filter = await screen.findByTestId("worklist-filter");
    expect(filter).toHaveValue("");
    expect([...filter.querySelectorAll("option")].map((o) => o.textContent)).toEqual([
      "All but dismissed (3)",
      "All (4)",
      "Open (1)",
      "Acknowledged (1)",
      "Inspected (1)",
      "Dismissed (1)",
    ]);
    expect(screen.queryByTestId("worklist-row-eq-0011")).toBeNull();
    expect(screen.getByTestId("worklist-count")).toHaveTextContent("3 of 4 items");

    fireEvent.change(filter, { target: { value: "all" } });
    expect(shownRows()).toEqual(["eq-0007", "eq-0003", "eq-0011", "eq-0099"]);
    expect(screen.getByTestId("worklist-row-eq-0011")).toHaveAttribute("data-status", "dismissed");
    expect(screen.getByTestId("worklist-alarms-eq-0011")).toHaveTextContent("E101-OVERHEAT ×2 (7d)E205-PRESSURE ×1 (7d)");

    fireEvent.change(filter, { target: { value: "dismissed" } });
    expect(shownRows()).toEqual(["eq-0011"]);
    fireEvent.change(filter, { target: { value: "open" } });
    expect(shownRows()).toEqual(["eq-0007"]);
  });

  it("offers viewers no Mark button", async () => {
    setup({ me: VIEWER });
    renderApp("/maintenance/worklist?cluster=local");
    await screen.findByTestId("worklist-row-eq-0007");
    await screen.findByTestId("current-user");
    expect(screen.queryAllByTestId(/^worklist-mark-/)).toEqual([]);
    expect(screen.queryByRole("columnheader", { name: "Actions" })).toBeNull();
  });

  it("lets an operator mark an item with a note: POST {status, note} for the cluster, then the list again", async () => {
    let marked = false;
    const fetch = setup({
      worklist: () =>
        json(
          marked
            ? ITEMS.map((i) =>
                i.equipment_id === "eq-0003"
                  ? { ...i, status: "inspected", note: "bearing replaced", marked_by: "alice", marked_at: "2026-07-02T09:00:00Z", marked_day: "2026-06-29" }
                  : i,
              )
            : ITEMS,
        ),
      mark: (id, body) => {
        marked = true;
        return json({ ...ITEMS.find((i) => i.equipment_id === id)!, ...body, marked_by: "alice" });
      },
    });
    renderApp("/maintenance/worklist?cluster=local");

    fireEvent.click(await screen.findByTestId("worklist-mark-eq-0003"));
    const status = screen.getByTestId("worklist-mark-status");
    expect(status).toHaveFocus();
    expect([...status.querySelectorAll("option")].map((o) => o.getAttribute("value"))).toEqual(["acknowledged", "inspected", "dismissed", "open"]);
    expect(screen.getByTestId("worklist-mark-note")).toHaveAttribute("maxlength", "1000");
    fireEvent.change(status, { target: { value: "inspected" } });
    fireEvent.change(screen.getByTestId("worklist-mark-note"), { target: { value: "bearing replaced" } });

    const gets = calls(fetch, "/api/v1/maintenance/worklist").length;
    fireEvent.click(screen.getByTestId("worklist-mark-confirm"));
    await waitFor(() => expect(screen.queryByTestId("confirm-dialog")).toBeNull());

    const posts = calls(fetch, "/api/v1/maintenance/worklist/eq-0003", "POST");
    expect(posts).toHaveLength(1);
    expect(params(posts[0]![0]).get("cluster")).toBe("local");
    expect(JSON.parse(String(posts[0]![1]?.body))).toStrictEqual({ status: "inspected", note: "bearing replaced" });
    // The list is asked again and shows the mark.
    expect(calls(fetch, "/api/v1/maintenance/worklist").length).toBeGreaterThan(gets);
    await waitFor(() => expect(screen.getByTestId("worklist-row-eq-0003")).toHaveAttribute("data-status", "inspected"));
    expect(screen.getByTestId("worklist-note-eq-0003")).toHaveTextContent("bearing replaced");
  });

  it("reads and marks from the topics the URL names", async () => {
    const fetch = setup({ mark: (id, body) => json({ ...ITEMS.find((i) => i.equipment_id === id)!, ...body }) });
    renderApp("/maintenance/worklist?cluster=local&topic=plant-predictions&alarms_topic=plant-alarms&work_orders_topic=plant-orders");
    fireEvent.click(await screen.findByTestId("worklist-mark-eq-0007"));
    fireEvent.click(screen.getByTestId("worklist-mark-confirm"));
    await waitFor(() => expect(calls(fetch, "/api/v1/maintenance/worklist/eq-0007", "POST")).toHaveLength(1));
    const topics = (url: unknown) => {
      const p = params(url);
      return [p.get("topic"), p.get("alarms_topic"), p.get("work_orders_topic")];
    };
    const want = ["plant-predictions", "plant-alarms", "plant-orders"];
    expect(topics(calls(fetch, "/api/v1/maintenance/worklist")[0]![0])).toEqual(want);
    expect(topics(calls(fetch, "/api/v1/maintenance/worklist/eq-0007", "POST")[0]![0])).toEqual(want);
  });

  it("shows a refused mark's message, with its field, in the dialog, which stays open", async () => {
    setup({ mark: () => apiError(400, "invalid", "note: Ensure this field has no more than 1000 characters.", { field: "note" }) });
    renderApp("/maintenance/worklist?cluster=local");
    fireEvent.click(await screen.findByTestId("worklist-mark-eq-0007"));
    // An open item: acknowledging it is what the dialog proposes.
    expect(screen.getByTestId("worklist-mark-status")).toHaveValue("acknowledged");
    fireEvent.click(screen.getByTestId("worklist-mark-confirm"));
    expect(await screen.findByTestId("worklist-mark-error")).toHaveTextContent("Note: Ensure this field has no more than 1000 characters.");
    expect(screen.getByTestId("confirm-dialog")).toBeInTheDocument();
    expect(screen.getByTestId("worklist-mark-confirm")).toBeEnabled();
    expect(screen.getByTestId("worklist-row-eq-0007")).toHaveAttribute("data-status", "open");
  });

  it("says to run a score first when the cluster has no predictions topic yet", async () => {
    setup({
      worklist: () => apiError(404, "topic_not_found", "Topic 'equipment-failure-predictions' does not exist on cluster local."),
    });
    renderApp("/maintenance/worklist?cluster=local");
    const empty = await screen.findByTestId("worklist-empty");
    expect(empty).toHaveAttribute("data-reason", "no-topic");
    expect(empty).toHaveTextContent("No predictions on local yet: run the pipeline with a score step (or a score job)");
    expect(within(empty).getByRole("link", { name: "Predictive maintenance" })).toHaveAttribute("href", "/maintenance?cluster=local");
    expect(screen.queryByTestId("error-banner")).toBeNull();
    expect(screen.queryByTestId("worklist-table")).toBeNull();
  });

  it("shows the latest pipeline run's cluster unless one is asked for", async () => {
    const fetch = setup({ runs: () => json([sparkJob({ id: 51, job_type: "maintenance-pipeline", cluster: "staging" })]) });
    renderApp("/maintenance/worklist");
    await screen.findByTestId("worklist-table");
    const asked = calls(fetch, "/api/v1/maintenance/worklist").map(([url]) => params(url).get("cluster"));
    expect(asked).toEqual(["staging"]);
    expect(params(calls(fetch, "/api/v1/spark/jobs")[0]![0]).get("job_type")).toBe("maintenance-pipeline");
    expect(screen.getByTestId("worklist-cluster")).toHaveValue("staging");
  });
});

describe("WorklistPage with a long list", () => {
  giveScrollBoxHeight("worklist");

  it("renders only about a screenful of 1000 items", async () => {
    const many = Array.from({ length: 1000 }, (_, i) =>
      item({ equipment_id: `eq-${String(i).padStart(4, "0")}`, failure_probability: 1 - i / 1000 }),
    );
    const fetch = setup({ worklist: () => json(many) });
    renderApp("/maintenance/worklist?cluster=local&limit=1000");
    await screen.findByTestId("worklist-table");
    expect(params(calls(fetch, "/api/v1/maintenance/worklist")[0]![0]).get("limit")).toBe("1000");
    const ids = shownRows();
    expectScreenful(ids);
    expect(ids[0]).toBe("eq-0000");
    expect(screen.getByTestId("worklist-count")).toHaveTextContent("1,000 items");
  });
});

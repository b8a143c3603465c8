import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Schedule, ScheduleDetail, ScheduleRun } from "../api/types";
import { SCHEDULES_POLL_MS } from "../lib/schedules";
import { formatLocal } from "../lib/time";
import { change } from "../test/byTestId";
import { apiError, bodiesTo, callsTo, json, type Route, stubFetch, type StubResponse } from "../test/fetchStub";
import { CLUSTERS, ME, TOPICS, VIEWER } from "../test/fixtures";
import { renderApp } from "../test/render";
import { SPARK_JOB_TYPES } from "../test/sparkFixtures";

const LIST_URL = "/api/v1/spark/schedules";
const detailUrl = (id: number) => `/api/v1/spark/schedules/${id}`;

afterEach(() => {
  vi.useRealTimers();
});

// ---- fixtures: as the server answers them (sparkjobs/api/serializers.py) ----

function schedule(overrides: Partial<Schedule> = {}): Schedule {
  return {
    id: 3,
    job_type: "maintenance-score",
    cluster: "local",
    params: { model_id: null, features: { alarms_topic: "pm.alarms" } },
    cron: "30 1 * * *",
    every_minutes: null,
    timezone: "UTC",
    enabled: true,
    next_run_at: "2026-07-03T01:30:00Z",
    last_job_id: 120,
    created_by: "alice",
    created_at: "2026-07-01T16:03:00Z",
    updated_at: "2026-07-01T16:03:00Z",
    ...overrides,
  };
}

/** The daily scoring (cron, enabled, with a last job) and a disabled profile every 6 hours. */
const SCHEDULES: Schedule[] = [
  schedule(),
  schedule({
    id: 4,
    job_type: "topic-profile",
    params: { topic: "orders", top_duplicates: 20 },
    cron: null,
    every_minutes: 360,
    enabled: false,
    next_run_at: null,
    last_job_id: null,
    created_by: null,
  }),
];

function run(overrides: Partial<ScheduleRun>): ScheduleRun {
  return {
    due_at: "2026-07-02T01:30:00Z",
    ran_at: "2026-07-02T01:30:04Z",
    outcome: "started",
    job_id: 120,
    job_state: "succeeded",
    reason: "",
    ...overrides,
  };
}

/** Newest first: one of each outcome. */
const RUNS: ScheduleRun[] = [
  run({}),
  run({ due_at: "2026-07-01T01:30:00Z", ran_at: "2026-07-01T01:30:02Z", outcome: "skipped", job_id: null, job_state: null, reason: "job #110 is still running" }),
  run({ due_at: "2026-06-30T01:30:00Z", ran_at: "2026-06-30T01:30:03Z", outcome: "refused", job_id: null, job_state: null, reason: "params.features.alarms_topic: topic 'pm.alarms' does not exist." }),
  run({ due_at: "2026-06-29T01:30:00Z", ran_at: "2026-06-29T01:30:01Z", outcome: "failed", job_id: 101, job_state: "failed", reason: "the worker queue did not answer" }),
];

const detail = (s: Schedule, runs: ScheduleRun[] = []): ScheduleDetail => ({ ...s, runs });

/** The page's routes: the schedules as given, schedule 3's runs, the catalog, clusters, topics, the user. */
function stubSchedules(routes: Record<string, Route> = {}, user = ME) {
  return stubFetch({
    "/api/v1/me": json(user),
    "/api/v1/spark/job-types": json(SPARK_JOB_TYPES),
    "/api/v1/clusters": json(CLUSTERS),
    "/api/v1/clusters/local/topics": json(TOPICS),
    [LIST_URL]: json(SCHEDULES),
    [detailUrl(3)]: json(detail(SCHEDULES[0]!, RUNS)),
    ...routes,
  });
}

/** Opens the new-schedule form (loaded lazily) with `jobType` chosen, once the clusters are in. */
async function openForm(jobType = "topic-profile") {
  fireEvent.click(await screen.findByTestId("schedule-new"));
  const form = await screen.findByTestId("schedule-form", {}, { timeout: 10_000 });
  await waitFor(() => expect(screen.getByTestId("schedule-cluster")).toHaveValue("local"));
  change("schedule-job-type", jobType);
  await screen.findByTestId("param-topic");
  return form;
}

/** A POST handler answering `answers` in turn (the last one again after that). */
function answering(...answers: StubResponse[]) {
  let n = 0;
  return (_url: string, init: RequestInit | undefined): StubResponse => {
    if (init?.method !== "POST") return json(SCHEDULES);
    return answers[Math.min(n++, answers.length - 1)]!;
  };
}

describe("SchedulesPage", () => {
  it("lists the schedules with their timing, next run (local time and how far off) and last job", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-07-02T22:30:00Z") });
    stubSchedules();
    renderApp("/spark/schedules");

    const scoring = await screen.findByTestId("schedule-row-3");
    // The menu: Schedules is current, not Spark jobs.
    const nav = screen.getByRole("navigation", { name: "Main" });
    expect(within(nav).getByRole("link", { name: "Schedules" })).toHaveClass("active");
    expect(within(nav).getByRole("link", { name: "Spark jobs" })).not.toHaveClass("active");
    expect(screen.getByTestId("schedules-count")).toHaveTextContent("2 schedules");

    expect(scoring).toHaveAttribute("data-enabled", "true");
    expect(scoring).toHaveTextContent("maintenance-score");
    expect(screen.getByTestId("schedule-when-3")).toHaveTextContent(/^cron 30 1 \* \* \* \(UTC\)$/);
    const next = screen.getByTestId("schedule-next-3");
    expect(within(next).getByText(formatLocal(Date.parse("2026-07-03T01:30:00Z")).slice(0, 16))).toHaveAttribute(
      "datetime",
      "2026-07-03T01:30:00Z",
    );
    expect(next).toHaveTextContent(/in 3 h$/);
    expect(screen.getByTestId("schedule-last-job-3")).toHaveAttribute("href", "/spark/jobs/120");
    expect(screen.getByTestId("schedule-toggle-3")).toBeChecked();
    expect(screen.getByTestId("schedule-toggle-3")).toBeEnabled();
    expect(scoring).toHaveTextContent("alice");

    const profile = screen.getByTestId("schedule-row-4");
    expect(profile).toHaveAttribute("data-enabled", "false");
    expect(screen.getByTestId("schedule-when-4")).toHaveTextContent(/^every 6 h$/);
    expect(screen.getByTestId("schedule-next-4")).toHaveTextContent("— (disabled)");
    expect(screen.getByTestId("schedule-toggle-4")).not.toBeChecked();
    expect(within(profile).getByText("never")).toBeInTheDocument();
    expect(screen.queryByTestId("schedule-last-job-4")).toBeNull();
    expect(screen.queryByTestId("schedules-empty")).toBeNull();
  });

  it("fetches the schedules again every 15 s, keeping the table on screen", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    let list = [SCHEDULES[0]!];
    stubSchedules({ [LIST_URL]: () => json(list) });
    renderApp("/spark/schedules");
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByTestId("schedules-table")).toHaveAttribute("data-count", "1");

    list = SCHEDULES;
    await act(() => vi.advanceTimersByTimeAsync(SCHEDULES_POLL_MS - 1_000));
    expect(screen.getByTestId("schedules-table")).toHaveAttribute("data-count", "1");
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(SCHEDULES_POLL_MS).toBe(15_000);
    expect(screen.getByTestId("schedules-table")).toHaveAttribute("data-count", "2");
    expect(screen.queryByTestId("loading")).toBeNull();
  });

  it("opens a row to its params and last runs, each outcome as a badge, the job linked with its state", async () => {
    const fetch = stubSchedules();
    renderApp("/spark/schedules");
    fireEvent.click(await screen.findByTestId("schedule-expand-3"));

    const runs = await screen.findByTestId("schedule-runs-3");
    expect(callsTo(fetch, detailUrl(3))).toHaveLength(1);
    expect(screen.getByTestId("schedule-params-3")).toHaveTextContent("model_id=default");
    expect(screen.getByTestId("schedule-params-3")).toHaveTextContent("features=alarms_topic: pm.alarms");

    const badges = within(runs).getAllByTestId("schedule-run-outcome");
    expect(badges.map((b) => b.getAttribute("data-outcome"))).toEqual(["started", "skipped", "refused", "failed"]);
    expect(badges.map((b) => b.textContent)).toEqual(["started", "skipped", "refused", "failed"]);
    expect(badges.map((b) => b.querySelector(".badge")?.getAttribute("data-tone"))).toEqual(["ok", "neutral", "warn", "error"]);

    const rows = within(runs).getAllByTestId("schedule-run");
    expect(within(rows[0]!).getByRole("link", { name: "#120" })).toHaveAttribute("href", "/spark/jobs/120");
    expect(rows[0]!.querySelector("[data-state]")).toHaveAttribute("data-state", "succeeded");
    // Due at (to the minute), ran at (to the second), in the browser's zone.
    const [due, ran] = rows[0]!.querySelectorAll("time");
    expect(due).toHaveAttribute("datetime", "2026-07-02T01:30:00Z");
    expect(due).toHaveTextContent(formatLocal(Date.parse("2026-07-02T01:30:00Z")).slice(0, 16));
    expect(ran).toHaveAttribute("datetime", "2026-07-02T01:30:04Z");
    expect(ran).toHaveTextContent(formatLocal(Date.parse("2026-07-02T01:30:04Z")).slice(0, 19));
    expect(rows[1]).toHaveTextContent("job #110 is still running");
    expect(within(rows[1]!).queryByRole("link")).toBeNull();
    expect(rows[2]).toHaveTextContent("topic 'pm.alarms' does not exist.");
    expect(within(rows[3]!).getByRole("link", { name: "#101" })).toHaveAttribute("href", "/spark/jobs/101");
    expect(rows[3]!.querySelector("[data-state]")).toHaveAttribute("data-state", "failed");

    // Closed again: the runs go.
    fireEvent.click(screen.getByTestId("schedule-expand-3"));
    expect(screen.queryByTestId("schedule-runs-3")).toBeNull();
  });

  it("lets an operator disable a schedule: PATCH {enabled: false}, the row shows the answer", async () => {
    let list = SCHEDULES;
    const disabled = detail(schedule({ enabled: false, next_run_at: null }));
    const fetch = stubSchedules({
      [LIST_URL]: () => json(list),
      [detailUrl(3)]: (_url, init) => {
        if (init?.method !== "PATCH") return json(detail(list[0]!, RUNS));
        list = [schedule({ enabled: false, next_run_at: null }), SCHEDULES[1]!];
        return json(disabled);
      },
    });
    renderApp("/spark/schedules");
    const toggle = await screen.findByTestId("schedule-toggle-3");
    fireEvent.click(toggle);

    await waitFor(() => expect(screen.getByTestId("schedule-row-3")).toHaveAttribute("data-enabled", "false"));
    expect(bodiesTo(fetch, detailUrl(3), "PATCH")).toEqual([{ enabled: false }]);
    expect(screen.getByTestId("schedule-toggle-3")).not.toBeChecked();
    expect(screen.getByTestId("schedule-next-3")).toHaveTextContent("— (disabled)");
  });

  it("shows a refused toggle's message in the row and keeps the schedule as it was", async () => {
    stubSchedules({
      [detailUrl(3)]: (_url, init) =>
        init?.method === "PATCH" ? apiError(403, "forbidden", "Operators only.") : json(detail(SCHEDULES[0]!, RUNS)),
    });
    renderApp("/spark/schedules");
    fireEvent.click(await screen.findByTestId("schedule-toggle-3"));
    expect(await screen.findByTestId("schedule-toggle-error-3")).toHaveTextContent("Operators only.");
    expect(screen.getByTestId("schedule-row-3")).toHaveAttribute("data-enabled", "true");
    expect(screen.getByTestId("schedule-toggle-3")).toBeChecked();
  });

  it("deletes a schedule only once confirmed: DELETE sent, the row gone", async () => {
    let list = SCHEDULES;
    const fetch = stubSchedules({
      [LIST_URL]: () => json(list),
      [detailUrl(3)]: (_url, init) => {
        if (init?.method !== "DELETE") return json(detail(SCHEDULES[0]!, RUNS));
        list = [SCHEDULES[1]!];
        return { status: 204 };
      },
    });
    renderApp("/spark/schedules");

    // Cancelled: nothing sent.
    fireEvent.click(await screen.findByTestId("schedule-delete-3"));
    expect(within(screen.getByTestId("confirm-dialog")).getByText(/The jobs it started stay/)).toBeInTheDocument();
    fireEvent.click(screen.getByTestId("confirm-dismiss"));
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
    expect(callsTo(fetch, detailUrl(3), "DELETE")).toHaveLength(0);

    fireEvent.click(screen.getByTestId("schedule-delete-3"));
    fireEvent.click(screen.getByTestId("confirm-button"));
    await waitFor(() => expect(screen.queryByTestId("schedule-row-3")).toBeNull());
    expect(callsTo(fetch, detailUrl(3), "DELETE")).toHaveLength(1);
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
    expect(screen.getByTestId("flash")).toHaveTextContent("Schedule #3 was deleted.");
    expect(screen.getByTestId("schedule-row-4")).toBeInTheDocument();
  });

  it("creates a cron schedule: the exact POST body, then the form closes and the list shows it", async () => {
    const created = schedule({
      id: 9,
      job_type: "topic-profile",
      params: { topic: "orders", sequence_scope: "partition", top_duplicates: 20 },
      timezone: "Europe/Paris",
      next_run_at: "2026-07-02T23:30:00Z",
      last_job_id: null,
    });
    let list = SCHEDULES;
    const fetch = stubSchedules({
      [LIST_URL]: (_url, init) => {
        if (init?.method !== "POST") return json(list);
        list = [...SCHEDULES, created];
        return json(detail(created), 201);
      },
    });
    renderApp("/spark/schedules");
    await openForm("topic-profile");
    // The defaults: cron in UTC, enabled.
    expect(screen.getByTestId("schedule-timing-cron")).toBeChecked();
    expect(screen.getByTestId("schedule-cron")).toHaveAttribute("placeholder", "30 1 * * *");
    expect(screen.getByTestId("schedule-timezone")).toHaveValue("UTC");
    expect(screen.getByTestId("schedule-enabled")).toBeChecked();

    change("schedule-cron", " 30  1 * * * ");
    change("schedule-timezone", "Europe/Paris");
    change("param-topic", "orders");
    fireEvent.click(screen.getByTestId("schedule-submit"));

    await waitFor(() => expect(screen.queryByTestId("schedule-form")).toBeNull());
    expect(bodiesTo(fetch, LIST_URL, "POST")).toEqual([
      {
        job_type: "topic-profile",
        cluster: "local",
        params: { topic: "orders", sequence_scope: "partition", top_duplicates: 20 },
        cron: "30 1 * * *",
        every_minutes: null,
        timezone: "Europe/Paris",
        enabled: true,
      },
    ]);
    expect(await screen.findByTestId("schedule-row-9")).toBeInTheDocument();
    expect(screen.getByTestId("schedule-when-9")).toHaveTextContent("cron 30 1 * * * (Europe/Paris)");
    expect(screen.getByTestId("flash")).toHaveTextContent("Schedule #9 was created");
  });

  it("creates a schedule every N minutes, disabled, and checks the timing before sending", async () => {
    const fetch = stubSchedules({ [LIST_URL]: answering(json(detail(schedule({ id: 10, cron: null, every_minutes: 90 })), 201)) });
    renderApp("/spark/schedules");
    await openForm("topic-profile");
    change("param-topic", "orders");

    // Nothing typed in the cron field: said beside it, nothing sent.
    fireEvent.click(screen.getByTestId("schedule-submit"));
    expect(await screen.findByTestId("field-error-cron")).toHaveTextContent("Give a cron expression");
    expect(callsTo(fetch, LIST_URL, "POST")).toHaveLength(0);

    // Typing the minutes chooses that timing (and clears what was said of the cron field).
    change("schedule-every", "90");
    expect(screen.getByTestId("schedule-timing-every")).toBeChecked();
    expect(screen.queryByTestId("field-error-cron")).toBeNull();
    expect(screen.getByTestId("schedule-every-hint")).toHaveTextContent("Runs every 1 h 30 min.");
    fireEvent.click(screen.getByTestId("schedule-enabled"));
    fireEvent.click(screen.getByTestId("schedule-submit"));

    await waitFor(() => expect(callsTo(fetch, LIST_URL, "POST")).toHaveLength(1));
    expect(bodiesTo(fetch, LIST_URL, "POST")[0]).toEqual({
      job_type: "topic-profile",
      cluster: "local",
      params: { topic: "orders", sequence_scope: "partition", top_duplicates: 20 },
      cron: null,
      every_minutes: 90,
      timezone: "UTC",
      enabled: false,
    });
  });

  it("shows a refusal beside the field it names (cron, a param), the rest in a banner", async () => {
    const fetch = stubSchedules({
      [LIST_URL]: answering(
        apiError(400, "invalid", "cron: Invalid cron expression in '61 1 * * *'.", { field: "cron" }),
        apiError(400, "invalid", "params.topic: topic 'nope' does not exist.", { field: "params.topic" }),
        apiError(400, "invalid", "job_type: unknown job type 'x'.", { field: "job_type" }),
        apiError(403, "forbidden", "Operators only."),
      ),
    });
    renderApp("/spark/schedules");
    await openForm("topic-profile");
    change("param-topic", "nope");
    change("schedule-cron", "61 1 * * *");

    fireEvent.click(screen.getByTestId("schedule-submit"));
    expect(await screen.findByTestId("field-error-cron")).toHaveTextContent(/^Invalid cron expression in '61 1 \* \* \*'\.$/);
    expect(screen.getByTestId("schedule-cron")).toHaveAttribute("aria-invalid", "true");
    expect(screen.queryByTestId("schedule-error")).toBeNull();
    expect(screen.getByTestId("schedule-form")).toBeInTheDocument();

    // Editing the cron field clears what was said of it; the server then names the param.
    change("schedule-cron", "30 1 * * *");
    expect(screen.queryByTestId("field-error-cron")).toBeNull();
    fireEvent.click(screen.getByTestId("schedule-submit"));
    expect(await screen.findByTestId("field-error-topic")).toHaveTextContent(/^Topic 'nope' does not exist\.$/);
    expect(screen.queryByTestId("field-error-cron")).toBeNull();
    expect(screen.queryByTestId("schedule-error")).toBeNull();

    // The job type's select shows its own; a 403 names no field: the banner.
    fireEvent.click(screen.getByTestId("schedule-submit"));
    expect(await screen.findByTestId("field-error-job_type")).toHaveTextContent("Unknown job type 'x'.");
    fireEvent.click(screen.getByTestId("schedule-submit"));
    expect(await screen.findByTestId("schedule-error")).toHaveTextContent("Operators only.");
    expect(callsTo(fetch, LIST_URL, "POST")).toHaveLength(4);
    // Still open: nothing was created.
    expect(screen.getByTestId("schedule-form")).toBeInTheDocument();
  });

  it("shows viewers everything read-only: no create or delete, the toggles disabled", async () => {
    const fetch = stubSchedules({}, VIEWER);
    renderApp("/spark/schedules");
    await screen.findByTestId("schedule-row-3");
    expect(screen.getByTestId("operator-only")).toHaveTextContent("Only operators can create, enable, disable or delete schedules");
    expect(screen.queryByTestId("schedule-new")).toBeNull();
    expect(screen.queryByTestId("schedule-delete-3")).toBeNull();
    expect(screen.queryByTestId("schedule-delete-4")).toBeNull();
    expect(screen.getByTestId("schedule-toggle-3")).toBeDisabled();
    expect(screen.getByTestId("schedule-toggle-4")).toBeDisabled();
    fireEvent.click(screen.getByTestId("schedule-toggle-3"));
    // They may still read the runs.
    fireEvent.click(screen.getByTestId("schedule-expand-3"));
    expect(await screen.findByTestId("schedule-runs-3")).toBeInTheDocument();
    expect(callsTo(fetch, detailUrl(3), "PATCH")).toHaveLength(0);
  });

  it("says what schedules are when there is none", async () => {
    stubSchedules({ [LIST_URL]: json([]) });
    renderApp("/spark/schedules");
    const empty = await screen.findByTestId("schedules-empty");
    expect(empty).toHaveTextContent("No schedules yet.");
    expect(empty).toHaveTextContent("daily scoring and performance schedules appear here once a model is promoted");
    expect(screen.getByTestId("schedules-table")).toHaveAttribute("data-count", "0");
    expect(screen.getByTestId("schedule-new")).toBeEnabled();
  });
});

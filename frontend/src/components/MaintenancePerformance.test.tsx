import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it } from "vitest";
import type { ActiveModel, ModelPerformance } from "../api/maintenance";
import type { SparkJob } from "../api/types";
import { FakeWebSocket, pushLive } from "../test/fakeWebSocket";
import { apiError, json, stubFetch } from "../test/fetchStub";
import { MEASURED, notMeasured, performanceDay } from "../test/performanceFixtures";
import { QueryWrapper } from "../test/queryClient";
import { sparkJob, sparkModel } from "../test/sparkFixtures";
import { ActiveModelSummary } from "./MaintenanceActiveModel";
import { MaintenanceDrift } from "./MaintenanceDrift";
import { calibrationPoints, MaintenancePerformance, totalsText } from "./MaintenancePerformance";
import { DOTS_MAX_DAYS } from "./MaintenancePerformanceChart";

// Trained on "staging": the measure job runs on the model's cluster, whatever the page shows.
const MODEL = sparkModel({ cluster: "staging" });

const PERFORMANCE_PATH = "/api/v1/spark/models/51/performance";

function measureJob(overrides: Partial<SparkJob> = {}): SparkJob {
  return sparkJob({
    id: 90,
    job_type: "model-performance",
    cluster: "staging",
    params: { model_id: 51 },
    state: "queued",
    progress: 0,
    started_at: null,
    ...overrides,
  });
}

function renderPerformance(canMeasure: boolean) {
  return render(
    <QueryWrapper>
      <MemoryRouter>
        <MaintenancePerformance model={MODEL} canMeasure={canMeasure} />
      </MemoryRouter>
    </QueryWrapper>,
  );
}

const performanceCalls = (fetch: ReturnType<typeof stubFetch>) =>
  fetch.mock.calls.filter(([url, init]) => String(url).split("?")[0] === PERFORMANCE_PATH && (init?.method ?? "GET") === "GET");

/** The measure job's socket (opened by the effect that follows the job). */
const jobSocket = () => waitFor(() => FakeWebSocket.last("/ws/spark/jobs/90"));

/** The points of an SVG path's `d` ("M1,2L3,4ZM5,6Z"), one list per drawn segment. */
function segments(path: Element): [number, number][][] {
  const d = path.getAttribute("d") ?? "";
  return d
    .split("M")
    .filter(Boolean)
    .map((part) =>
      part
        .replace(/Z/g, "")
        .split("L")
        .map((xy) => xy.split(",").map(Number) as [number, number]),
    );
}

/** The chart's line named `name` (recharts draws a curve per line, named after it). */
async function line(card: HTMLElement, name: string): Promise<Element> {
  return await waitFor(() => {
    const path = card.querySelector(`path.recharts-line-curve[name="${name}"]`);
    expect(path).not.toBeNull();
    return path!;
  });
}

describe("MaintenancePerformance, not measured yet", () => {
  it("says what measures it, and an operator's Measure now submits the job, follows it and then fetches the measure", async () => {
    let measured = false;
    let job = measureJob();
    const posted: unknown[] = [];
    const fetch = stubFetch({
      [PERFORMANCE_PATH]: () => json(measured ? MEASURED : notMeasured(51)),
      "/api/v1/spark/jobs": (_url, init) => {
        posted.push(JSON.parse(String(init?.body)));
        return json(job, 201);
      },
      "/api/v1/spark/jobs/90": () => json(job),
    });
    renderPerformance(true);

    const section = screen.getByTestId("pm-performance");
    expect(await screen.findByTestId("pm-performance-none")).toHaveTextContent(
      /^Not measured yet: the cluster's daily performance schedule measures the active model's past predictions once their horizon has passed/,
    );
    expect(section).toHaveAttribute("data-job", "");
    expect(screen.queryByTestId("pm-performance-totals")).toBeNull();

    fireEvent.click(screen.getByTestId("pm-performance-run"));
    const running = await screen.findByTestId("pm-performance-running");
    expect(posted).toEqual([{ job_type: "model-performance", cluster: "staging", params: { model_id: 51 } }]);
    expect(running).toHaveTextContent("Measuring… job #90");
    expect(screen.getByTestId("pm-performance-run")).toBeDisabled();
    expect(performanceCalls(fetch)).toHaveLength(1);

    // The job's socket: running, then succeeded (the server wrote the measure).
    const socket = await jobSocket();
    job = measureJob({ state: "running", progress: 0.5 });
    await pushLive(socket, { type: "job", ...job });
    expect(screen.getByTestId("pm-performance-running")).toHaveAttribute("data-state", "running");
    measured = true;
    job = measureJob({ state: "succeeded", progress: 1, result: { days: 5 } });
    await pushLive(socket, { type: "job", ...job });

    expect(await screen.findByTestId("pm-performance-totals")).toBeInTheDocument();
    expect(performanceCalls(fetch)).toHaveLength(2);
    expect(section).toHaveAttribute("data-job", "88");
    expect(screen.queryByTestId("pm-performance-running")).toBeNull();
    expect(screen.queryByTestId("pm-performance-none")).toBeNull();
    // Measured: measuring again is still offered.
    expect(screen.getByTestId("pm-performance-run")).toBeEnabled();
    expect(screen.getByTestId("pm-performance-run")).toHaveTextContent("Measure now");
  });

  it("asks the drift shown beside it again once a measure succeeded (days scored since its last poll)", async () => {
    let job = measureJob();
    const driftPath = "/api/v1/spark/models/51/drift";
    const fetch = stubFetch({
      [PERFORMANCE_PATH]: () => json(notMeasured(51)),
      [driftPath]: () => json({ model_id: 51, reference: null, days: [] }),
      "/api/v1/spark/jobs": () => json(job, 201),
      "/api/v1/spark/jobs/90": () => json(job),
    });
    render(
      <QueryWrapper>
        <MemoryRouter>
          <MaintenancePerformance model={MODEL} canMeasure />
          <MaintenanceDrift model={MODEL} />
        </MemoryRouter>
      </QueryWrapper>,
    );
    const driftCalls = () => fetch.mock.calls.filter(([url]) => String(url).split("?")[0] === driftPath);
    await waitFor(() => expect(driftCalls()).toHaveLength(1));
    fireEvent.click(await screen.findByTestId("pm-performance-run"));
    const socket = await jobSocket();
    job = measureJob({ state: "succeeded", progress: 1, result: { days: 5 } });
    await pushLive(socket, { type: "job", ...job });
    await waitFor(() => expect(driftCalls()).toHaveLength(2));
  });

  it("shows why the measure failed, and a refused submit's message", async () => {
    let job = measureJob();
    let refuse = false;
    stubFetch({
      [PERFORMANCE_PATH]: json(notMeasured(51)),
      "/api/v1/spark/jobs": () => (refuse ? apiError(403, "forbidden", "Operators only.") : json(job, 201)),
      "/api/v1/spark/jobs/90": () => json(job),
    });
    const { unmount } = renderPerformance(true);
    await screen.findByTestId("pm-performance-none");
    fireEvent.click(screen.getByTestId("pm-performance-run"));
    await screen.findByTestId("pm-performance-running");
    job = measureJob({ state: "failed", progress: 0.2, error: "predictions topic equipment-failure-predictions not found" });
    await pushLive(await jobSocket(), { type: "job", ...job });
    const error = await screen.findByTestId("pm-performance-error");
    expect(error).toHaveTextContent("The measure failed (job #90)");
    expect(error).toHaveTextContent("predictions topic equipment-failure-predictions not found");
    expect(screen.queryByTestId("pm-performance-running")).toBeNull();
    unmount();

    refuse = true;
    renderPerformance(true);
    await screen.findByTestId("pm-performance-none");
    fireEvent.click(screen.getByTestId("pm-performance-run"));
    expect(await screen.findByTestId("pm-performance-error")).toHaveTextContent("Could not start the measure: Operators only.");
    expect(screen.getByTestId("pm-performance-run")).toBeEnabled();
  });

  it("offers viewers no button", async () => {
    const fetch = stubFetch({ [PERFORMANCE_PATH]: json(notMeasured(51)) });
    renderPerformance(false);
    expect(await screen.findByTestId("pm-performance-none")).toHaveTextContent(/Operators can measure it now\.$/);
    expect(screen.queryByTestId("pm-performance-run")).toBeNull();
    expect(fetch.mock.calls.every(([, init]) => (init?.method ?? "GET") === "GET")).toBe(true);
  });
});

describe("MaintenancePerformance, measured", () => {
  it("states the totals, leaving out what is null", async () => {
    stubFetch({ [PERFORMANCE_PATH]: json(MEASURED) });
    renderPerformance(false);
    const totals = await screen.findByTestId("pm-performance-totals");
    expect(totals).toHaveTextContent(
      /^Known 1,200 of 1,500 predictions \(300 pending\) · precision 0\.42 · recall 0\.61 at threshold 0\.50 · measured 2026-07-0[23] \d\d:\d\d by job #88$/,
    );
    expect(screen.getByTestId("pm-performance")).toHaveAttribute("data-job", "88");
    expect(screen.queryByTestId("pm-performance-run")).toBeNull();

    const noRates: ModelPerformance = {
      ...MEASURED,
      computed_at: null,
      totals: { ...MEASURED.totals!, precision: null, recall: null },
    };
    expect(totalsText(noRates)).toBe("Known 1,200 of 1,500 predictions (300 pending) · measured by job #88");
    expect(totalsText({ ...MEASURED, threshold: null, totals: { ...MEASURED.totals!, recall: null } })).toMatch(
      /· precision 0\.42 · measured /,
    );
  });

  it("draws one point per scored day, a null value as a gap (never a zero)", async () => {
    stubFetch({ [PERFORMANCE_PATH]: json(MEASURED) });
    renderPerformance(true);
    const card = await screen.findByTestId("pm-performance-chart");
    expect(card).toHaveAttribute("data-points", "5");
    expect(card).toHaveTextContent("failures within 7 d · data up to 2026-06-29");

    // Precision: days 1-3 (day 2's 0 is a value: drawn at the bottom), then two unknown days.
    const precision = segments(await line(card, "Precision"));
    expect(precision).toHaveLength(1);
    expect(precision[0]).toHaveLength(3);
    const xs = precision[0]!.map(([x]) => x);
    const step = xs[1]! - xs[0]!;
    expect(step).toBeGreaterThan(0);
    expect(xs[2]! - xs[1]!).toBeCloseTo(step); // one day apart each
    const bottom = Math.max(...precision[0]!.map(([, y]) => y));
    expect(precision[0]![1]![1]).toBe(bottom);

    // Recall and ROC AUC: day 2 undefined, two points on their own at days 1 and 3.
    for (const name of ["Recall", "ROC AUC"]) {
      const parts = segments(await line(card, name));
      expect(parts.map((p) => p.length)).toEqual([1, 1]);
      expect(parts.map((p) => p[0]![0])).toEqual([xs[0], xs[2]]);
    }
    // A dot per known value (few days: every one), none for a gap.
    expect(card.querySelectorAll(".pm-day-dot-precision")).toHaveLength(3);
    expect(card.querySelectorAll(".pm-day-dot-recall")).toHaveLength(2);
    expect(card.querySelectorAll(".pm-day-dot-roc_auc")).toHaveLength(2);
    // The days on the time axis, one label each.
    const ticks = [...card.querySelectorAll("text.recharts-xAxis[data-tick]")].map((t) => t.getAttribute("data-tick"));
    expect(ticks).toEqual(["Jun 18", "Jun 19", "Jun 20", "Jun 21", "Jun 22"]);
  });

  it("stays a plain line over a year of days: no dots but between gaps, ticks that do not crowd", async () => {
    const start = Date.parse("2025-07-01T00:00:00Z");
    const days = Array.from({ length: 365 }, (_, i) =>
      performanceDay(new Date(start + i * 86_400_000).toISOString().slice(0, 10), {
        precision: i === 100 ? null : 0.3 + (i % 10) / 100,
        // A value alone between two gaps: drawn as a dot (a line needs two points).
        recall: i === 200 ? 0.5 : null,
      }),
    );
    stubFetch({ [PERFORMANCE_PATH]: json({ ...MEASURED, days }) });
    renderPerformance(false);
    const card = await screen.findByTestId("pm-performance-chart");
    expect(card).toHaveAttribute("data-points", "365");
    expect(365).toBeGreaterThan(DOTS_MAX_DAYS);
    const precision = segments(await line(card, "Precision"));
    expect(precision.map((p) => p.length)).toEqual([100, 264]);
    expect(card.querySelectorAll(".pm-day-dot-precision")).toHaveLength(0);
    expect(card.querySelectorAll(".pm-day-dot-recall")).toHaveLength(1);
    const ticks = [...card.querySelectorAll("text.recharts-xAxis[data-tick]")].map((t) => t.getAttribute("data-tick"));
    expect(ticks.length).toBeGreaterThan(2);
    expect(ticks.length).toBeLessThanOrEqual(12);
    expect(new Set(ticks).size).toBe(ticks.length);
  });

  it("draws the calibration against the perfectly calibrated diagonal", async () => {
    stubFetch({ [PERFORMANCE_PATH]: json(MEASURED) });
    renderPerformance(false);
    const card = await screen.findByTestId("pm-calibration-chart");
    expect(card).toHaveAttribute("data-points", "4");
    expect(card).toHaveTextContent("dashed: perfectly calibrated");
    const curve = segments(await line(card, "Observed"));
    expect(curve.map((p) => p.length)).toEqual([4]);
    expect(card.querySelectorAll(".recharts-line-dot")).toHaveLength(4);
    // The diagonal from (0, 0) to (1, 1): bottom left to top right.
    const diagonal = card.querySelector(".recharts-reference-line line")!;
    expect(Number(diagonal.getAttribute("x2"))).toBeGreaterThan(Number(diagonal.getAttribute("x1")));
    expect(Number(diagonal.getAttribute("y2"))).toBeLessThan(Number(diagonal.getAttribute("y1")));

    // Columns are read by name; a malformed row is left out; sorted by the mean prediction.
    expect(
      calibrationPoints({
        columns: ["predicted", "observed", "predictions", "band_low", "band_high"],
        rows: [[0.5, 0.4, 10, 0.4, 0.6], [0.1, 0.05, 50, 0, 0.2], [Number.NaN, 0, 1, 0, 1]],
      }),
    ).toEqual([
      { bandLow: 0, bandHigh: 0.2, predictions: 50, predicted: 0.1, observed: 0.05 },
      { bandLow: 0.4, bandHigh: 0.6, predictions: 10, predicted: 0.5, observed: 0.4 },
    ]);
    expect(calibrationPoints(null)).toEqual([]);
  });

  it("says so when no prediction of the model was found", async () => {
    stubFetch({ [PERFORMANCE_PATH]: json({ ...MEASURED, days: [], totals: null, calibration: null }) });
    renderPerformance(true);
    expect(await screen.findByTestId("pm-performance-empty")).toHaveTextContent(
      "No prediction of this model was found in its predictions topic.",
    );
    expect(screen.getByTestId("pm-performance")).toHaveAttribute("data-job", "88");
    expect(screen.queryByTestId("pm-performance-chart")).toBeNull();
    expect(screen.getByTestId("pm-performance-run")).toBeInTheDocument();
  });

  it("shows an error banner when the model is gone", async () => {
    stubFetch({ [PERFORMANCE_PATH]: apiError(404, "model_not_found", "No model 51.") });
    renderPerformance(false);
    const section = screen.getByTestId("pm-performance");
    expect(await within(section).findByTestId("error-banner")).toHaveTextContent("Could not load the model's performance: No model 51.");
  });
});

describe("ActiveModelSummary's performance schedule", () => {
  const schedule = {
    id: 4,
    job_type: "model-performance",
    cluster: "local",
    params: {},
    cron: "30 3 * * *",
    every_minutes: null,
    timezone: "UTC",
    enabled: true,
    next_run_at: "2026-07-03T03:30:00Z",
    last_job_id: null,
    created_by: "alice",
    created_at: "2026-07-02T08:15:00Z",
    updated_at: "2026-07-02T08:15:00Z",
  };
  const state: ActiveModel = {
    cluster: "local",
    model: { ...MODEL, cluster: "local", algorithm: null, metrics: null },
    how: "manual",
    reason: "",
    promoted_by: null,
    promoted_at: null,
    history: [],
    scoring_schedule: { ...schedule, id: 3, job_type: "maintenance-score", cron: "30 1 * * *" },
    performance_schedule: schedule,
    retrain_schedule: null,
  };

  it("names it after the scoring schedule, with its timing and next run, or that it is disabled", () => {
    const { unmount } = render(<ActiveModelSummary state={state} canPromote onSelect={() => {}} />);
    const text = screen.getByTestId("pm-performance-schedule");
    expect(text).toHaveAttribute("data-schedule", "4");
    expect(text).toHaveTextContent(/^Its performance is measured by schedule 4 \(30 3 \* \* \* UTC\), next 2026-07-0[23] \d\d:\d\d\.$/);
    expect(screen.getByTestId("pm-active-model")).toHaveTextContent(
      /Scored with it by schedule 3 \(30 1 \* \* \* UTC\), next [^.]+\. Its performance is measured by schedule 4/,
    );
    unmount();

    const { unmount: unmount2 } = render(
      <ActiveModelSummary state={{ ...state, performance_schedule: { ...schedule, enabled: false, next_run_at: null } }} canPromote onSelect={() => {}} />,
    );
    expect(screen.getByTestId("pm-performance-schedule")).toHaveTextContent(/, disabled\.$/);
    unmount2();

    // None (deleted, or an older server): nothing said.
    render(<ActiveModelSummary state={{ ...state, performance_schedule: null }} canPromote onSelect={() => {}} />);
    expect(screen.queryByTestId("pm-performance-schedule")).toBeNull();
    expect(screen.getByTestId("pm-scoring-schedule")).toBeInTheDocument();
  });
});

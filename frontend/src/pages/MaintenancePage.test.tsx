import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { ActiveModel, PipelineJob, PipelineStep, Prediction, Promotion, SparkModel } from "../api/maintenance";
import { localMinute } from "../components/MaintenanceActiveModel";
import type { TopicSummary } from "../api/types";
import { FakeWebSocket, pushLive } from "../test/fakeWebSocket";
import { noDays } from "../test/driftFixtures";
import { apiError, json, type Route, stubFetch, type StubResponse } from "../test/fetchStub";
import { CLUSTERS, ME, TOPICS, VIEWER } from "../test/fixtures";
import { notMeasured } from "../test/performanceFixtures";
import { renderApp } from "../test/render";
import { SPARK_JOB_TYPES, SPARK_RESULTS, sparkJob } from "../test/sparkFixtures";

// ---- fixtures: the real job types (the pipeline's params are one object per step) and each
// step's sample result (sparkResults.json, checked against the steps' result schemas) ----

/** A server without the maintenance app: no pipeline job type. */
const WITHOUT_PIPELINE = SPARK_JOB_TYPES.filter((t) => t.name !== "maintenance-pipeline");

const RESULTS: Record<string, Record<string, unknown>> = {
  "window-features": SPARK_RESULTS["window-features"],
  "failure-labels": SPARK_RESULTS["failure-labels"],
  "training-set": SPARK_RESULTS["training-set"],
  "train-model": SPARK_RESULTS["train-model"],
  score: SPARK_RESULTS.score,
};

const NAMES = ["window-features", "failure-labels", "training-set", "train-model", "score"];

function steps(states: PipelineStep["state"][], errors: Record<string, string> = {}): PipelineStep[] {
  return NAMES.map((name, i) => {
    const state = states[i]!;
    const started = state === "pending" || state === "skipped" ? null : `2026-07-01T14:0${i}:00.000000Z`;
    return {
      name,
      state,
      started_at: started,
      finished_at: state === "succeeded" || state === "failed" ? `2026-07-01T14:0${i}:40.000000Z` : null,
      result: state === "succeeded" ? RESULTS[name]! : null,
      error: errors[name] ?? null,
    };
  });
}

function pipelineJob(overrides: Partial<PipelineJob> = {}): PipelineJob {
  return {
    ...sparkJob({
      id: 51,
      job_type: "maintenance-pipeline",
      params: { training: { cutoff_date: "2026-06-08" } },
      state: "running",
      progress: 0.45,
      result: null,
    }),
    steps: steps(["succeeded", "succeeded", "running", "pending", "pending"]),
    ...overrides,
  };
}

const FINISHED = pipelineJob({
  state: "succeeded",
  progress: 1,
  finished_at: "2026-07-01T14:05:00.000000Z",
  steps: steps(["succeeded", "succeeded", "succeeded", "succeeded", "succeeded"]),
  result: RESULTS,
});

const MODELS: SparkModel[] = [
  {
    id: 51,
    job_id: 51,
    cluster: "local",
    created_at: "2026-07-01T14:03:40.000000Z",
    algorithm: "gbt",
    params: { algorithm: "gbt", max_depth: 5 },
    metrics: { roc_auc: 0.8734, pr_auc: 0.6121, precision: 0.7, recall: 0.64, threshold: 0.5 },
    path: "/data/models/51",
    roc_curve: { columns: ["fpr", "tpr"], rows: [[0, 0], [0.1, 0.6], [0.3, 0.85], [1, 1]] },
    active: false,
  },
  {
    id: 38,
    job_id: 38,
    cluster: "local",
    created_at: "2026-06-30T09:00:00.000000Z",
    algorithm: "rf",
    params: { algorithm: "rf" },
    metrics: { roc_auc: 0.7012, pr_auc: 0.41, precision: 0.5, recall: 0.5, threshold: 0.3 },
    path: "/data/models/38",
    roc_curve: { columns: ["fpr", "tpr"], rows: [[0, 0], [0.5, 0.7], [1, 1]] },
    active: false,
  },
];

/** GET spark/models/active of a cluster that has none yet. */
function noActive(cluster = "local"): ActiveModel {
  return { cluster, model: null, how: null, reason: null, promoted_by: null, promoted_at: null, history: [], scoring_schedule: null, performance_schedule: null, retrain_schedule: null };
}

/** `model` made active by alice at `at`, for `reason`. */
function activeState(model: SparkModel, reason: string, at = "2026-07-02T08:15:00.000000Z"): ActiveModel {
  const promotion: Promotion = { model_id: model.id, how: "manual", reason, promoted_by: "alice", promoted_at: at };
  return {
    cluster: model.cluster,
    model: { ...model, active: true },
    how: "manual",
    reason,
    promoted_by: "alice",
    promoted_at: at,
    history: [promotion],
    scoring_schedule: null,
    performance_schedule: null,
    retrain_schedule: null,
  };
}

/** Both models judged usable (the server's verdict; MODELS are an older server's, unjudged). */
const USABLE: SparkModel[] = MODELS.map((m) => ({ ...m, quality: "usable", quality_reason: null }));

const WHY_0007: Pick<Prediction, "drivers" | "recent_alarms"> = {
  drivers: [
    { feature: "count_e303_vibration_7d", value: 9, weight: 0.812 },
    { feature: "max_vibration_7d", value: 1.934, weight: 0.377 },
  ],
  recent_alarms: [
    { fault_code: "E303-VIBRATION", count: 9, days: 7 },
    { fault_code: "E101-OVERHEAT", count: 4, days: 7 },
  ],
};
const NO_WHY: Pick<Prediction, "drivers" | "recent_alarms"> = { drivers: [], recent_alarms: [] };
const PREDICTIONS: Prediction[] = [
  { equipment_id: "eq-0007", day: "2026-06-29", failure_probability: 0.9123, model_id: 51, ...WHY_0007 },
  { equipment_id: "eq-0003", day: "2026-06-29", failure_probability: 0.42, model_id: 51, ...NO_WHY },
  { equipment_id: "eq-0011", day: "2026-06-29", failure_probability: 0.031, model_id: 51, ...NO_WHY },
  // A record the predictions topic held without a day or model (written by hand).
  { equipment_id: "eq-0099", day: null, failure_probability: 0.01, model_id: null, ...NO_WHY },
];

// ---- helpers ----

interface Setup {
  me?: typeof ME;
  topics?: () => TopicSummary[];
  latest?: () => PipelineJob[];
  job?: () => PipelineJob;
  models?: () => SparkModel[];
  predictions?: () => Prediction[];
  submit?: () => StubResponse;
  /** GET spark/models/active, by the `cluster` asked for. */
  active?: (cluster: string) => StubResponse;
  /** POST spark/models/{id}/promote */
  promote?: (id: number, body: unknown) => StubResponse;
}

function setup({
  me = ME,
  topics = () => TOPICS,
  latest = () => [],
  job,
  models = () => MODELS,
  predictions = () => PREDICTIONS,
  submit,
  active = (cluster) => json(noActive(cluster)),
  promote,
}: Setup = {}) {
  const routes: Record<string, Route> = {
    "/api/v1/me": json(me),
    "/api/v1/spark/job-types": json(SPARK_JOB_TYPES),
    "/api/v1/clusters": json(CLUSTERS),
    "/api/v1/clusters/local/topics": () => json(topics()),
    "/api/v1/spark/jobs": (_url, init) =>
      init?.method === "POST" ? (submit ? submit() : apiError(500, "x", "no")) : json(latest()),
    "/api/v1/spark/models": () => json(models()),
    "/api/v1/spark/models/active": (url) => active(new URL(url, "http://x").searchParams.get("cluster") ?? ""),
    "/api/v1/spark/predictions": () => json(predictions()),
  };
  for (const id of [38, 51, 60, 70]) {
    // The chosen model's realised performance (MaintenancePerformance.test.tsx tests it).
    routes[`/api/v1/spark/models/${id}/performance`] = json(notMeasured(id));
    // Its feature drift (MaintenanceDrift.test.tsx tests it).
    routes[`/api/v1/spark/models/${id}/drift`] = json(noDays(id));
    routes[`/api/v1/spark/models/${id}/promote`] = (_url, init) =>
      promote ? promote(id, JSON.parse(String(init?.body))) : apiError(500, "x", "no");
  }
  const current = job ?? (() => latest()[0]!);
  routes["/api/v1/spark/jobs/51"] = () => json(current());
  routes["/api/v1/spark/jobs/77"] = () => json(current());
  return stubFetch(routes);
}

function calls(fetch: ReturnType<typeof stubFetch>, path: string, method = "GET") {
  return fetch.mock.calls.filter(([url, init]) => String(url).split("?")[0] === path && (init?.method ?? "GET") === method);
}

const stepRow = (name: string) => screen.getByTestId(`pm-step-${name}`);

describe("MaintenancePage", () => {
  it("shows the latest run's steps with their results, the models with a ROC curve and the top-risk equipment", async () => {
    const fetch = setup({ latest: () => [FINISHED] });
    renderApp("/maintenance");

    expect(await screen.findByTestId("maintenance-page")).toBeInTheDocument();
    const nav = screen.getByRole("link", { name: "Predictive maintenance" });
    expect(nav).toHaveAttribute("href", "/maintenance");
    expect(nav).toHaveClass("active");

    // The latest run: the newest maintenance-pipeline job, asked for with the right query.
    const run = await screen.findByTestId("pm-run");
    expect(run).toHaveAttribute("data-state", "succeeded");
    const listed = calls(fetch, "/api/v1/spark/jobs").map(([url]) => new URL(String(url), "http://x").searchParams);
    expect(listed[0]?.get("job_type")).toBe("maintenance-pipeline");
    expect(listed[0]?.get("limit")).toBe("20");
    expect(screen.getByTestId("pm-run-progress")).toHaveTextContent("100 %");
    expect(screen.getByTestId("pm-run-link")).toHaveAttribute("href", "/spark/jobs/51");
    expect(screen.getByTestId("pm-run-full")).toHaveAttribute("href", "/spark/jobs/51");
    for (const name of NAMES) {
      expect(stepRow(name)).toHaveAttribute("data-state", "succeeded");
      expect(screen.getByTestId(`pm-step-state-${name}`)).toHaveTextContent("succeeded");
      expect(screen.getByTestId(`pm-step-took-${name}`)).toHaveTextContent("40 s");
    }
    expect(within(run).getAllByTestId(/^pm-step-/).filter((el) => el.tagName === "TR").map((el) => el.dataset.testid)).toEqual(
      NAMES.map((n) => `pm-step-${n}`),
    );
    expect(screen.getByTestId("pm-step-summary-window-features")).toHaveTextContent(
      "720 rows · 12 equipment · 3 features · 2026-05-01 to 2026-06-29",
    );
    expect(screen.getByTestId("pm-step-summary-failure-labels")).toHaveTextContent("636 rows · 41 positive / 595 negative · horizon 7 d");
    expect(screen.getByTestId("pm-step-summary-training-set")).toHaveTextContent(
      "cut-off 2026-06-08 · train 164 rows (41 positive / 123 negative) · test 252 rows (14 positive / 238 negative)",
    );
    expect(screen.getByTestId("pm-step-summary-train-model")).toHaveTextContent("ROC AUC 0.873 · PR AUC 0.612 · gbt · model #51");
    expect(screen.getByTestId("pm-step-summary-score")).toHaveTextContent(
      "12 predictions · for 2026-06-29 · → equipment-failure-predictions · 2 equipment not scored: under 21 days of history",
    );

    // There is a run: the form starts folded.
    expect(screen.getByTestId("pm-run-form")).not.toHaveAttribute("open");

    // Models, newest first and chosen; its ROC curve with the AUC in the title and the diagonal.
    const models = await screen.findByTestId("pm-models");
    expect(models).toHaveAttribute("data-rows", "2");
    const newest = screen.getByTestId("pm-model-51");
    expect(newest).toHaveAttribute("data-selected", "true");
    expect(within(newest).getAllByRole("cell").map((c) => c.textContent)).toEqual([
      "#51 job",
      expect.stringMatching(/^2026-07-01 \d\d:\d\d$/),
      "gbt",
      "0.873",
      "0.612",
      "0.700",
      "0.640",
      "0.50",
    ]);
    const roc = screen.getByTestId("pm-roc");
    expect(screen.getByTestId("pm-roc-title")).toHaveTextContent("ROC curve · model #51 · AUC 0.873");
    expect(roc).toHaveAttribute("data-points", "4");
    await waitFor(() => expect(roc.querySelector(".recharts-wrapper")).not.toBeNull());
    await waitFor(() => expect(roc.querySelector(".recharts-line-curve")).not.toBeNull());
    expect(roc.querySelector(".recharts-reference-line")).not.toBeNull();
    // Under them, its realised performance: not measured yet, and operators may measure it.
    expect(await screen.findByTestId("pm-performance-none")).toBeInTheDocument();
    expect(calls(fetch, "/api/v1/spark/models/51/performance")).toHaveLength(1);
    expect(screen.getByTestId("pm-performance-run")).toHaveTextContent("Measure now");
    // Right after it, the same model's feature drift: no scored day yet.
    expect(await screen.findByTestId("pm-drift-empty")).toBeInTheDocument();
    expect(screen.getByTestId("pm-performance").nextElementSibling).toBe(screen.getByTestId("pm-drift"));
    expect(calls(fetch, "/api/v1/spark/models/51/drift")).toHaveLength(1);

    // Another model: its curve.
    fireEvent.click(screen.getByTestId("pm-model-select-38"));
    expect(screen.getByTestId("pm-model-38")).toHaveAttribute("data-selected", "true");
    expect(screen.getByTestId("pm-model-51")).toHaveAttribute("data-selected", "false");
    expect(screen.getByTestId("pm-roc-title")).toHaveTextContent("model #38 · AUC 0.701");
    expect(screen.getByTestId("pm-roc")).toHaveAttribute("data-points", "3");

    // Top-risk equipment of the chosen cluster, highest first, as percentages with a bar.
    const table = await screen.findByTestId("pm-predictions");
    expect(table).toHaveAttribute("data-rows", "4");
    const asked = calls(fetch, "/api/v1/spark/predictions").map(([url]) => new URL(String(url), "http://x").searchParams);
    expect(asked[0]?.get("cluster")).toBe("local");
    expect(asked[0]?.get("limit")).toBe("20");
    // The topic the latest run wrote (its params hold none here: the default).
    expect(asked[0]?.get("topic")).toBe("equipment-failure-predictions");
    const top = screen.getByTestId("pm-prediction-eq-0007");
    expect(within(top).getAllByRole("cell").map((c) => c.textContent)).toEqual([
      "eq-0007",
      "2026-06-29",
      "91.2 %",
      "count_e303_vibration_7d 9max_vibration_7d 1.93",
      "E303-VIBRATION ×9 (7d), E101-OVERHEAT ×4 (7d)",
      "#51",
    ]);
    // Its recent alarms open its records in the alarms topic (the default: no run names one).
    const alarms = new URL(screen.getByTestId("pm-alarms-eq-0007").getAttribute("href")!, "http://x");
    expect(alarms.pathname).toBe("/clusters/local/topics/equipment-alarms");
    expect(alarms.searchParams.get("tab")).toBe("messages");
    expect(alarms.searchParams.get("filter")).toBe('key == "eq-0007"');
    expect(top).toHaveAttribute("data-flagged", "true"); // above model 51's threshold 0.5
    expect(top.querySelector<HTMLElement>(".pm-prob-fill")!.style.width).toBe("91.23%");
    expect(screen.getByTestId("pm-prediction-eq-0003")).toHaveAttribute("data-flagged", "false");
    expect(screen.getByTestId("pm-probability-eq-0011")).toHaveTextContent("3.1 %");
    expect(within(screen.getByTestId("pm-prediction-eq-0099")).getAllByRole("cell").map((c) => c.textContent)).toEqual([
      "eq-0099",
      "—",
      "1.0 %",
      "—",
      "none recent",
      "—",
    ]);
  });

  it("follows a running run over its socket and refreshes models and predictions when it succeeds", async () => {
    let models: SparkModel[] = [MODELS[1]!];
    let predictions: Prediction[] = [];
    const fetch = setup({ latest: () => [pipelineJob()], models: () => models, predictions: () => predictions });
    renderApp("/maintenance");

    const run = await screen.findByTestId("pm-run");
    expect(run).toHaveAttribute("data-state", "running");
    expect(screen.getByTestId("pm-run-state")).toHaveAttribute("data-state", "running");
    expect(screen.getByTestId("pm-run-progress")).toHaveAttribute("aria-valuenow", "45");
    expect(stepRow("window-features")).toHaveAttribute("data-state", "succeeded");
    expect(stepRow("training-set")).toHaveAttribute("data-state", "running");
    expect(screen.getByTestId("pm-step-summary-training-set")).toHaveTextContent("running…");
    expect(stepRow("train-model")).toHaveAttribute("data-state", "pending");
    expect(screen.getByTestId("pm-step-took-score")).toHaveTextContent("—");
    expect(await screen.findByTestId("pm-predictions-empty")).toHaveTextContent("No predictions yet");
    expect(screen.getByTestId("pm-model-38")).toHaveAttribute("data-selected", "true");

    // Pushed over the run's socket: the next step, then success.
    const socket = await waitFor(() => FakeWebSocket.last("/ws/spark/jobs/51"));
    await pushLive(socket, {
      type: "job",
      ...pipelineJob({ progress: 0.7, steps: steps(["succeeded", "succeeded", "succeeded", "running", "pending"]) }),
    });
    expect(stepRow("training-set")).toHaveAttribute("data-state", "succeeded");
    expect(stepRow("train-model")).toHaveAttribute("data-state", "running");
    expect(screen.getByTestId("pm-run-progress")).toHaveAttribute("aria-valuenow", "70");
    expect(screen.getByTestId("live-indicator")).toHaveAttribute("data-status", "live");

    const modelCalls = calls(fetch, "/api/v1/spark/models").length;
    const predictionCalls = calls(fetch, "/api/v1/spark/predictions").length;
    models = MODELS;
    predictions = PREDICTIONS;
    await pushLive(socket, { type: "job", ...FINISHED });
    expect(screen.getByTestId("pm-run")).toHaveAttribute("data-state", "succeeded");
    await waitFor(() => expect(calls(fetch, "/api/v1/spark/models").length).toBeGreaterThan(modelCalls));
    expect(calls(fetch, "/api/v1/spark/predictions").length).toBeGreaterThan(predictionCalls);
    // The new model is the newest: chosen, its curve shown; the predictions are listed.
    expect(await screen.findByTestId("pm-model-51")).toHaveAttribute("data-selected", "true");
    expect(screen.getByTestId("pm-roc-title")).toHaveTextContent("AUC 0.873");
    expect(await screen.findByTestId("pm-predictions")).toHaveAttribute("data-rows", "4");
  });

  it("shows a failed step's error and the steps after it skipped", async () => {
    const error = "params.training.cutoff_date: 2026-09-01 is not inside the data (2026-05-01 to 2026-06-29)";
    setup({
      latest: () => [
        pipelineJob({
          state: "failed",
          progress: 0.4,
          finished_at: "2026-07-01T14:02:40.000000Z",
          error: `StepFailed: step training-set: ${error}`,
          steps: steps(["succeeded", "succeeded", "failed", "skipped", "skipped"], { "training-set": error }),
        }),
      ],
    });
    renderApp("/maintenance");

    expect(await screen.findByTestId("pm-run")).toHaveAttribute("data-state", "failed");
    expect(screen.getByTestId("pm-run-state")).toHaveAttribute("data-state", "failed");
    expect(stepRow("training-set")).toHaveAttribute("data-state", "failed");
    expect(screen.getByTestId("pm-step-state-training-set")).toHaveAttribute("data-tone", "error");
    const stepError = screen.getByTestId("pm-step-error-training-set");
    expect(stepError).toHaveTextContent("Training set failed");
    expect(stepError).toHaveTextContent("is not inside the data (2026-05-01 to 2026-06-29)");
    expect(stepRow("train-model")).toHaveAttribute("data-state", "skipped");
    expect(stepRow("score")).toHaveAttribute("data-state", "skipped");
    expect(screen.queryByTestId("pm-step-error-train-model")).toBeNull();
    // The job's own error says the same: shown once, at the step.
    expect(screen.queryByTestId("pm-run-error")).toBeNull();
    expect(screen.getByTestId("pm-run-progress")).toHaveClass("progress-failed");
  });

  it("shows a run's error when no step has one (the run was lost)", async () => {
    setup({
      latest: () => [
        pipelineJob({ state: "lost", error: "The worker stopped sending heartbeats.", steps: steps(["succeeded", "running", "pending", "pending", "pending"]) }),
      ],
    });
    renderApp("/maintenance");
    expect(await screen.findByTestId("pm-run-error")).toHaveTextContent("The run was lost");
    expect(screen.getByTestId("pm-run-error")).toHaveTextContent("stopped sending heartbeats");
  });

  it("lets operators run the pipeline from the job type's form and then shows the new run", async () => {
    let latest: PipelineJob[] = [];
    const queued = pipelineJob({ id: 77, state: "queued", progress: 0, started_at: null, steps: steps(["pending", "pending", "pending", "pending", "pending"]) });
    const fetch = setup({
      latest: () => latest,
      job: () => queued,
      models: () => [],
      predictions: () => [],
      submit: () => {
        latest = [queued];
        return json(queued, 201);
      },
    });
    renderApp("/maintenance");

    expect(await screen.findByTestId("pm-no-run")).toHaveTextContent("The pipeline has not run yet: run it with the form above.");
    expect(await screen.findByTestId("pm-models-empty")).toBeInTheDocument();
    expect(await screen.findByTestId("pm-predictions-empty")).toBeInTheDocument();
    // No run yet: the form is open, generated from the pipeline type's schema, one group per step.
    const details = screen.getByTestId("pm-run-form");
    expect(details).toHaveAttribute("open");
    const form = await screen.findByTestId("spark-form-maintenance-pipeline");
    await waitFor(() => expect(screen.getByTestId("spark-cluster")).toHaveValue("local"));
    for (const legend of ["1 · Window features", "2 · Failure labels", "3 · Training set", "4 · Model", "5 · Scores"]) {
      expect(within(form).getByText(legend)).toBeInTheDocument();
    }
    // Step params with their defaults; nullable ones empty, not "null".
    expect(within(form).getByLabelText(/^Horizon days/)).toHaveValue(7);
    expect(form.querySelector("#root_labels_work_orders_topic")).toHaveValue("work-orders");
    expect(form.querySelector("#root_features_start_time")).toHaveValue("");
    expect(within(form).getByLabelText(/^Cutoff date/)).toBeRequired();

    fireEvent.change(within(form).getByLabelText(/^Cutoff date/), { target: { value: "2026-06-08" } });
    fireEvent.change(within(form).getByLabelText(/^Horizon days/), { target: { value: "14" } });
    fireEvent.click(screen.getByTestId("spark-submit"));

    const run = await screen.findByTestId("pm-run");
    expect(run).toHaveAttribute("data-job-id", "77");
    expect(screen.getByTestId("pm-run-state")).toHaveAttribute("data-state", "queued");
    for (const name of NAMES) expect(stepRow(name)).toHaveAttribute("data-state", "pending");
    expect(screen.getByTestId("pm-run-form")).not.toHaveAttribute("open");
    const posts = calls(fetch, "/api/v1/spark/jobs", "POST").map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({
      job_type: "maintenance-pipeline",
      cluster: "local",
      params: { training: { cutoff_date: "2026-06-08" }, labels: { horizon_days: 14 } },
    });
    const params = posts[0]!.params as Record<string, Record<string, unknown>>;
    // Nothing null is sent (the server fills its defaults).
    expect(JSON.stringify(params)).not.toContain("null");

    // Unfolded again, the form runs another pipeline, its values kept (e.g. another cut-off).
    fireEvent.click(screen.getByTestId("pm-run-toggle"));
    expect(screen.getByTestId("spark-submit")).toBeEnabled();
    expect(within(form).getByLabelText(/^Horizon days/)).toHaveValue(14);
    expect(within(form).getByLabelText(/^Horizon days/)).toBeEnabled();
  });

  it("shows a refused param beside its own field in its step's group, without the path in front", async () => {
    setup({
      submit: () =>
        apiError(400, "invalid", "params.labels.work_orders_topic: topic 'nope' does not exist.", { field: "params.labels.work_orders_topic" }),
    });
    renderApp("/maintenance");
    const form = await screen.findByTestId("spark-form-maintenance-pipeline");
    await waitFor(() => expect(screen.getByTestId("spark-cluster")).toHaveValue("local"));
    fireEvent.change(within(form).getByLabelText(/^Cutoff date/), { target: { value: "2026-06-08" } });
    fireEvent.click(screen.getByTestId("spark-submit"));
    const error = await screen.findByTestId("field-error-labels.work_orders_topic");
    expect(error).toHaveTextContent(/^Topic 'nope' does not exist\.$/);
    // Beside the field it is about, inside the step's group.
    expect(error.closest(".form-group")).toContainElement(form.querySelector("#root_labels_work_orders_topic"));
    expect(screen.queryByTestId("field-error-labels")).toBeNull();
    expect(screen.queryByTestId("pm-run")).toBeNull();
  });

  it("shows every refused param of every step at once", async () => {
    setup({
      submit: () =>
        json(
          {
            error: {
              code: "invalid",
              message: "params.features.alarms_topic: topic 'a' holds no records to learn from. (and 2 more)",
              details: {
                field: "params.features.alarms_topic",
                errors: {
                  "params.features.alarms_topic": "topic 'a' holds no records to learn from.",
                  "params.features.end_time": "is before params.features.start_time.",
                  "params.labels.horizon_days": "must be above 0.",
                },
              },
            },
          },
          400,
        ),
    });
    renderApp("/maintenance");
    const form = await screen.findByTestId("spark-form-maintenance-pipeline");
    await waitFor(() => expect(screen.getByTestId("spark-cluster")).toHaveValue("local"));
    fireEvent.change(within(form).getByLabelText(/^Cutoff date/), { target: { value: "2026-06-08" } });
    fireEvent.click(screen.getByTestId("spark-submit"));
    expect(await screen.findByTestId("field-error-features.alarms_topic")).toHaveTextContent(/^Topic 'a' holds no records to learn from\.$/);
    expect(screen.getByTestId("field-error-features.end_time")).toHaveTextContent(/^Is before “Start time”\.$/);
    expect(screen.getByTestId("field-error-labels.horizon_days")).toHaveTextContent(/^Must be above 0\.$/);
    expect(form).not.toHaveTextContent("params.");
  });

  it("reads the steps' date-times in an explicit zone and sends them with its offset", async () => {
    const fetch = setup({ submit: () => json(sparkJob({ id: 77, job_type: "maintenance-pipeline", state: "queued", progress: 0 }), 201) });
    renderApp("/maintenance");
    const form = await screen.findByTestId("spark-form-maintenance-pipeline");
    await waitFor(() => expect(screen.getByTestId("spark-cluster")).toHaveValue("local"));
    const start = screen.getByTestId("param-features_start_time");
    expect(start).toBe(form.querySelector("#root_features_start_time"));
    expect(screen.getByTestId("param-features_start_time-zone")).toHaveValue("UTC");
    fireEvent.change(start, { target: { value: "2026-05-01 06:30" } });
    expect(screen.getByTestId("param-features_start_time-sends")).toHaveTextContent("2026-05-01T06:30:00.000Z");
    fireEvent.change(within(form).getByLabelText(/^Cutoff date/), { target: { value: "2026-06-08" } });
    fireEvent.click(screen.getByTestId("spark-submit"));
    await waitFor(() => expect(calls(fetch, "/api/v1/spark/jobs", "POST")).toHaveLength(1));
    const [, init] = calls(fetch, "/api/v1/spark/jobs", "POST")[0]!;
    expect(JSON.parse(String(init?.body)).params.features).toMatchObject({ start_time: "2026-05-01T06:30:00.000Z" });
  });

  it("shows viewers everything read-only: the form disabled with a note, nothing submitted", async () => {
    const fetch = setup({ me: VIEWER, latest: () => [FINISHED] });
    renderApp("/maintenance");
    expect(await screen.findByTestId("pm-run")).toHaveAttribute("data-state", "succeeded");
    expect(await screen.findByTestId("pm-predictions")).toBeInTheDocument();
    expect(screen.getByTestId("operator-only")).toHaveTextContent("Only operators can run the pipeline");
    // Folded (there is a run) but there: unfold it.
    fireEvent.click(screen.getByTestId("pm-run-toggle"));
    const form = await screen.findByTestId("spark-form-maintenance-pipeline");
    expect(within(form).getByLabelText(/^Cutoff date/)).toBeDisabled();
    expect(within(form).getByLabelText(/^Horizon days/)).toBeDisabled();
    expect(screen.getByTestId("spark-cluster")).toBeDisabled();
    expect(screen.getByTestId("spark-submit")).toBeDisabled();
    // Viewers choose the cluster of the predictions in the top-risk section.
    expect(screen.getByTestId("pm-predictions-cluster")).toBeEnabled();
    expect(calls(fetch, "/api/v1/spark/jobs", "POST")).toEqual([]);
  });

  it("says so when the server has no pipeline job type, the models cannot be loaded and no predictions topic exists", async () => {
    const missing = "Topic 'equipment-failure-predictions' does not exist on cluster 'local' (a score job or the maintenance pipeline writes predictions to it).";
    stubFetch({
      "/api/v1/me": json(ME),
      "/api/v1/spark/job-types": json(WITHOUT_PIPELINE),
      "/api/v1/clusters": json(CLUSTERS),
      "/api/v1/clusters/local/topics": json(TOPICS),
      "/api/v1/spark/jobs": json([]),
      "/api/v1/spark/models": apiError(500, "internal", "Boom."),
      "/api/v1/spark/models/active": json(noActive()),
      "/api/v1/spark/predictions": apiError(404, "topic_not_found", missing),
    });
    renderApp("/maintenance");
    expect(await screen.findByTestId("pm-no-pipeline-type")).toHaveTextContent("offers no maintenance-pipeline job type");
    await waitFor(() => expect(screen.getByTestId("pm-models-title-section")).toHaveTextContent("Could not load the models: Boom."));
    // No predictions topic yet is no error: nothing was scored on that cluster.
    expect(await screen.findByTestId("pm-predictions-empty")).toHaveTextContent(`No predictions yet: ${missing}`);
    expect(within(screen.getByTestId("pm-top-risk-section")).queryByTestId("error-banner")).toBeNull();
  });

  it("shows any other predictions error in a banner", async () => {
    stubFetch({
      "/api/v1/me": json(ME),
      "/api/v1/spark/job-types": json(SPARK_JOB_TYPES),
      "/api/v1/clusters": json(CLUSTERS),
      "/api/v1/clusters/local/topics": json(TOPICS),
      "/api/v1/spark/jobs": json([]),
      "/api/v1/spark/models": json(MODELS),
      "/api/v1/spark/models/active": json(noActive()),
      "/api/v1/spark/predictions": apiError(503, "kafka_unavailable", "The cluster did not answer."),
    });
    renderApp("/maintenance");
    const section = await screen.findByTestId("pm-top-risk-section");
    await waitFor(() => expect(within(section).getByTestId("error-banner")).toHaveTextContent("Could not load the predictions: The cluster did not answer."));
    expect(within(section).queryByTestId("pm-predictions-empty")).toBeNull();
  });
  it("says what to do before the first run, naming the backfill command for a missing topic", async () => {
    // The cluster has the alarms topic but no work-orders topic.
    const alarms = { ...TOPICS[2]!, name: "equipment-alarms" };
    let topics: TopicSummary[] = [alarms];
    setup({ topics: () => topics, models: () => [], predictions: () => [] });
    const { client } = renderApp("/maintenance");
    const guide = await screen.findByTestId("pm-first-run");
    expect(screen.getByTestId("pm-no-run")).toHaveTextContent("The pipeline has not run yet: run it with the form above.");
    expect(within(guide).getByTestId("pm-first-data")).toHaveTextContent(
      "It learns from the alarms topic equipment-alarms and the work-orders topic work-orders on local.",
    );
    expect(await within(guide).findByTestId("pm-backfill-command")).toHaveTextContent(
      /^\.venv\/bin\/python manage\.py demotraffic --backfill$/,
    );
    expect(guide).toHaveTextContent("work-orders does not exist there yet. To try the pipeline on demo data");
    expect(guide).toHaveTextContent("Cut-off date in the form below (3 · Training set)");
    // Above the form it is about.
    expect(guide.compareDocumentPosition(screen.getByTestId("pm-run-form")) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    // Once both topics exist the command is not offered.
    topics = [alarms, { ...alarms, name: "work-orders" }];
    await client.refetchQueries();
    expect(await within(guide).findByTestId("pm-topics-ok")).toHaveTextContent("Both topics exist there.");
    expect(within(guide).queryByTestId("pm-backfill-command")).toBeNull();
  });

  it("reads the predictions of the topic the latest run wrote, and of another chosen topic", async () => {
    const written = pipelineJob({ ...FINISHED, params: { training: { cutoff_date: "2026-06-08" }, score: { predictions_topic: "pm-preds-b" } } });
    const older = pipelineJob({ ...FINISHED, id: 40, params: { score: { predictions_topic: "pm-preds-a" } } });
    const fetch = setup({ latest: () => [written, older] });
    renderApp("/maintenance");
    expect(await screen.findByTestId("pm-run-topic")).toHaveTextContent("pm-preds-b");
    await screen.findByTestId("pm-predictions");
    const select = screen.getByTestId("pm-predictions-topic");
    expect(select).toHaveValue("pm-preds-b");
    expect([...select.querySelectorAll("option")].map((o) => o.value)).toEqual(["equipment-failure-predictions", "pm-preds-b", "pm-preds-a"]);
    const topics = () => calls(fetch, "/api/v1/spark/predictions").map(([url]) => new URL(String(url), "http://x").searchParams.get("topic"));
    expect(new Set(topics())).toEqual(new Set(["pm-preds-b"]));

    fireEvent.change(select, { target: { value: "pm-preds-a" } });
    await waitFor(() => expect(topics()).toContain("pm-preds-a"));
    expect(screen.getByTestId("pm-predictions-topic")).toHaveValue("pm-preds-a");
  });

  it("takes the predictions topic from the URL", async () => {
    const fetch = setup({ latest: () => [FINISHED] });
    renderApp("/maintenance?cluster=local&topic=by-hand");
    await screen.findByTestId("pm-predictions");
    expect(screen.getByTestId("pm-predictions-topic")).toHaveValue("by-hand");
    const asked = calls(fetch, "/api/v1/spark/predictions").map(([url]) => new URL(String(url), "http://x").searchParams);
    expect(asked.map((q) => q.get("topic"))).toEqual(["by-hand"]);
  });

  it("flags a model no better than chance and does not present its predictions as usable", async () => {
    const chance: SparkModel = {
      ...MODELS[0]!,
      metrics: { roc_auc: 0.5123, pr_auc: 0.1, precision: 0.1, recall: 0.4, threshold: 0.5 },
      quality: "chance",
      quality_reason: "ROC AUC 0.512 is below 0.6: no better than chance",
    };
    setup({ latest: () => [FINISHED], models: () => [chance, { ...MODELS[1]!, quality: "usable", quality_reason: null }] });
    renderApp("/maintenance");
    const badge = await screen.findByTestId("pm-model-quality-51");
    expect(badge).toHaveTextContent("no better than chance: do not use");
    expect(badge).toHaveAttribute("data-tone", "error");
    expect(badge).toHaveAttribute("title", "ROC AUC 0.512 is below 0.6: no better than chance");
    expect(screen.getByTestId("pm-model-51")).toHaveClass("pm-model-unusable");
    // The run that trained it says so at its model step too.
    expect(screen.getByTestId("pm-step-model-warning")).toHaveTextContent("no better than chance: do not use");
    expect(screen.queryByTestId("pm-model-quality-38")).toBeNull();
    expect(screen.getByTestId("pm-model-warning")).toHaveTextContent(
      "Model #51: no better than chance: do not use. ROC AUC 0.512 is below 0.6: no better than chance.",
    );
    // A usable model chosen: no warning.
    fireEvent.click(screen.getByTestId("pm-model-select-38"));
    expect(screen.queryByTestId("pm-model-warning")).toBeNull();

    // Its predictions: not flagged red as "predicted to fail", and said to be unusable.
    await screen.findByTestId("pm-predictions");
    expect(screen.getByTestId("pm-predictions-unusable")).toHaveTextContent("Scored by model #51, which is no better than chance");
    expect(screen.getByTestId("pm-prediction-eq-0007")).toHaveAttribute("data-flagged", "false");
    expect(screen.getByTestId("pm-prediction-eq-0007")).toHaveAttribute("data-unusable", "true");
    expect(screen.getByTestId("pm-prediction-eq-0099")).toHaveAttribute("data-unusable", "false");
    // Nothing is in red, so no note says what red means.
    expect(screen.queryByText(/^In red:/)).toBeNull();
  });

  it("shows the chosen cluster's active model above the models, badged in its row", async () => {
    const fetch = setup({
      latest: () => [FINISHED],
      models: () => [USABLE[0]!, { ...USABLE[1]!, active: true }],
      active: () => json(activeState(USABLE[1]!, "Better recall on the pumps")),
    });
    renderApp("/maintenance");
    const summary = await screen.findByTestId("pm-active-model");
    expect(summary).toHaveAttribute("data-model", "38");
    expect(summary).toHaveTextContent(
      `Active on local: model 38 (rf, ROC AUC 0.701) — promoted by alice, ${localMinute("2026-07-02T08:15:00.000000Z")}: “Better recall on the pumps”`,
    );
    const asked = calls(fetch, "/api/v1/spark/models/active").map(([url]) => new URL(String(url), "http://x").searchParams.get("cluster"));
    expect(new Set(asked)).toEqual(new Set(["local"]));
    // Above the models table.
    const table = await screen.findByTestId("pm-models");
    expect(summary.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    const badge = within(screen.getByTestId("pm-model-38")).getByTestId("pm-model-active-38");
    expect(badge).toHaveTextContent(/^Active$/);
    expect(badge).toHaveAttribute("data-tone", "ok");
    expect(screen.queryByTestId("pm-model-active-51")).toBeNull();
    // Operators: the other usable model can be made active, not the active one.
    expect(await screen.findByTestId("pm-promote-51")).toHaveTextContent("Make active");
    expect(screen.queryByTestId("pm-promote-38")).toBeNull();

    // The active model's id shows its curves.
    fireEvent.click(within(summary).getByRole("button", { name: "model 38" }));
    expect(screen.getByTestId("pm-model-38")).toHaveAttribute("data-selected", "true");
    expect(screen.getByTestId("pm-roc-title")).toHaveTextContent("model #38");
  });

  it("says when the chosen cluster has no active model yet", async () => {
    setup({ latest: () => [FINISHED], models: () => USABLE });
    renderApp("/maintenance");
    const summary = await screen.findByTestId("pm-active-model");
    expect(summary).toHaveAttribute("data-model", "");
    expect(summary).toHaveTextContent(
      /^No active model on local yet: score jobs that name no model are refused\. Make a usable model active below\.$/,
    );
    await screen.findByTestId("pm-models");
    expect(screen.queryAllByTestId(/^pm-model-active-/)).toEqual([]);
    expect(await screen.findByTestId("pm-promote-51")).toBeEnabled();
    expect(screen.getByTestId("pm-promote-38")).toBeEnabled();
  });

  it("shows a banner when the active model cannot be loaded", async () => {
    setup({ latest: () => [FINISHED], active: () => apiError(503, "internal", "The database did not answer.") });
    renderApp("/maintenance");
    const section = await screen.findByTestId("pm-models-title-section");
    await waitFor(() =>
      expect(within(section).getByTestId("error-banner")).toHaveTextContent("Could not load the active model: The database did not answer."),
    );
    expect(screen.queryByTestId("pm-active-model")).toBeNull();
    // The models are shown all the same.
    expect(await screen.findByTestId("pm-models")).toHaveAttribute("data-rows", "2");
  });

  // 51 and 38 on local (38 active), 60 on local but no better than chance, 70 active and 71
  // usable on staging.
  const MIXED: SparkModel[] = [
    { ...USABLE[0]!, id: 71, job_id: 71, cluster: "staging" },
    { ...USABLE[0]!, id: 70, job_id: 70, cluster: "staging", active: true },
    { ...USABLE[0]!, id: 60, job_id: 60, quality: "chance", quality_reason: "ROC AUC 0.512 is below 0.6: no better than chance" },
    USABLE[0]!,
    { ...USABLE[1]!, active: true },
  ];

  it("offers operators to make active only the usable, not active models of the chosen cluster", async () => {
    const fetch = setup({
      latest: () => [FINISHED],
      models: () => MIXED,
      active: (cluster) => json(cluster === "local" ? activeState(MIXED[4]!, "") : activeState(MIXED[1]!, "staging's own")),
    });
    renderApp("/maintenance");
    await screen.findByTestId("pm-models");
    const promotable = () => screen.queryAllByTestId(/^pm-promote-\d+$/).map((b) => b.dataset.testid);
    await waitFor(() => expect(promotable()).toEqual(["pm-promote-51"]));
    expect(screen.getByTestId("pm-model-active-38")).toHaveTextContent(/^Active$/);
    // Another cluster's active model is said to be so, with its cluster.
    expect(screen.getByTestId("pm-model-active-70")).toHaveTextContent(/^Active on staging$/);
    // No reason given, none shown.
    await waitFor(() => expect(screen.getByTestId("pm-active-model")).toHaveAttribute("data-model", "38"));
    expect(screen.getByTestId("pm-active-model")).toHaveTextContent(/ — promoted by alice, [\d-]+ [\d:]+$/);

    // Another cluster chosen: its active model, and its usable models can be made active.
    fireEvent.change(screen.getByTestId("pm-predictions-cluster"), { target: { value: "staging" } });
    await waitFor(() => expect(screen.getByTestId("pm-active-model")).toHaveTextContent("Active on staging: model 70"));
    expect(calls(fetch, "/api/v1/spark/models/active").map(([url]) => new URL(String(url), "http://x").searchParams.get("cluster"))).toContain(
      "staging",
    );
    expect(promotable()).toEqual(["pm-promote-71"]);
    expect(screen.getByTestId("pm-model-active-38")).toHaveTextContent(/^Active on local$/);
    expect(screen.getByTestId("pm-model-active-70")).toHaveTextContent(/^Active$/);
  });

  it("offers viewers no promotion: they see which model is active", async () => {
    setup({ me: VIEWER, latest: () => [FINISHED], models: () => MIXED, active: () => json(activeState(MIXED[4]!, "Best so far")) });
    renderApp("/maintenance");
    await screen.findByTestId("pm-models");
    // The user is known (the form says viewers cannot run it).
    expect(await screen.findByTestId("operator-only")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId("pm-active-model")).toHaveTextContent("Active on local: model 38"));
    expect(screen.getByTestId("pm-model-active-38")).toHaveTextContent(/^Active$/);
    expect(screen.queryAllByTestId(/^pm-promote-/)).toEqual([]);
  });

  it("makes a usable model active with a reason, then shows the new active model", async () => {
    let models: SparkModel[] = USABLE.map((m) => ({ ...m, active: m.id === 38 }));
    let active = activeState(USABLE[1]!, "The first one");
    const fetch = setup({
      latest: () => [FINISHED],
      models: () => models,
      active: () => json(active),
      promote: (id, body) => {
        models = USABLE.map((m) => ({ ...m, active: m.id === id }));
        active = activeState(USABLE.find((m) => m.id === id)!, (body as { reason: string }).reason, "2026-07-03T09:00:00.000000Z");
        return json(active);
      },
    });
    // The promotion is answered once released: the dialog while it is posted.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = () => resolve();
    });
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === "POST") await held;
      return fetch(input, init);
    });
    renderApp("/maintenance");

    fireEvent.click(await screen.findByTestId("pm-model-select-38"));
    fireEvent.click(await screen.findByTestId("pm-promote-51"));
    const dialog = screen.getByTestId("confirm-dialog");
    expect(dialog).toHaveTextContent("Make model 51 active on local?");
    expect(dialog).toHaveTextContent("Score jobs on local that name no model will use model 51 (gbt, ROC AUC 0.873).");
    // The button does not choose its row.
    expect(screen.getByTestId("pm-model-38")).toHaveAttribute("data-selected", "true");
    const reason = screen.getByTestId("pm-promote-reason");
    expect(reason).toHaveFocus();
    expect(reason).toHaveAttribute("maxlength", "500");
    fireEvent.change(reason, { target: { value: "  Better precision on the new pumps " } });
    const confirm = screen.getByTestId("pm-promote-confirm");
    expect(confirm).toHaveTextContent(/^Make model 51 active$/);

    const modelCalls = calls(fetch, "/api/v1/spark/models").length;
    const activeCalls = calls(fetch, "/api/v1/spark/models/active").length;
    fireEvent.click(confirm);
    await waitFor(() => expect(screen.getByTestId("pm-promote-confirm")).toBeDisabled());
    expect(screen.getByTestId("pm-promote-reason")).toBeDisabled();
    release();
    await waitFor(() => expect(screen.queryByTestId("confirm-dialog")).toBeNull());

    const posts = calls(fetch, "/api/v1/spark/models/51/promote", "POST");
    expect(posts).toHaveLength(1);
    expect(JSON.parse(String(posts[0]![1]?.body))).toEqual({ reason: "Better precision on the new pumps" });
    // Asked again: the models (each one's `active` changed) and the active model.
    await waitFor(() => expect(calls(fetch, "/api/v1/spark/models").length).toBeGreaterThan(modelCalls));
    await waitFor(() => expect(calls(fetch, "/api/v1/spark/models/active").length).toBeGreaterThan(activeCalls));
    expect(screen.getByTestId("pm-active-model")).toHaveTextContent(
      `Active on local: model 51 (gbt, ROC AUC 0.873) — promoted by alice, ${localMinute("2026-07-03T09:00:00.000000Z")}: “Better precision on the new pumps”`,
    );
    await waitFor(() => expect(screen.getByTestId("pm-model-active-51")).toHaveTextContent("Active"));
    expect(screen.queryByTestId("pm-model-active-38")).toBeNull();
    expect(screen.queryByTestId("pm-promote-51")).toBeNull();
    // Back to the earlier model: a promotion of it.
    expect(screen.getByTestId("pm-promote-38")).toBeInTheDocument();
  });

  it("shows a refused promotion's message in the dialog, which stays open", async () => {
    const message = "Model 51 is already the active model of local.";
    const fetch = setup({ latest: () => [FINISHED], models: () => USABLE, promote: () => apiError(409, "already_active", message) });
    renderApp("/maintenance");
    fireEvent.click(await screen.findByTestId("pm-promote-51"));
    fireEvent.click(screen.getByTestId("pm-promote-confirm"));
    expect(await screen.findByTestId("pm-promote-error")).toHaveTextContent(message);
    expect(screen.getByTestId("confirm-dialog")).toBeInTheDocument();
    expect(screen.getByTestId("pm-promote-confirm")).toBeEnabled();
    // No reason typed: an empty one.
    expect(JSON.parse(String(calls(fetch, "/api/v1/spark/models/51/promote", "POST")[0]![1]?.body))).toEqual({ reason: "" });
    expect(screen.getByTestId("pm-active-model")).toHaveTextContent("No active model on local yet");
    // Cancel closes it; nothing changed.
    fireEvent.click(screen.getByTestId("confirm-dismiss"));
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
    expect(screen.getByTestId("pm-promote-51")).toBeInTheDocument();
  });
});

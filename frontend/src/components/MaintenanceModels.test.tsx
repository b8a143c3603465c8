import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it } from "vitest";
import type { ActiveModel, SparkModel } from "../api/maintenance";
import { noDays } from "../test/driftFixtures";
import { json, stubFetch } from "../test/fetchStub";
import { QueryWrapper } from "../test/queryClient";
import { notMeasured } from "../test/performanceFixtures";
import { ActiveModelSummary, rollBackTarget } from "./MaintenanceActiveModel";
import { type Challenge, challengeAuc } from "./MaintenanceChallenge";
import { MaintenanceModels, TOP_FEATURES, topImportances } from "./MaintenanceModels";

// 18 window features, as a real pipeline trains on (3 event codes x 3 windows x count/max...),
// given out of order: the chart sorts them and keeps the 15 most important.
const FEATURES = Array.from({ length: 18 }, (_, i) => ({
  feature: `count_e${101 + i}_overheat_${(i % 3) * 7 + 7}d`,
  importance: Number(((i + 1) / 171).toFixed(6)),
})).reverse();
FEATURES.push(FEATURES.shift()!); // the most important one last

const MODEL: SparkModel = {
  id: 51,
  job_id: 51,
  cluster: "local",
  created_at: "2026-07-01T14:03:40.000000Z",
  algorithm: "gbt",
  params: { algorithm: "gbt" },
  metrics: { roc_auc: 0.8734, pr_auc: 0.6121, precision: 0.7, recall: 0.64, threshold: 0.5 },
  path: "/data/models/51",
  roc_curve: { columns: ["fpr", "tpr"], rows: [[0, 0], [0.1, 0.6], [1, 1]] },
  feature_importances: FEATURES,
  active: false,
};

function renderModels(models: SparkModel[]) {
  // The chosen model's performance and drift are fetched beside its charts: never measured here.
  stubFetch({
    [`/api/v1/spark/models/${MODEL.id}/performance`]: json(notMeasured(MODEL.id)),
    [`/api/v1/spark/models/${MODEL.id}/drift`]: json(noDays(MODEL.id)),
  });
  return render(
    <QueryWrapper>
      <MemoryRouter>
        <MaintenanceModels models={models} selected={null} onSelect={() => {}} />
      </MemoryRouter>
    </QueryWrapper>,
  );
}

describe("MaintenanceModels' feature importances", () => {
  it("keeps the 15 most important features, largest first", () => {
    const top = topImportances(MODEL);
    expect(top).toHaveLength(TOP_FEATURES);
    expect(top[0]).toEqual({ feature: "count_e118_overheat_21d", importance: 0.105263 });
    expect(top.map((f) => f.importance)).toEqual([...top.map((f) => f.importance)].sort((a, b) => b - a));
    expect(top.map((f) => f.feature)).not.toContain("count_e101_overheat_7d");
    // An older server's model has none; a bad entry is left out.
    expect(topImportances({ ...MODEL, feature_importances: undefined })).toEqual([]);
    expect(topImportances({ ...MODEL, feature_importances: [{ feature: "a", importance: Number.NaN }, { feature: "b", importance: 0.5 }] })).toEqual([
      { feature: "b", importance: 0.5 },
    ]);
  });

  it("draws them as horizontal bars beside the ROC curve, the most important on top", async () => {
    renderModels([MODEL]);
    const card = screen.getByTestId("pm-importances");
    expect(card).toHaveAttribute("data-bars", "15");
    expect(screen.getByTestId("pm-importances-title")).toHaveTextContent("Feature importances · model #51 · top 15 of 18");
    expect(card).toHaveTextContent("most important: count_e118_overheat_21d (10.5 %)");
    await waitFor(() => expect(card.querySelectorAll(".recharts-bar-rectangle")).toHaveLength(15));
    // The feature names are the category axis' ticks, in the order of the bars (top down).
    // (recharts draws the tick labels apart from their axis: the value axis' ones are percentages.)
    const ticks = [...card.querySelectorAll("[data-tick]")].map((t) => t.getAttribute("data-tick")).filter((t) => !t?.endsWith("%"));
    expect(ticks).toEqual(topImportances(MODEL).map((f) => f.feature));
    // Horizontal: the bars are wider than tall.
    const bar = card.querySelector(".recharts-bar-rectangle path")!;
    expect(Number(bar.getAttribute("width"))).toBeGreaterThan(Number(bar.getAttribute("height")));
  });

  it("says so for a model without feature importances", () => {
    renderModels([{ ...MODEL, feature_importances: [] }]);
    const card = screen.getByTestId("pm-importances");
    expect(within(card).getByText("This model's result has no feature importances.")).toBeInTheDocument();
    expect(card.querySelector(".recharts-wrapper")).toBeNull();
  });
});

describe("MaintenanceModels' active model", () => {
  /** A model the server judged usable. */
  const usable = (id: number, overrides: Partial<SparkModel> = {}): SparkModel => ({
    ...MODEL,
    id,
    job_id: id,
    quality: "usable",
    quality_reason: null,
    ...overrides,
  });
  const MODELS = [
    usable(5),
    usable(4, { active: true }),
    usable(3, { quality: "unmeasured", quality_reason: "its test set had no positive" }),
    { ...MODEL, id: 2, job_id: 2 }, // an older server's: not judged, not offered
    usable(1, { cluster: "staging" }),
  ];

  function renderPromotable(canPromote: boolean) {
    stubFetch({ "/api/v1/spark/models/5/performance": json(notMeasured(5)), "/api/v1/spark/models/5/drift": json(noDays(5)) });
    return render(
      <QueryWrapper>
        <MemoryRouter>
          <MaintenanceModels models={MODELS} selected={null} onSelect={() => {}} cluster="local" canPromote={canPromote} />
        </MemoryRouter>
      </QueryWrapper>,
    );
  }

  const promotable = () => screen.queryAllByTestId(/^pm-promote-/).map((b) => b.dataset.testid);

  it("badges the active model and offers operators only the usable, not active models of the chosen cluster", () => {
    const { unmount } = renderPromotable(true);
    expect(promotable()).toEqual(["pm-promote-5"]);
    const badge = within(screen.getByTestId("pm-model-4")).getByTestId("pm-model-active-4");
    expect(badge).toHaveTextContent(/^Active$/);
    expect(badge).toHaveAttribute("data-tone", "ok");
    expect(screen.queryAllByTestId(/^pm-model-active-/)).toHaveLength(1);
    unmount();

    renderPromotable(false);
    expect(promotable()).toEqual([]);
    expect(screen.getByTestId("pm-model-active-4")).toBeInTheDocument();
  });

  it("asks for a reason in a dialog that Escape closes", () => {
    renderPromotable(true);
    fireEvent.click(screen.getByTestId("pm-promote-5"));
    expect(screen.getByTestId("confirm-dialog")).toHaveTextContent("Make model 5 active on local?");
    expect(screen.getByTestId("pm-promote-reason")).toHaveValue("");
    expect(screen.getByTestId("pm-promote-confirm")).toBeEnabled();
    expect(screen.getByTestId("pm-promote-confirm")).toHaveClass("button-primary");
    fireEvent.keyDown(document, { key: "Escape" });
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
  });
});

describe("ActiveModelSummary", () => {
  const NONE: ActiveModel = {
    cluster: "local",
    model: null,
    how: null,
    reason: null,
    promoted_by: null,
    promoted_at: null,
    history: [],
    scoring_schedule: null,
    performance_schedule: null,
    retrain_schedule: null,
  };

  it("leaves out what the answer does not say", () => {
    const state: ActiveModel = { ...NONE, model: { ...MODEL, algorithm: null, metrics: null, active: true }, how: "manual", reason: "" };
    render(<ActiveModelSummary state={state} canPromote onSelect={() => {}} />);
    expect(screen.getByTestId("pm-active-model")).toHaveTextContent(/^Active on local: model 51 — promoted$/);
  });

  it("names the daily scoring schedule, its timing and next run, or that it is disabled", () => {
    const schedule = {
      id: 3,
      job_type: "maintenance-score",
      cluster: "local",
      params: {},
      cron: "30 1 * * *",
      every_minutes: null,
      timezone: "UTC",
      enabled: true,
      next_run_at: "2026-07-03T01:30:00Z",
      last_job_id: null,
      created_by: "alice",
      created_at: "2026-07-02T08:15:00Z",
      updated_at: "2026-07-02T08:15:00Z",
    };
    const active = { ...MODEL, algorithm: null, metrics: null, active: true };
    const state: ActiveModel = { ...NONE, model: active, how: "manual", reason: "", scoring_schedule: schedule };
    const { unmount } = render(<ActiveModelSummary state={state} canPromote onSelect={() => {}} />);
    const text = screen.getByTestId("pm-scoring-schedule");
    expect(text).toHaveAttribute("data-schedule", "3");
    expect(text).toHaveTextContent(/^Scored with it by schedule 3 \(30 1 \* \* \* UTC\), next 2026-07-0[23] \d\d:\d\d\.$/);
    unmount();
    render(<ActiveModelSummary state={{ ...state, scoring_schedule: { ...schedule, enabled: false, next_run_at: null } }} canPromote onSelect={() => {}} />);
    expect(screen.getByTestId("pm-scoring-schedule")).toHaveTextContent(/, disabled\.$/);
  });

  it("says a retraining promoted it automatically, an operator's promotion as before", () => {
    const active = { ...MODEL, algorithm: null, metrics: null, active: true };
    const reason = "Promoted: ROC AUC 0.955 against model 50's 0.812, a gain of 0.143 (the margin is 0.01).";
    const state: ActiveModel = { ...NONE, model: active, how: "auto", reason, promoted_at: "2026-07-06T02:10:00Z" };
    const { unmount } = render(<ActiveModelSummary state={state} canPromote onSelect={() => {}} />);
    expect(screen.getByTestId("pm-active-model")).toHaveTextContent(
      /^Active on local: model 51 — promoted automatically, by a retraining, 2026-07-0[56] \d\d:\d\d: “Promoted: ROC AUC 0\.955 against model 50's 0\.812, a gain of 0\.143 \(the margin is 0\.01\)\.”$/,
    );
    unmount();
    render(<ActiveModelSummary state={{ ...state, how: "manual", promoted_by: "alice", reason: "" }} canPromote onSelect={() => {}} />);
    expect(screen.getByTestId("pm-active-model")).toHaveTextContent(/— promoted by alice, 2026-07-0[56] \d\d:\d\d$/);
    expect(screen.getByTestId("pm-active-model")).not.toHaveTextContent("automatically");
  });

  it("names the weekly retraining schedule after the other two, or nothing without one", () => {
    const schedule = {
      id: 5,
      job_type: "maintenance-retrain",
      cluster: "local",
      params: {},
      cron: "0 2 * * 1",
      every_minutes: null,
      timezone: "UTC",
      enabled: true,
      next_run_at: "2026-07-06T02:00:00Z",
      last_job_id: null,
      created_by: "alice",
      created_at: "2026-07-02T08:15:00Z",
      updated_at: "2026-07-02T08:15:00Z",
    };
    const active = { ...MODEL, algorithm: null, metrics: null, active: true };
    const state: ActiveModel = {
      ...NONE,
      model: active,
      how: "manual",
      reason: "",
      scoring_schedule: { ...schedule, id: 3, job_type: "maintenance-score", cron: "30 1 * * *" },
      performance_schedule: { ...schedule, id: 4, job_type: "model-performance", cron: "30 3 * * *" },
      retrain_schedule: schedule,
    };
    const { unmount } = render(<ActiveModelSummary state={state} canPromote onSelect={() => {}} />);
    const text = screen.getByTestId("pm-retrain-schedule");
    expect(text).toHaveAttribute("data-schedule", "5");
    expect(text).toHaveTextContent(/^A retraining challenges it by schedule 5 \(0 2 \* \* 1 UTC\), next 2026-07-0[56] \d\d:\d\d\.$/);
    expect(screen.getByTestId("pm-active-model")).toHaveTextContent(
      /Its performance is measured by schedule 4 \(30 3 \* \* \* UTC\), next [^.]+\. A retraining challenges it by schedule 5/,
    );
    unmount();

    const { unmount: unmount2 } = render(
      <ActiveModelSummary state={{ ...state, retrain_schedule: { ...schedule, enabled: false, next_run_at: null } }} canPromote onSelect={() => {}} />,
    );
    expect(screen.getByTestId("pm-retrain-schedule")).toHaveTextContent(/, disabled\.$/);
    unmount2();

    // None (not created, deleted, or an older server): nothing said, as for the other two.
    render(<ActiveModelSummary state={{ ...state, retrain_schedule: null }} canPromote onSelect={() => {}} />);
    expect(screen.queryByTestId("pm-retrain-schedule")).toBeNull();
    expect(screen.getByTestId("pm-scoring-schedule")).toBeInTheDocument();
    expect(screen.getByTestId("pm-performance-schedule")).toBeInTheDocument();
  });

  it("says that none is active, and who can make one active", () => {
    const { unmount } = render(<ActiveModelSummary state={NONE} canPromote onSelect={() => {}} />);
    expect(screen.getByTestId("pm-active-model")).toHaveTextContent(
      "No active model on local yet: score jobs that name no model are refused. Make a usable model active below.",
    );
    unmount();
    render(<ActiveModelSummary state={NONE} canPromote={false} onSelect={() => {}} />);
    expect(screen.getByTestId("pm-active-model")).toHaveTextContent(/Operators make a usable model active below\.$/);
  });
});

describe("MaintenanceModels' chosen model", () => {
  it("shows one performance and one drift card, of the chosen model, after another is chosen", async () => {
    const other: SparkModel = { ...MODEL, id: 52, job_id: 52 };
    stubFetch({
      [`/api/v1/spark/models/${MODEL.id}/performance`]: json(notMeasured(MODEL.id)),
      [`/api/v1/spark/models/${MODEL.id}/drift`]: json(noDays(MODEL.id)),
      [`/api/v1/spark/models/${other.id}/performance`]: json(notMeasured(other.id)),
      [`/api/v1/spark/models/${other.id}/drift`]: json(noDays(other.id)),
    });
    const view = (selected: number) => (
      <QueryWrapper>
        <MemoryRouter>
          <MaintenanceModels models={[MODEL, other]} selected={selected} onSelect={() => {}} />
        </MemoryRouter>
      </QueryWrapper>
    );
    const { rerender } = render(view(MODEL.id));
    await waitFor(() => expect(screen.getAllByTestId("pm-drift")).toHaveLength(1));
    rerender(view(other.id));
    await waitFor(() => expect(screen.getByTestId("pm-performance")).toHaveTextContent("#52"));
    expect(screen.getAllByTestId("pm-performance")).toHaveLength(1);
    expect(screen.getAllByTestId("pm-drift")).toHaveLength(1);
    expect(screen.getByTestId("pm-drift")).toHaveTextContent("#52");
  });
});

describe("MaintenanceModels' retraining challenges", () => {
  const challenge = (overrides: Partial<Challenge>): Challenge => ({
    champion_id: 57,
    cutoff_date: "2026-03-11",
    rows: 168,
    positives: 12,
    challenger_roc_auc: 0.812,
    champion_roc_auc: 0.955,
    margin: 0.01,
    verdict: "keep",
    promoted: false,
    reason:
      "Kept as a candidate: ROC AUC 0.812 against model 57's 0.955 on the 168 rows of the labelled days from 2026-03-11 (12 before a failure); it must beat the active model by 0.01.",
    ...overrides,
  });
  const PROMOTED_REASON =
    "Promoted: ROC AUC 0.955 against model 41's 0.812 on the 168 rows of the labelled days from 2026-03-04 (12 before a failure), a gain of 0.143 (the margin is 0.01).";
  const candidate: SparkModel = { ...MODEL, id: 58, job_id: 58, job_type: "maintenance-retrain", challenge: challenge({}) };
  const promoted: SparkModel = {
    ...MODEL,
    id: 57,
    job_id: 57,
    job_type: "maintenance-retrain",
    active: true,
    challenge: challenge({
      champion_id: 41,
      cutoff_date: "2026-03-04",
      challenger_roc_auc: 0.955,
      champion_roc_auc: 0.812,
      verdict: "promote",
      promoted: true,
      reason: PROMOTED_REASON,
    }),
  };
  const plain: SparkModel = { ...MODEL, challenge: null };
  const MODELS = [candidate, promoted, plain];

  function renderChallenges(selected: number | null) {
    const routes: Parameters<typeof stubFetch>[0] = {};
    for (const { id } of MODELS) {
      routes[`/api/v1/spark/models/${id}/performance`] = json(notMeasured(id));
      routes[`/api/v1/spark/models/${id}/drift`] = json(noDays(id));
    }
    stubFetch(routes);
    return render(
      <QueryWrapper>
        <MemoryRouter>
          <MaintenanceModels models={MODELS} selected={selected} onSelect={() => {}} cluster="local" />
        </MemoryRouter>
      </QueryWrapper>,
    );
  }

  it("badges a promoted and a candidate model in their rows, the reason the tooltip, the two AUCs beside", () => {
    renderChallenges(null);
    const badge57 = within(screen.getByTestId("pm-model-57")).getByTestId("model-challenge-57");
    expect(badge57).toHaveTextContent(/^promoted$/);
    expect(badge57).toHaveAttribute("data-promoted", "true");
    expect(badge57).toHaveAttribute("data-tone", "ok");
    expect(badge57).toHaveAttribute("title", PROMOTED_REASON);
    expect(screen.getByTestId("model-challenge-auc-57")).toHaveTextContent(/^AUC 0\.955 vs model 41's 0\.812$/);
    // Promoted then, and active now: both said.
    expect(screen.getByTestId("pm-model-active-57")).toBeInTheDocument();

    const badge58 = within(screen.getByTestId("pm-model-58")).getByTestId("model-challenge-58");
    expect(badge58).toHaveTextContent(/^candidate$/);
    expect(badge58).toHaveAttribute("data-promoted", "false");
    expect(badge58).toHaveAttribute("data-tone", "neutral");
    expect(badge58).toHaveAttribute("title", candidate.challenge!.reason);
    expect(screen.getByTestId("model-challenge-auc-58")).toHaveTextContent(/^AUC 0\.812 vs model 57's 0\.955$/);

    // A model no retraining made: no badge.
    expect(screen.queryAllByTestId(/^model-challenge-\d+$/).map((b) => b.dataset.testid)).toEqual(["model-challenge-58", "model-challenge-57"]);
  });

  it("shows the chosen model's reason above its curves, and none for a model no retraining made", () => {
    const { unmount } = renderChallenges(null); // the newest: the candidate
    expect(screen.getByTestId("pm-model-challenge")).toHaveAttribute("data-model", "58");
    expect(screen.getByTestId("model-challenge-reason-58")).toHaveTextContent(candidate.challenge!.reason);
    expect(screen.queryByTestId("model-challenge-reason-57")).toBeNull();
    unmount();

    const { unmount: unmount2 } = renderChallenges(57);
    expect(screen.getAllByTestId("pm-model-challenge")).toHaveLength(1);
    expect(screen.getByTestId("pm-model-challenge")).toHaveClass("notice-ok");
    expect(screen.getByTestId("model-challenge-reason-57")).toHaveTextContent(PROMOTED_REASON);
    unmount2();

    renderChallenges(plain.id);
    expect(screen.queryByTestId("pm-model-challenge")).toBeNull();
    expect(screen.queryAllByTestId(/^model-challenge-reason-/)).toHaveLength(0);
  });

  it("gives only the challenger's AUC when there was no active model to beat, or it was not measured", () => {
    expect(challengeAuc(challenge({ champion_id: null, champion_roc_auc: null }))).toBe("AUC 0.812");
    expect(challengeAuc(challenge({ champion_roc_auc: null }))).toBe("AUC 0.812");
    expect(challengeAuc(challenge({ challenger_roc_auc: null, champion_id: null, champion_roc_auc: null }))).toBe("AUC —");
  });
});

describe("ActiveModelSummary's roll back", () => {
  const promotion = (model_id: number, how: "manual" | "auto" = "manual") => ({
    model_id,
    how,
    reason: "",
    promoted_by: how === "manual" ? "alice" : null,
    promoted_at: "2026-07-06T02:10:00Z",
  });
  const active: SparkModel = { ...MODEL, id: 52, job_id: 52, active: true, quality: "usable" };
  const earlier: SparkModel = { ...MODEL, id: 51, quality: "usable" };
  const STATE: ActiveModel = {
    cluster: "local",
    model: active,
    how: "auto",
    reason: "Promoted: ROC AUC 0.955 against model 51's 0.812.",
    promoted_by: null,
    promoted_at: "2026-07-06T02:10:00Z",
    history: [promotion(52, "auto"), promotion(51), promotion(52)],
    scoring_schedule: null,
    performance_schedule: null,
    retrain_schedule: null,
  };

  it("offers the model active before, when it is listed, usable and on this cluster", () => {
    expect(rollBackTarget(STATE, [active, earlier])?.id).toBe(51);
    expect(rollBackTarget(STATE, [active])).toBeNull(); // not listed
    expect(rollBackTarget(STATE, [active, { ...earlier, quality: "chance" }])).toBeNull();
    expect(rollBackTarget(STATE, [active, { ...earlier, cluster: "other" }])).toBeNull();
    expect(rollBackTarget({ ...STATE, history: [promotion(52)] }, [active, earlier])).toBeNull();
  });

  it("makes it active again through the promotion dialog; viewers see no button", async () => {
    const back: ActiveModel = { ...STATE, model: { ...earlier, active: true }, how: "manual", history: [promotion(51), ...STATE.history] };
    const fetch = stubFetch({ "/api/v1/spark/models/51/promote": json(back) });
    const promoted: ActiveModel[] = [];
    const { unmount } = render(
      <QueryWrapper>
        <ActiveModelSummary state={STATE} canPromote onSelect={() => {}} models={[active, earlier]} onPromoted={(s) => promoted.push(s)} />
      </QueryWrapper>,
    );
    const button = screen.getByTestId("pm-rollback");
    expect(button).toHaveTextContent("Roll back to model 51");
    fireEvent.click(button);
    expect(screen.getByTestId("confirm-dialog")).toHaveTextContent("Make model 51 active on local?");
    fireEvent.change(screen.getByTestId("pm-promote-reason"), { target: { value: "the new one floods the crews" } });
    fireEvent.click(screen.getByTestId("pm-promote-confirm"));
    await waitFor(() => expect(promoted).toHaveLength(1));
    expect(promoted[0]?.model?.id).toBe(51);
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(String(url)).toContain("/api/v1/spark/models/51/promote");
    expect(JSON.parse(String(init?.body))).toEqual({ reason: "the new one floods the crews" });
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
    unmount();

    render(
      <QueryWrapper>
        <ActiveModelSummary state={STATE} canPromote={false} onSelect={() => {}} models={[active, earlier]} />
      </QueryWrapper>,
    );
    expect(screen.queryByTestId("pm-rollback")).toBeNull();
  });
});

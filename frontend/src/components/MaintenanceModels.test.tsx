import { render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it } from "vitest";
import type { SparkModel } from "../api/maintenance";
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
};

function renderModels(models: SparkModel[]) {
  return render(
    <MemoryRouter>
      <MaintenanceModels models={models} selected={null} onSelect={() => {}} />
    </MemoryRouter>,
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

import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it } from "vitest";
import type { ModelDrift } from "../api/maintenance";
import { queryKeys } from "../api/queryKeys";
import { refetchNow } from "../api/queryClient";
import { driftDay, driftFeature, DRIFTED, noDays, noReference } from "../test/driftFixtures";
import { apiError, json, stubFetch } from "../test/fetchStub";
import { createTestQueryClient, QueryWrapper } from "../test/queryClient";
import { sparkModel } from "../test/sparkFixtures";
import { DRIFT_TOP_FEATURES, flaggedText, MaintenanceDrift, referenceText } from "./MaintenanceDrift";

const MODEL = sparkModel({ created_at: "2026-04-20T14:03:40.000000Z" });

const DRIFT_PATH = "/api/v1/spark/models/51/drift";

function renderDrift(client = createTestQueryClient()) {
  render(
    <QueryWrapper client={client}>
      <MemoryRouter>
        <MaintenanceDrift model={MODEL} />
      </MemoryRouter>
    </QueryWrapper>,
  );
  return client;
}

const driftCalls = (fetch: ReturnType<typeof stubFetch>) =>
  fetch.mock.calls.filter(([url, init]) => String(url).split("?")[0] === DRIFT_PATH && (init?.method ?? "GET") === "GET");

/** The table's feature names, top to bottom. */
const featureNames = (table: HTMLElement) =>
  within(table)
    .getAllByRole("row")
    .slice(1)
    .map((row) => row.querySelector("td")?.textContent);

describe("MaintenanceDrift", () => {
  it("draws the largest PSI per day with the drifted days marked, and the newest day's features by PSI", async () => {
    const fetch = stubFetch({ [DRIFT_PATH]: json(DRIFTED) });
    renderDrift();

    const table = await screen.findByTestId("pm-drift-latest");
    const card = screen.getByTestId("pm-drift");
    expect(card).toHaveAttribute("data-days", "3");
    expect(card).toHaveTextContent("Feature drift · model #51");
    expect(card).toHaveTextContent(
      "Population-stability index of each feature on the scored days against the model's reference (its test days); above the bar, the day's machines no longer look like the ones the model learned from.",
    );
    expect(screen.getByTestId("pm-drift-reference")).toHaveTextContent("reference: test days, 320 rows");
    expect(driftCalls(fetch)).toHaveLength(1);

    // The chart: one point per day, the threshold drawn, the two days with a drifted feature red.
    const chart = screen.getByTestId("pm-drift-chart");
    expect(chart).toHaveAttribute("data-points", "3");
    expect(chart).toHaveTextContent("dashed: the 0.25 threshold");
    await waitFor(() => expect(chart.querySelectorAll(".pm-drift-dot")).toHaveLength(3));
    const drifted = [...chart.querySelectorAll(".pm-drift-dot-drifted")].map((dot) => dot.getAttribute("data-day"));
    expect(drifted).toEqual(["2026-04-28", "2026-04-29"]);
    expect(chart.querySelector(".recharts-reference-line")).not.toBeNull();

    // The newest day's table: the top 10 by PSI (the answer listed them out of order).
    expect(screen.getByText("Newest scored day 2026-04-29")).toBeInTheDocument();
    expect(table).toHaveAttribute("data-rows", String(DRIFT_TOP_FEATURES));
    expect(featureNames(table)).toEqual([
      "max_temperature_7d",
      "vibration_rms_3d",
      "alarm_count_1d",
      "alarm_count_7d",
      "pressure_mean_7d",
      "pressure_max_7d",
      "runtime_hours_7d",
      "count_e205_leak_7d",
      "count_e301_power_7d",
      "days_since_service",
    ]);
    const top = screen.getByTestId("pm-drift-row-max_temperature_7d");
    expect(top).toHaveAttribute("data-drifted", "true");
    expect(top).toHaveTextContent("0.410");
    expect(within(top).getByText("drifted")).toHaveClass("badge-error");
    // Above the 0.25 threshold but not above its own (small fleet's) bar: not drifted.
    const under = screen.getByTestId("pm-drift-row-vibration_rms_3d");
    expect(under).toHaveAttribute("data-drifted", "false");
    expect(under).toHaveTextContent("0.300");
    expect(within(under).queryByText("drifted")).toBeNull();
    expect(within(table).getAllByText("drifted")).toHaveLength(1);
    // The two smallest wait for "Show all".
    expect(screen.queryByTestId("pm-drift-row-age_days")).toBeNull();
    expect(screen.queryByTestId("pm-drift-row-count_e101_overheat_7d")).toBeNull();
  });

  it("names the newest day's drifted features, and says nothing when that day did not drift", async () => {
    stubFetch({ [DRIFT_PATH]: json(DRIFTED) });
    renderDrift();
    expect(await screen.findByTestId("pm-drift-flagged")).toHaveTextContent("1 feature drifted on 2026-04-29: max_temperature_7d");

    const two = driftDay("2026-04-30", [driftFeature("a_7d", 0.5), driftFeature("b_7d", 0.3), driftFeature("c_7d", 0.1)]);
    expect(flaggedText(two)).toBe("2 features drifted on 2026-04-30: a_7d, b_7d");
    expect(flaggedText(driftDay("2026-04-30", [driftFeature("c_7d", 0.1)]))).toBeNull();
    expect(referenceText({ part: "train", rows: 1 })).toBe("reference: training days, 1 row");
  });

  it("shows no summary when only an older day drifted (its dot is still red)", async () => {
    const calm: ModelDrift = { ...DRIFTED, days: [...DRIFTED.days.slice(0, 2), driftDay("2026-04-29", [driftFeature("max_temperature_7d", 0.04)])] };
    stubFetch({ [DRIFT_PATH]: json(calm) });
    renderDrift();
    const row = await screen.findByTestId("pm-drift-row-max_temperature_7d");
    expect(row).toHaveAttribute("data-drifted", "false");
    expect(screen.queryByTestId("pm-drift-flagged")).toBeNull();
    expect(screen.queryByTestId("pm-drift-show-all")).toBeNull();
    const chart = screen.getByTestId("pm-drift-chart");
    await waitFor(() => expect(chart.querySelectorAll(".pm-drift-dot")).toHaveLength(3));
    expect([...chart.querySelectorAll(".pm-drift-dot-drifted")].map((dot) => dot.getAttribute("data-day"))).toEqual(["2026-04-28"]);
  });

  it("shows every feature on Show all, and the top ones again after", async () => {
    stubFetch({ [DRIFT_PATH]: json(DRIFTED) });
    renderDrift();
    const toggle = await screen.findByTestId("pm-drift-show-all");
    expect(toggle).toHaveTextContent("Show all 12 features");
    expect(toggle).toHaveAttribute("aria-expanded", "false");

    fireEvent.click(toggle);
    const table = screen.getByTestId("pm-drift-latest");
    expect(table).toHaveAttribute("data-rows", "12");
    expect(featureNames(table).slice(-2)).toEqual(["count_e101_overheat_7d", "age_days"]);
    expect(screen.getByTestId("pm-drift-row-age_days")).toHaveAttribute("data-drifted", "false");
    expect(toggle).toHaveTextContent("Show the top 10");
    expect(toggle).toHaveAttribute("aria-expanded", "true");

    fireEvent.click(toggle);
    expect(table).toHaveAttribute("data-rows", "10");
    expect(screen.queryByTestId("pm-drift-row-age_days")).toBeNull();
  });

  it("says a model trained before drift was measured has no reference", async () => {
    stubFetch({ [DRIFT_PATH]: json(noReference(51)) });
    renderDrift();
    expect(await screen.findByTestId("pm-drift-none")).toHaveTextContent(
      "This model was trained before drift was measured: retrain to get a reference.",
    );
    expect(screen.getByTestId("pm-drift")).toHaveAttribute("data-days", "0");
    expect(screen.queryByTestId("pm-drift-reference")).toBeNull();
    expect(screen.queryByTestId("pm-drift-chart")).toBeNull();
    expect(screen.queryByTestId("pm-drift-empty")).toBeNull();
  });

  it("says no day was scored yet, with the reference", async () => {
    stubFetch({ [DRIFT_PATH]: json(noDays(51)) });
    renderDrift();
    expect(await screen.findByTestId("pm-drift-empty")).toHaveTextContent(/^No scored day yet/);
    expect(screen.getByTestId("pm-drift-reference")).toHaveTextContent("reference: test days, 320 rows");
    expect(screen.queryByTestId("pm-drift-none")).toBeNull();
    expect(screen.queryByTestId("pm-drift-chart")).toBeNull();
    expect(screen.queryByTestId("pm-drift-latest")).toBeNull();
  });

  it("shows an error in the banner, and is asked again with the models (a run that succeeded)", async () => {
    let fail = true;
    const fetch = stubFetch({ [DRIFT_PATH]: () => (fail ? apiError(404, "model_not_found", "No model 51.") : json(DRIFTED)) });
    const client = renderDrift();
    const banner = await screen.findByTestId("error-banner");
    expect(banner).toHaveTextContent("Could not load the model's drift: No model 51.");
    expect(screen.queryByTestId("pm-drift-chart")).toBeNull();

    fail = false;
    const before = driftCalls(fetch).length;
    await act(() => refetchNow(client, queryKeys.sparkModels()));
    expect(await screen.findByTestId("pm-drift-latest")).toBeInTheDocument();
    expect(driftCalls(fetch).length).toBeGreaterThan(before);
    expect(screen.queryByTestId("error-banner")).toBeNull();
  });
});

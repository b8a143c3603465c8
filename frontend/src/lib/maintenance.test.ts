import { describe, expect, it } from "vitest";
import { SPARK_JOB_TYPES } from "../test/sparkFixtures";
import { backfillCommand, pipelineTopics, predictionsTopicChoices, runPredictionsTopic } from "./maintenance";

const PIPELINE = SPARK_JOB_TYPES.find((t) => t.name === "maintenance-pipeline");
const DEFAULTS = { alarms: "equipment-alarms", workOrders: "work-orders", predictions: "equipment-failure-predictions" };

describe("the maintenance page's topics", () => {
  it("takes the pipeline's default topics from its job type's schema", () => {
    expect(pipelineTopics(PIPELINE)).toEqual(DEFAULTS);
    expect(pipelineTopics(undefined)).toEqual(DEFAULTS);
  });

  it("names only what differs from the backfill command's defaults", () => {
    expect(backfillCommand("local", DEFAULTS)).toBe(".venv/bin/python manage.py demotraffic --backfill");
    expect(backfillCommand("prod", { ...DEFAULTS, workOrders: "wo" })).toBe(
      ".venv/bin/python manage.py demotraffic --backfill --cluster prod --work-orders-topic wo",
    );
  });

  it("offers the default topic, those the cluster's runs wrote and the asked one, each once", () => {
    const runs = [
      { cluster: "local", params: { score: { predictions_topic: "b" } } },
      { cluster: "other", params: { score: { predictions_topic: "x" } } },
      { cluster: "local", params: {} }, // an older run: the default
      { cluster: "local", params: { score: { predictions_topic: "a" } } },
    ];
    expect(runPredictionsTopic(runs[0], "d")).toBe("b");
    expect(runPredictionsTopic(null, "d")).toBe("d");
    expect(predictionsTopicChoices(runs, "local", "d", "hand")).toEqual(["d", "b", "a", "hand"]);
    expect(predictionsTopicChoices(runs, "local", "d", "b")).toEqual(["d", "b", "a"]);
  });
});

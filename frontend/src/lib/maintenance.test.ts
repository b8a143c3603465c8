import { describe, expect, it } from "vitest";
import { SPARK_JOB_TYPES } from "../test/sparkFixtures";
import {
  alarmText,
  backfillCommand,
  equipmentFilter,
  formatDriverValue,
  pipelineTopics,
  predictionsTopicChoices,
  runAlarmsTopic,
  runPredictionsTopic,
} from "./maintenance";

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

  it("finds the alarms topic behind a predictions topic in the newest run on the cluster that wrote it", () => {
    const run = (cluster: string, alarms: string | undefined, predictions: string) => ({
      cluster,
      params: { features: alarms ? { alarms_topic: alarms } : {}, score: { predictions_topic: predictions } },
    });
    const runs = [run("local", "alarms-new", "preds-b"), run("local", "alarms-old", "preds-b"), run("prod", "alarms-p", "preds-a")];
    expect(runAlarmsTopic(runs, "local", "preds-b", DEFAULTS)).toBe("alarms-new");
    // Written by a run on another cluster only, or by none: the default.
    expect(runAlarmsTopic(runs, "local", "preds-a", DEFAULTS)).toBe("equipment-alarms");
    expect(runAlarmsTopic([run("local", undefined, "preds-c")], "local", "preds-c", DEFAULTS)).toBe("equipment-alarms");
  });
});

describe("why an equipment scored as it did", () => {
  it("filters the messages browser by the equipment's key, quotes escaped", () => {
    expect(equipmentFilter("eq-0007")).toBe('key == "eq-0007"');
    expect(equipmentFilter('pump "A"\\1')).toBe('key == "pump \\"A\\"\\\\1"');
  });

  it("shows drivers' values and alarm counts briefly", () => {
    expect(formatDriverValue(9)).toBe("9");
    expect(formatDriverValue(1.93456)).toBe("1.93");
    expect(formatDriverValue(12345.5)).toBe("12345.5");
    expect(alarmText({ fault_code: "E303-VIBRATION", count: 4, days: 7 })).toBe("E303-VIBRATION ×4 (7d)");
  });
});

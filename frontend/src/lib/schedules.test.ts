import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import { SPARK_JOB_TYPES } from "../test/sparkFixtures";
import {
  checkSchedule,
  everyWords,
  newScheduleValues,
  paramPairs,
  placeScheduleErrors,
  relativeWords,
  scheduleBody,
  timingWords,
} from "./schedules";
import { formSchema } from "./sparkForm";

const profile = formSchema(SPARK_JOB_TYPES.find((t) => t.name === "topic-profile")!.params_schema);

describe("schedules", () => {
  it("says a timing in words", () => {
    expect(timingWords({ cron: "30 1 * * *", every_minutes: null, timezone: "Europe/Paris" })).toBe("cron 30 1 * * * (Europe/Paris)");
    expect([1, 15, 60, 90, 360, 1440, 2880, 1501].map(everyWords)).toEqual([
      "every minute",
      "every 15 min",
      "every hour",
      "every 1 h 30 min",
      "every 6 h",
      "every day",
      "every 2 d",
      "every 1 d 1 h 1 min",
    ]);
    expect(timingWords({ cron: null, every_minutes: 360, timezone: "UTC" })).toBe("every 6 h");
    const now = Date.parse("2026-07-02T22:30:00Z");
    expect(relativeWords("2026-07-03T01:30:00Z", now)).toBe("in 3 h");
    expect(relativeWords("2026-07-02T22:00:00Z", now)).toBe("30 min ago");
    expect(relativeWords("not a date", now)).toBeNull();
  });

  it("writes params as name=value, null as the default", () => {
    expect(paramPairs({ topic: "orders", partitions: [0, 2], start_offset: null })).toEqual([
      "topic=orders",
      "partitions=0, 2",
      "start_offset=default",
    ]);
    expect(paramPairs(null)).toEqual([]);
  });

  it("checks the timing before sending, and sends exactly one of cron and every_minutes", () => {
    const values = newScheduleValues("topic-profile", "local");
    expect(checkSchedule(values).cron).toEqual(["Give a cron expression, e.g. 30 1 * * *."]);
    expect(checkSchedule({ ...values, cron: "30 1 * *" }).cron).toEqual(["Give five fields: minute hour day month weekday."]);
    expect(checkSchedule({ ...values, cron: "30 1 * * *" })).toEqual({});
    expect(checkSchedule({ ...values, cron: "30 1 * * *", timezone: " " }).timezone).toHaveLength(1);
    const every = { ...values, mode: "every" as const };
    for (const bad of ["", "0", "1.5", "527041", "x"]) {
      expect(checkSchedule({ ...every, every: bad }).every_minutes, bad).toHaveLength(1);
    }
    expect(checkSchedule({ ...every, every: "527040" })).toEqual({});
    expect(checkSchedule({ ...values, jobType: "", cluster: "" })).toMatchObject({ job_type: [expect.any(String)], cluster: [expect.any(String)] });

    expect(scheduleBody({ ...values, cron: " 30  1 * * * ", every: "15" }, { topic: "orders" })).toEqual({
      job_type: "topic-profile",
      cluster: "local",
      params: { topic: "orders" },
      cron: "30 1 * * *",
      every_minutes: null,
      timezone: "UTC",
      enabled: true,
    });
    expect(scheduleBody({ ...every, cron: "30 1 * * *", every: "15", enabled: false }, {})).toMatchObject({
      cron: null,
      every_minutes: 15,
      enabled: false,
    });
  });

  it("places a refusal's problems beside the fields they name, the rest in the banner", () => {
    const bad = (field: string, message: string, status = 400) => new ApiError(status, "invalid", message, { field });
    expect(placeScheduleErrors(bad("cron", "cron: give a cron expression such as 0 3 * * *."), profile)).toEqual({
      fields: { cron: ["Give a cron expression such as 0 3 * * *."] },
      params: [],
      banner: null,
    });
    expect(placeScheduleErrors(bad("every_minutes", "every_minutes: give a whole number of minutes."), profile).fields).toEqual({
      every_minutes: ["Give a whole number of minutes."],
    });
    expect(placeScheduleErrors(bad("params.topic", "params.topic: topic 'x' does not exist."), profile).params).toEqual([
      { path: ["topic"], message: "Topic 'x' does not exist." },
    ]);
    // An unknown param and any answer but a 400 go to the banner.
    const unknown = placeScheduleErrors(bad("params.nope", "params.nope: not allowed."), profile);
    expect(unknown.params).toEqual([]);
    expect(unknown.banner?.message).toBe("Not allowed.");
    expect(placeScheduleErrors(new ApiError(403, "forbidden", "Operators only."), profile).banner?.message).toBe("Operators only.");
    // Several problems at once: each at its place.
    const several = new ApiError(400, "invalid", "…", {
      field: "cron",
      errors: { cron: "cron: bad.", timezone: "timezone: give an IANA time zone name, e.g. Europe/Paris.", "params.top_duplicates": "too many." },
    });
    expect(placeScheduleErrors(several, profile)).toEqual({
      fields: { cron: ["Bad."], timezone: ["Give an IANA time zone name, e.g. Europe/Paris."] },
      params: [{ path: ["top_duplicates"], message: "Too many." }],
      banner: null,
    });
  });
});

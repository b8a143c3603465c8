import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { json, stubFetch } from "../../test/fetchStub";
import { CLUSTERS } from "../../test/fixtures";
import { hourCycle } from "../../test/locale";
import { SPARK_JOB_TYPES, sparkJob } from "../../test/sparkFixtures";
import { SparkJobForm } from "./SparkJobForm";

const replay = SPARK_JOB_TYPES.find((t) => t.name === "topic-replay")!;

/** The topic-replay form on cluster "local" (topics offered: `topics`); returns its onSubmitted mock. */
function renderForm(checkInBrowser: boolean, topics = ["orders"]) {
  const onSubmitted = vi.fn();
  render(
    <SparkJobForm
      jobType={replay}
      clusters={CLUSTERS}
      cluster="local"
      onClusterChange={() => {}}
      topics={topics}
      canSubmit
      onSubmitted={onSubmitted}
      checkInBrowser={checkInBrowser}
    />,
  );
  return onSubmitted;
}

/** Types the replay's source and target topics. */
function fillTopics(topic: string, target: string) {
  fireEvent.change(screen.getByTestId("param-topic"), { target: { value: topic } });
  fireEvent.change(screen.getByTestId("param-target_topic"), { target: { value: target } });
}

const submit = () => fireEvent.click(screen.getByTestId("spark-submit"));

/** The job submit endpoint answering 201 with a queued job #9. */
function stubQueued() {
  return stubFetch({ "/api/v1/spark/jobs": json(sparkJob({ id: 9, state: "queued" }), 201) });
}

/** The body of the first request `fetch` was called with. */
function postedBody(fetch: ReturnType<typeof stubFetch>): { params: Record<string, unknown> } {
  return JSON.parse(String(fetch.mock.calls[0]?.[1]?.body)) as { params: Record<string, unknown> };
}

const postedParams = (fetch: ReturnType<typeof stubFetch>) => postedBody(fetch).params;

describe("SparkJobForm without browser-side checks (the production CSP)", () => {
  it("sends what was typed and shows the server's 400 next to the field it names", async () => {
    const fetch = stubFetch({
      "/api/v1/spark/jobs": json(
        {
          error: {
            code: "invalid",
            message: "params.target_topic: a replay cannot write into the topic it reads.",
            details: { field: "params.target_topic" },
          },
        },
        400,
      ),
    });
    const onSubmitted = renderForm(false);
    fillTopics("orders", "orders");
    submit();

    expect(await screen.findByTestId("field-error-target_topic")).toHaveTextContent("cannot write into the topic it reads");
    expect(screen.queryByTestId("field-error-topic")).toBeNull();
    expect(postedBody(fetch)).toEqual({
      job_type: "topic-replay",
      cluster: "local",
      params: { topic: "orders", target_topic: "orders", preserve_partitions: true },
    });
    expect(onSubmitted).not.toHaveBeenCalled();
  });

  it("hands the queued job over on 201", async () => {
    stubQueued();
    const onSubmitted = renderForm(false, []);
    fillTopics("a", "b");
    submit();
    await waitFor(() => expect(onSubmitted).toHaveBeenCalledWith(expect.objectContaining({ id: 9 })));
  });

  it("shows every problem at once beside its field, in plain words, before sending anything", async () => {
    const fetch = stubFetch({ "/api/v1/spark/jobs": json(sparkJob(), 201) });
    renderForm(false);
    fireEvent.change(screen.getByTestId("param-topic"), { target: { value: "bad name!" } });
    submit();
    expect(await screen.findByTestId("field-error-topic")).toHaveTextContent("Use only letters, digits, “.”, “_” and “-”.");
    expect(screen.getByTestId("field-error-target_topic")).toHaveTextContent(/^Required\.$/);
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe("SparkJobForm date-time params", () => {
  /** The replay form, its topics typed, in a locale with the `cycle` clock: the stubbed submit and the start time. */
  function renderWithClock(cycle: "h12" | "h23") {
    hourCycle(cycle);
    const fetch = stubQueued();
    renderForm(false);
    fillTopics("orders", "copy");
    return { fetch, start: screen.getByTestId("param-start_time") };
  }

  it("reads a time typed in the zone shown beside it (UTC by default) and sends it with the offset", async () => {
    const { fetch, start } = renderWithClock("h23");
    expect(start).toHaveAttribute("placeholder", "YYYY-MM-DD HH:mm:ss");
    expect(screen.getByTestId("param-start_time-zone")).toHaveValue("UTC");
    fireEvent.change(start, { target: { value: "2026-11-21 14:03" } });
    expect(screen.getByTestId("param-start_time-sends")).toHaveTextContent("Sends 2026-11-21T14:03:00.000Z = 2026-11-21 14:03:00.000 UTC");
    // A value that names its zone is sent as written.
    fireEvent.change(screen.getByTestId("param-end_time"), { target: { value: "2026-11-21T16:00:00+01:00" } });
    expect(screen.getByTestId("param-end_time-zone")).toBeDisabled();
    expect(screen.getByTestId("param-end_time-zone")).toHaveDisplayValue("zone as written");
    submit();
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(postedParams(fetch)).toMatchObject({ start_time: "2026-11-21T14:03:00.000Z", end_time: "2026-11-21T16:00:00+01:00" });
  });

  it("writes 12-hour times where the locale asks for them, and reads them", async () => {
    const { fetch, start } = renderWithClock("h12");
    expect(start).toHaveAttribute("placeholder", "YYYY-MM-DD hh:mm:ss AM");
    fireEvent.change(start, { target: { value: "2026-11-21 2:03 PM" } });
    expect(screen.getByTestId("param-start_time-sends")).toHaveTextContent("= 2026-11-21 2:03:00.000 PM UTC");
    submit();
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(postedParams(fetch)).toMatchObject({ start_time: "2026-11-21T14:03:00.000Z" });
  });
});

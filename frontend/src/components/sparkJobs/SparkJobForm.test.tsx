import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { json, stubFetch } from "../../test/fetchStub";
import { CLUSTERS } from "../../test/fixtures";
import { SPARK_JOB_TYPES, sparkJob } from "../../test/sparkFixtures";
import { SparkJobForm } from "./SparkJobForm";

const replay = SPARK_JOB_TYPES.find((t) => t.name === "topic-replay")!;

function renderForm(checkInBrowser: boolean, onSubmitted = vi.fn()) {
  render(
    <SparkJobForm
      jobType={replay}
      clusters={CLUSTERS}
      cluster="local"
      onClusterChange={() => {}}
      topics={["orders"]}
      canSubmit
      onSubmitted={onSubmitted}
      checkInBrowser={checkInBrowser}
    />,
  );
  return onSubmitted;
}

/** This browser's locale asks for a 24-hour (h23) or 12-hour (h12) clock. */
function hourCycle(cycle: "h12" | "h23") {
  const resolved = Intl.DateTimeFormat.prototype.resolvedOptions;
  vi.spyOn(Intl.DateTimeFormat.prototype, "resolvedOptions").mockImplementation(function (this: Intl.DateTimeFormat) {
    return { ...resolved.call(this), hourCycle: cycle };
  });
}

function postedParams(fetch: ReturnType<typeof stubFetch>): Record<string, unknown> {
  return (JSON.parse(String(fetch.mock.calls[0]?.[1]?.body)) as { params: Record<string, unknown> }).params;
}

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
    const onSubmitted = vi.fn();
    render(
      <SparkJobForm
        jobType={replay}
        clusters={CLUSTERS}
        cluster="local"
        onClusterChange={() => {}}
        topics={["orders"]}
        canSubmit
        onSubmitted={onSubmitted}
        checkInBrowser={false}
      />,
    );
    fireEvent.change(screen.getByTestId("param-topic"), { target: { value: "orders" } });
    fireEvent.change(screen.getByTestId("param-target_topic"), { target: { value: "orders" } });
    fireEvent.click(screen.getByTestId("spark-submit"));

    expect(await screen.findByTestId("field-error-target_topic")).toHaveTextContent("cannot write into the topic it reads");
    expect(screen.queryByTestId("field-error-topic")).toBeNull();
    const body = JSON.parse(String(fetch.mock.calls[0]?.[1]?.body)) as unknown;
    expect(body).toEqual({
      job_type: "topic-replay",
      cluster: "local",
      params: { topic: "orders", target_topic: "orders", preserve_partitions: true },
    });
    expect(onSubmitted).not.toHaveBeenCalled();
  });

  it("hands the queued job over on 201", async () => {
    stubFetch({ "/api/v1/spark/jobs": json(sparkJob({ id: 9, state: "queued" }), 201) });
    const onSubmitted = vi.fn();
    render(
      <SparkJobForm
        jobType={replay}
        clusters={CLUSTERS}
        cluster="local"
        onClusterChange={() => {}}
        topics={[]}
        canSubmit
        onSubmitted={onSubmitted}
        checkInBrowser={false}
      />,
    );
    fireEvent.change(screen.getByTestId("param-topic"), { target: { value: "a" } });
    fireEvent.change(screen.getByTestId("param-target_topic"), { target: { value: "b" } });
    fireEvent.click(screen.getByTestId("spark-submit"));
    await waitFor(() => expect(onSubmitted).toHaveBeenCalledWith(expect.objectContaining({ id: 9 })));
  });

  it("shows every problem at once beside its field, in plain words, before sending anything", async () => {
    const fetch = stubFetch({ "/api/v1/spark/jobs": json(sparkJob(), 201) });
    renderForm(false);
    fireEvent.change(screen.getByTestId("param-topic"), { target: { value: "bad name!" } });
    fireEvent.click(screen.getByTestId("spark-submit"));
    expect(await screen.findByTestId("field-error-topic")).toHaveTextContent("Use only letters, digits, “.”, “_” and “-”.");
    expect(screen.getByTestId("field-error-target_topic")).toHaveTextContent(/^Required\.$/);
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe("SparkJobForm date-time params", () => {
  it("reads a time typed in the zone shown beside it (UTC by default) and sends it with the offset", async () => {
    hourCycle("h23");
    const fetch = stubFetch({ "/api/v1/spark/jobs": json(sparkJob({ id: 9, state: "queued" }), 201) });
    renderForm(false);
    fireEvent.change(screen.getByTestId("param-topic"), { target: { value: "orders" } });
    fireEvent.change(screen.getByTestId("param-target_topic"), { target: { value: "copy" } });
    const start = screen.getByTestId("param-start_time");
    expect(start).toHaveAttribute("placeholder", "YYYY-MM-DD HH:mm:ss");
    expect(screen.getByTestId("param-start_time-zone")).toHaveValue("UTC");
    fireEvent.change(start, { target: { value: "2026-11-21 14:03" } });
    expect(screen.getByTestId("param-start_time-sends")).toHaveTextContent("Sends 2026-11-21T14:03:00.000Z = 2026-11-21 14:03:00.000 UTC");
    // A value that names its zone is sent as written.
    fireEvent.change(screen.getByTestId("param-end_time"), { target: { value: "2026-11-21T16:00:00+01:00" } });
    expect(screen.getByTestId("param-end_time-zone")).toBeDisabled();
    expect(screen.getByTestId("param-end_time-zone")).toHaveDisplayValue("zone as written");
    fireEvent.click(screen.getByTestId("spark-submit"));
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(postedParams(fetch)).toMatchObject({ start_time: "2026-11-21T14:03:00.000Z", end_time: "2026-11-21T16:00:00+01:00" });
  });

  it("writes 12-hour times where the locale asks for them, and reads them", async () => {
    hourCycle("h12");
    const fetch = stubFetch({ "/api/v1/spark/jobs": json(sparkJob({ id: 9, state: "queued" }), 201) });
    renderForm(false);
    fireEvent.change(screen.getByTestId("param-topic"), { target: { value: "orders" } });
    fireEvent.change(screen.getByTestId("param-target_topic"), { target: { value: "copy" } });
    const start = screen.getByTestId("param-start_time");
    expect(start).toHaveAttribute("placeholder", "YYYY-MM-DD hh:mm:ss AM");
    fireEvent.change(start, { target: { value: "2026-11-21 2:03 PM" } });
    expect(screen.getByTestId("param-start_time-sends")).toHaveTextContent("= 2026-11-21 2:03:00.000 PM UTC");
    fireEvent.click(screen.getByTestId("spark-submit"));
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(postedParams(fetch)).toMatchObject({ start_time: "2026-11-21T14:03:00.000Z" });
  });
});

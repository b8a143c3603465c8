import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SparkJob } from "../api/types";
import { FakeWebSocket, pushLive } from "../test/fakeWebSocket";
import { apiError, callsTo, json, stubFetch, type StubResponse } from "../test/fetchStub";
import { ME, VIEWER } from "../test/fixtures";
import { renderApp } from "../test/render";
import { PROFILE_RESULT, SPARK_JOB_TYPES, sparkJob } from "../test/sparkFixtures";

const JOB_URL = "/api/v1/spark/jobs/42";
const CANCEL_URL = `${JOB_URL}/cancel`;

function routes(job: () => SparkJob, extra: Record<string, StubResponse | (() => StubResponse)> = {}, me = ME) {
  return {
    "/api/v1/me": json(me),
    "/api/v1/spark/job-types": json(SPARK_JOB_TYPES),
    [JOB_URL]: () => json(job()),
    ...extra,
  };
}

const progress = () => screen.getByTestId("job-progress");

describe("SparkJobPage", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("polls every 2 s while its socket is not live, then follows the socket's pushes", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    let current = sparkJob({ progress: 0.25 });
    const fetch = stubFetch(routes(() => current));
    renderApp("/spark/jobs/42");
    await act(() => vi.advanceTimersByTimeAsync(10));

    expect(screen.getByTestId("job-state")).toHaveAttribute("data-state", "running");
    expect(progress()).toHaveAttribute("aria-valuenow", "25");
    expect(progress()).toHaveTextContent("25 %");
    expect(screen.getByTestId("live-indicator")).toHaveAttribute("data-status", "connecting");

    // No socket yet: GET again after 2 s.
    current = sparkJob({ progress: 0.5 });
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(progress()).toHaveAttribute("aria-valuenow", "50");
    expect(callsTo(fetch, JOB_URL)).toHaveLength(2);

    // The socket is live: its pushes show at once, and the page stops polling every 2 s.
    const socket = FakeWebSocket.last("/ws/spark/jobs/42");
    await act(async () => {
      socket.open();
      socket.receive({ type: "status", live: true });
      socket.receive({ type: "job", ...sparkJob({ progress: 0.6 }) });
      socket.receive({ type: "job", ...sparkJob({ progress: 0.75, log_tail: "26/07/01 14:00:12 WARN stage 3 done slowly\n" }) });
      await vi.advanceTimersByTimeAsync(150);
    });
    expect(screen.getByTestId("live-indicator")).toHaveAttribute("data-status", "live");
    expect(progress()).toHaveAttribute("aria-valuenow", "75");
    expect(screen.getByTestId("job-log")).toHaveTextContent("WARN stage 3 done slowly");
    const polled = callsTo(fetch, JOB_URL).length;
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(callsTo(fetch, JOB_URL)).toHaveLength(polled);

    await act(async () => {
      socket.receive({
        type: "job",
        ...sparkJob({ state: "succeeded", progress: 1, finished_at: "2026-07-01T14:01:00.000000Z", result: PROFILE_RESULT }),
      });
      await vi.advanceTimersByTimeAsync(150);
    });
    expect(screen.getByTestId("job-state")).toHaveAttribute("data-state", "succeeded");
    expect(progress()).toHaveTextContent("100 %");
    expect(screen.getByTestId("job-duration")).toHaveTextContent("58 s");
    expect(screen.getByTestId("result-table-partitions")).toBeInTheDocument();
    expect(screen.queryByTestId("job-cancel")).toBeNull();

    // The socket drops: the page polls every 2 s again (the job has ended: every 30 s).
    await act(async () => {
      socket.drop();
      await vi.advanceTimersByTimeAsync(2_500);
    });
    expect(callsTo(fetch, JOB_URL)).toHaveLength(polled);
  });

  it("shows the timestamps, params, a failure's error and the log with a link to all of it", async () => {
    stubFetch(
      routes(() =>
        sparkJob({
          job_type: "topic-export",
          state: "failed",
          progress: 0.4,
          params: { topic: "orders", partitions: [0, 2], start_offset: { "0": 10 }, end_offset: null, output_name: "daily" },
          finished_at: "2026-07-01T14:00:30.000000Z",
          error: "AnalysisException: [PATH_ALREADY_EXISTS] Path file:/data/daily already exists.",
          log_tail: "line 1\nTraceback (most recent call last):\n",
        }),
      ),
    );
    renderApp("/spark/jobs/42");

    expect(await screen.findByTestId("job-error")).toHaveTextContent("The job failed");
    expect(screen.getByTestId("job-error")).toHaveTextContent("PATH_ALREADY_EXISTS");
    expect(screen.getByTestId("job-state")).toHaveAttribute("data-state", "failed");
    expect(screen.getByText("Export a topic to Parquet")).toBeInTheDocument();
    expect(screen.getByTestId("job-created")).toHaveTextContent(/2026-07-01 \d\d:00:00/);
    expect(screen.getByTestId("job-finished")).toHaveTextContent(/2026-07-01 \d\d:00:30/);
    expect(screen.getByTestId("job-duration")).toHaveTextContent("28 s");
    expect(screen.getByTestId("job-app-id")).toHaveTextContent("local-1782900000000");
    expect(screen.getByTestId("job-log")).toHaveTextContent("Traceback (most recent call last):");
    expect(screen.getByTestId("job-log")).toHaveClass("log-tail-text");
    expect(screen.getByTestId("job-full-log")).toHaveAttribute("href", "/api/v1/spark/jobs/42/log?level=warn");
    expect(screen.queryByTestId("job-result")).toBeNull();
    expect(screen.queryByTestId("job-failure-lines")).toBeNull(); // none found in its log

    const params = screen.getByTestId("job-params");
    expect(within(params).getByTestId("job-param-partitions")).toHaveTextContent("0, 2");
    expect(within(params).getByTestId("job-param-start_offset")).toHaveTextContent("0: 10");
    expect(within(params).getByTestId("job-param-end_offset")).toHaveTextContent("default");
    // A finished job cannot be cancelled.
    expect(screen.queryByTestId("job-cancel")).toBeNull();
  });

  it("shows a failed job's failure lines first, then the log without Spark's INFO lines unless asked", async () => {
    const failureLines = [
      "26/07/01 14:00:28 ERROR Executor: Exception in task 0.0 in stage 0.0 (TID 0)",
      "py4j.protocol.Py4JJavaError: An error occurred while calling o39.collectToPython.",
      "Caused by: java.lang.IllegalArgumentException: Invalid UUID string: not-a-uuid",
    ];
    stubFetch(
      routes(() =>
        sparkJob({
          state: "failed",
          finished_at: "2026-07-01T14:00:30.000000Z",
          error: "IllegalArgumentException: Invalid UUID string: not-a-uuid — while calling o39.collectToPython",
          failure_lines: failureLines,
          log_tail: [
            "26/07/01 14:00:03 INFO SparkContext: Running Spark version 4.0.0",
            "26/07/01 14:00:04 WARN NativeCodeLoader: Unable to load native-hadoop library",
            "26/07/01 14:00:27 INFO DAGScheduler: ResultStage 0 failed in 0.412 s due to Job aborted",
            "\tat java.base/java.util.UUID.fromString(UUID.java:258)",
            "Traceback (most recent call last):",
            "py4j.protocol.Py4JJavaError: An error occurred while calling o39.collectToPython.",
            "26/07/01 14:00:29 INFO ShutdownHookManager: Shutdown hook called",
            "",
          ].join("\n"),
        }),
      ),
    );
    renderApp("/spark/jobs/42");

    const why = await screen.findByTestId("job-failure-lines");
    expect(why).toHaveTextContent("Why it failed");
    expect(why.querySelector("pre")).toHaveClass("job-failure-lines");
    expect(why.querySelector("pre")!.textContent).toBe(failureLines.join("\n"));
    // Right after the error line, above the log.
    const error = screen.getByTestId("job-error");
    const log = screen.getByTestId("job-log");
    expect(error.compareDocumentPosition(why) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(why.compareDocumentPosition(log) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    // Errors and warnings by default: the INFO lines (and the frame under one) are hidden.
    expect(screen.getByTestId("job-log-level")).toHaveValue("warn");
    expect(log).toHaveTextContent("WARN NativeCodeLoader");
    expect(log).toHaveTextContent("Traceback (most recent call last):");
    expect(log).not.toHaveTextContent("Running Spark version");
    expect(log).not.toHaveTextContent("UUID.fromString");
    expect(screen.getByTestId("job-log-hidden")).toHaveTextContent("4 INFO lines hidden");
    expect(screen.getByTestId("job-full-log")).toHaveAttribute("href", "/api/v1/spark/jobs/42/log?level=warn");

    fireEvent.change(screen.getByTestId("job-log-level"), { target: { value: "all" } });
    expect(log).toHaveTextContent("Running Spark version 4.0.0");
    expect(log).toHaveTextContent("UUID.fromString");
    expect(log).toHaveTextContent("Shutdown hook called");
    expect(screen.queryByTestId("job-log-hidden")).toBeNull();
    expect(screen.getByTestId("job-full-log")).toHaveAttribute("href", "/api/v1/spark/jobs/42/log");
  });

  it("says when the last lines hold no errors or warnings, and offers all of them", async () => {
    stubFetch(routes(() => sparkJob()));
    renderApp("/spark/jobs/42");

    expect(await screen.findByTestId("job-log-none-kept")).toHaveTextContent("No errors or warnings in the last lines.");
    expect(screen.getByTestId("job-log")).not.toHaveTextContent("Running Spark version");
    expect(screen.getByTestId("job-log-hidden")).toHaveTextContent("2 INFO lines hidden");
    expect(screen.queryByTestId("job-failure-lines")).toBeNull(); // not failed
    fireEvent.click(screen.getByTestId("job-log-show-all"));
    expect(screen.getByTestId("job-log-level")).toHaveValue("all");
    expect(screen.getByTestId("job-log")).toHaveTextContent("Running Spark version 4.0.0");
    expect(screen.queryByTestId("job-log-none-kept")).toBeNull();
  });

  it("cancels only after the confirmation, and shows the worker stopping the job", async () => {
    let current = sparkJob();
    const fetch = stubFetch(
      routes(() => current, {
        [CANCEL_URL]: () => {
          current = sparkJob({ cancel_requested: true });
          return json(current, 202);
        },
      }),
    );
    renderApp("/spark/jobs/42");

    fireEvent.click(await screen.findByTestId("job-cancel"));
    const dialog = screen.getByTestId("confirm-dialog");
    expect(dialog).toHaveTextContent("Cancel job #42?");
    expect(dialog).toHaveTextContent("Spark is stopped");
    // The safe choice has the focus; nothing to type.
    expect(screen.getByTestId("confirm-dismiss")).toHaveFocus();
    expect(screen.queryByTestId("confirm-input")).toBeNull();
    fireEvent.click(screen.getByTestId("confirm-dismiss"));
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
    expect(callsTo(fetch, CANCEL_URL, "POST")).toHaveLength(0);

    fireEvent.click(screen.getByTestId("job-cancel"));
    fireEvent.click(screen.getByTestId("confirm-button"));
    await waitFor(() => expect(screen.queryByTestId("confirm-dialog")).toBeNull());
    expect(callsTo(fetch, CANCEL_URL, "POST")).toHaveLength(1);
    expect(screen.getByTestId("job-cancel")).toHaveTextContent("Stopping…");
    expect(screen.getByTestId("job-cancel")).toBeDisabled();
    expect(screen.getByTestId("job-state")).toHaveAttribute("data-stopping", "true");

    await pushLive(
      FakeWebSocket.last("/ws/spark/jobs/42"),
      { type: "job", ...sparkJob({ state: "cancelled", cancel_requested: true, finished_at: "2026-07-01T14:00:20.000000Z" }) },
    );
    expect(screen.getByTestId("job-state")).toHaveAttribute("data-state", "cancelled");
    expect(screen.queryByTestId("job-cancel")).toBeNull();
  });

  it("keeps the dialog open with the server's reason when the cancel is refused", async () => {
    stubFetch(
      routes(() => sparkJob({ state: "queued", progress: 0, started_at: null }), {
        [CANCEL_URL]: apiError(409, "job_finished", "Job 42 already ended (succeeded)."),
      }),
    );
    renderApp("/spark/jobs/42");
    fireEvent.click(await screen.findByTestId("job-cancel"));
    expect(screen.getByTestId("confirm-dialog")).toHaveTextContent("cancelled at once");
    fireEvent.click(screen.getByTestId("confirm-button"));
    expect(await within(screen.getByTestId("confirm-dialog")).findByRole("alert")).toHaveTextContent(
      "Job 42 already ended (succeeded).",
    );
  });

  it("offers viewers no cancel button", async () => {
    stubFetch(routes(() => sparkJob(), {}, VIEWER));
    renderApp("/spark/jobs/42");
    expect(await screen.findByTestId("job-progress")).toBeInTheDocument();
    expect(screen.queryByTestId("job-cancel")).toBeNull();
  });

  it("answers an id that is not a number with the not-found page", async () => {
    stubFetch(routes(() => sparkJob()));
    renderApp("/spark/jobs/abc");
    expect(await screen.findByTestId("not-found")).toBeInTheDocument();
  });
});

import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { SparkJob, SparkJobState } from "../api/types";
import { json, stubFetch } from "../test/fetchStub";
import { ME, VIEWER } from "../test/fixtures";
import { renderApp } from "../test/render";
import { expectScreenful, giveScrollBoxHeight, renderedRowIds, scrollToEnd } from "../test/virtualTable";
import { SPARK_JOB_TYPES, sparkJob } from "../test/sparkFixtures";

giveScrollBoxHeight("jobs");

const STATES: SparkJobState[] = ["succeeded", "failed", "cancelled", "running"];

/** `count` jobs, newest (highest id) first; every 4th running. */
function manyJobs(count: number): SparkJob[] {
  return Array.from({ length: count }, (_, i) => {
    const id = count - i;
    return sparkJob({ id, state: STATES[id % 4]!, progress: id % 4 === 3 ? 0.5 : 1, params: { topic: `t-${id}` } });
  });
}

const rowIds = () => renderedRowIds("jobs", "job-row-").map(Number);

function jobsRoute(jobs: SparkJob[]) {
  return (url: string) => {
    const query = new URL(url, "http://localhost").searchParams;
    const state = query.get("state");
    const type = query.get("job_type");
    return json(jobs.filter((j) => (!state || j.state === state) && (!type || j.job_type === type)));
  };
}

describe("SparkJobsPage", () => {
  it("lists jobs newest first with their state, a progress bar while active, and links to each", async () => {
    const jobs = [
      sparkJob({ id: 3, state: "running", progress: 0.42 }),
      sparkJob({ id: 2, state: "queued", progress: 0, started_at: null, job_type: "topic-export", params: { topic: "payments" } }),
      sparkJob({ id: 1, state: "succeeded", progress: 1, finished_at: "2026-07-01T14:02:02.000000Z" }),
    ];
    stubFetch({ "/api/v1/me": json(ME), "/api/v1/spark/job-types": json(SPARK_JOB_TYPES), "/api/v1/spark/jobs": jobsRoute(jobs) });
    renderApp("/spark/jobs");

    await screen.findByTestId("jobs-table");
    expect(rowIds()).toEqual([3, 2, 1]);
    expect(screen.getByTestId("jobs-count")).toHaveTextContent("3 jobs");
    const running = screen.getByTestId("job-row-3");
    expect(running).toHaveAttribute("data-state", "running");
    expect(within(running).getByRole("progressbar")).toHaveAttribute("aria-valuenow", "42");
    expect(within(screen.getByTestId("job-row-2")).getByRole("progressbar")).toHaveAttribute("aria-valuenow", "0");
    expect(within(screen.getByTestId("job-row-2")).getByText("payments")).toBeInTheDocument();
    const done = screen.getByTestId("job-row-1");
    expect(within(done).queryByRole("progressbar")).toBeNull();
    expect(done).toHaveTextContent("2 m 00 s");
    // Dates and durations never break inside: their cells do not wrap.
    expect(within(done).getByText("2 m 00 s")).toHaveClass("nowrap");
    expect(within(done).getByText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)).toHaveClass("nowrap");
    expect(within(done).getByRole("link", { name: "#1" })).toHaveAttribute("href", "/spark/jobs/1");
    expect(screen.getByTestId("new-spark-job")).toHaveAttribute("href", "/spark/new");
    // The navigation has the section, current here.
    expect(screen.getByRole("link", { name: "Spark jobs" })).toHaveClass("active");
  });

  it("filters by state and job type on the server, keeping the filters in the URL", async () => {
    const jobs = manyJobs(12);
    const fetch = stubFetch({
      "/api/v1/me": json(VIEWER),
      "/api/v1/spark/job-types": json(SPARK_JOB_TYPES),
      "/api/v1/spark/jobs": jobsRoute(jobs),
    });
    renderApp("/spark/jobs");
    await screen.findByTestId("jobs-table");
    expect(screen.queryByTestId("new-spark-job")).toBeNull(); // viewers submit nothing

    fireEvent.change(screen.getByTestId("jobs-state-filter"), { target: { value: "running" } });
    await waitFor(() => expect(rowIds()).toEqual([11, 7, 3]));
    const last = () => new URL(String(fetch.mock.calls.at(-1)?.[0]), "http://localhost").searchParams;
    expect(last().get("state")).toBe("running");
    expect(last().get("limit")).toBe("1000");

    await waitFor(() => expect(screen.getByTestId("jobs-type-filter")).toHaveTextContent("Replay records into another topic"));
    fireEvent.change(screen.getByTestId("jobs-type-filter"), { target: { value: "topic-replay" } });
    expect(await screen.findByText("No job matches the filters.")).toBeInTheDocument();
    expect(last().get("job_type")).toBe("topic-replay");
  });

  it("renders only a screenful of rows out of 3,000 jobs", async () => {
    stubFetch({
      "/api/v1/me": json(ME),
      "/api/v1/spark/job-types": json(SPARK_JOB_TYPES),
      "/api/v1/spark/jobs": json(manyJobs(3000)),
    });
    renderApp("/spark/jobs");
    await screen.findByTestId("jobs-table");
    expect(screen.getByTestId("jobs-table")).toHaveAttribute("aria-rowcount", "3001");
    const shown = rowIds();
    expect(shown[0]).toBe(3000);
    expectScreenful(shown);

    await scrollToEnd("jobs", 3000);
    expect(screen.getByTestId("job-row-1")).toBeInTheDocument();
    expect(screen.queryByTestId("job-row-3000")).toBeNull();
    expect(rowIds().length).toBeLessThan(60);
  });
});

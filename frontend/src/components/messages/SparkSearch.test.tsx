import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { MessagePage, MessageRecord } from "../../api/messages";
import type { SparkJob } from "../../api/types";
import { FakeWebSocket } from "../../test/fakeWebSocket";
import { apiError, json, stubFetch, type StubResponse } from "../../test/fetchStub";
import { LOCAL, ME, ORDERS, VIEWER } from "../../test/fixtures";
import { renderApp } from "../../test/render";
import { SEARCH_RESULT, sparkJob } from "../../test/sparkFixtures";
import { giveScrollBoxHeight } from "../../test/virtualTable";

const TOPIC_URL = "/api/v1/clusters/local/topics/orders";
const MESSAGES_URL = "/api/v1/clusters/local/topics/orders/messages";
const CLUSTER_URL = "/api/v1/clusters/local";
const JOBS_URL = "/api/v1/spark/jobs";
const JOB_URL = "/api/v1/spark/jobs/42";
const FILTER = "value.amount > 6000";
const TAB = `/clusters/local/topics/orders?tab=messages&filter=${encodeURIComponent(FILTER)}`;

giveScrollBoxHeight("messages");

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function record(partition: number, offset: number): MessageRecord {
  return {
    partition,
    offset,
    timestamp: "2026-11-27T08:00:00.000Z",
    timestamp_ms: Date.parse("2026-11-27T08:00:00.000Z"),
    timestamp_type: "CreateTime",
    key: { format: "text", data: `truck-${offset}`, size: 8, schema_id: null, note: null },
    value: { format: "json", data: { amount: offset * 100 }, size: 20, schema_id: null, note: null },
    headers: [],
  };
}

/** A filtered page that stopped at `stopped_by` after 100,000 records. */
function page(stoppedBy: string): MessagePage {
  return {
    records: [record(0, 9)],
    next_cursor: "c1.next",
    prev_cursor: "c1.prev",
    isolation: "read_committed",
    scan: { scanned: 100_000, matched: 1, stopped_by: stoppedBy, positions: {}, elapsed_ms: 2000 },
  };
}

const searchJob = (change: Partial<SparkJob> = {}) =>
  sparkJob({
    job_type: "topic-search",
    params: { topic: "orders", filter: FILTER, key_format: "auto", value_format: "auto", max_matches: 1000 },
    state: "queued",
    progress: 0,
    started_at: null,
    ...change,
  });

function stub({
  stoppedBy = "records",
  me = ME,
  submit = () => json(searchJob(), 201),
  job = () => searchJob(),
}: { stoppedBy?: string; me?: typeof ME; submit?: (body: unknown) => StubResponse; job?: () => SparkJob } = {}) {
  return stubFetch({
    "/api/v1/me": json(me),
    [TOPIC_URL]: json(ORDERS),
    [CLUSTER_URL]: json(LOCAL),
    [MESSAGES_URL]: json(page(stoppedBy)),
    [JOBS_URL]: (_url, init) => submit(JSON.parse(String(init?.body ?? "null"))),
    [JOB_URL]: () => json(job()),
  });
}

function posts(fetch: ReturnType<typeof stubFetch>): unknown[] {
  return fetch.mock.calls
    .filter(([url, init]) => String(url).split("?")[0] === JOBS_URL && init?.method === "POST")
    .map(([, init]) => JSON.parse(String(init?.body)));
}

describe("the Messages tab's Spark search", () => {
  it("is offered to operators after a budget stop of a filtered scan, and only then", async () => {
    stub();
    const view = renderApp(TAB);
    expect(await screen.findByTestId("messages-go-on")).toBeInTheDocument();
    const button = screen.getByTestId("messages-spark-search");
    expect(button).toHaveTextContent("Search the whole topic on Spark");
    // Latest: the tooltip says the whole retained range is searched.
    expect(button).toHaveAttribute("title", expect.stringMatching(/whole retained range/));
    view.unmount();

    // A full page: no budget, no hand-off.
    stub({ stoppedBy: "limit" });
    const full = renderApp(TAB);
    await screen.findByTestId("message-row-0:9");
    expect(screen.queryByTestId("messages-spark-search")).toBeNull();
    full.unmount();

    // A viewer: "Go on", but no Spark job.
    stub({ me: VIEWER, stoppedBy: "time" });
    renderApp(TAB);
    expect(await screen.findByTestId("messages-go-on")).toBeInTheDocument();
    expect(screen.queryByTestId("messages-spark-search")).toBeNull();
  });

  it("submits the tab's range, filter and decoders, then follows the job to its matches", async () => {
    const fetch = stub();
    renderApp(`${TAB}&pos=timestamp&at=${encodeURIComponent("2026-11-27 09:30:00")}&tz=%2B02:00&p=0,2&vf=json`);
    fireEvent.click(await screen.findByTestId("messages-spark-search"));

    const panel = await screen.findByTestId("messages-spark");
    expect(posts(fetch)).toEqual([
      {
        job_type: "topic-search",
        cluster: "local",
        params: {
          topic: "orders",
          filter: FILTER,
          key_format: "auto",
          value_format: "json",
          partitions: [0, 2],
          start_time: "2026-11-27T09:30:00.000+02:00",
        },
      },
    ]);
    expect(within(panel).getByTestId("messages-spark-state")).toHaveAttribute("data-state", "queued");
    expect(within(panel).getByTestId("messages-spark-job-link")).toHaveAttribute("href", "/spark/jobs/42");
    expect(within(panel).getByTestId("job-cancel")).toHaveTextContent("Cancel job…");

    // The job socket's pushes move it on.
    const socket = await waitFor(() => FakeWebSocket.last("/ws/spark/jobs/42"));
    await act(async () => {
      socket.open();
      socket.receive({ type: "status", live: true });
      socket.receive({ type: "job", ...searchJob({ state: "running", progress: 0.4 }) });
    });
    await waitFor(() => expect(screen.getByTestId("messages-spark-state")).toHaveAttribute("data-state", "running"));
    expect(screen.getByTestId("messages-spark-progress")).toHaveAttribute("aria-valuenow", "40");

    await act(async () => {
      socket.receive({
        type: "job",
        ...searchJob({ state: "succeeded", progress: 1, finished_at: "2026-07-01T14:01:00.000000Z", result: SEARCH_RESULT }),
      });
    });
    expect(await screen.findByTestId("messages-spark-matched")).toHaveTextContent("1,234 matched of 5,000,000 scanned");
    expect(screen.getByTestId("messages-spark-progress")).toHaveTextContent("100 %");
    expect(screen.queryByTestId("job-cancel")).toBeNull();
    expect(screen.getByTestId("messages-spark-truncated")).toHaveTextContent("the first 2 listed");
    expect(screen.getByTestId("messages-spark-filter-errors")).toHaveTextContent("filter failed on 2 records: no such key: amount");

    // The matches in the tab's table; a row opens the record's drawer.
    const row = screen.getByTestId("spark-match-row-spark:0:17");
    expect(within(row).getByTestId("message-value")).toHaveTextContent('{"amount":6100,"id":"o-17"}');
    expect(screen.getByTestId("spark-match-row-spark:2:4001")).toBeInTheDocument();
    fireEvent.click(row);
    const drawer = await screen.findByTestId("record-drawer");
    expect(within(drawer).getByTestId("record-offset")).toHaveTextContent("17");
    expect(within(drawer).getAllByTestId("record-header")).toHaveLength(2);
    // The page's own table is still there.
    expect(screen.getByTestId("message-row-0:9")).toBeInTheDocument();
  });

  it("shows a refused filter beside the box, and other refusals beside the button", async () => {
    let answer: StubResponse = apiError(400, "invalid", "params.filter: Syntax error: mismatched input '<EOF>' (line 1, column 20).", {
      field: "params.filter",
      line: 1,
      column: 20,
    });
    const fetch = stub({ submit: () => answer });
    renderApp(TAB);
    fireEvent.click(await screen.findByTestId("messages-spark-search"));

    const box = await screen.findByTestId("messages-filter-error");
    expect(box).toHaveTextContent("The filter was refused: Syntax error: mismatched input '<EOF>'.");
    expect(box).not.toHaveTextContent("params.filter");
    expect(screen.getByTestId("messages-filter-error-place")).toHaveTextContent("At line 1, column 20");
    expect(screen.getByTestId("messages-filter-input")).toHaveAttribute("aria-invalid", "true");
    expect(screen.queryByTestId("messages-spark")).toBeNull();
    expect(screen.queryByTestId("error-banner")).toBeNull();

    answer = apiError(400, "invalid", "params.partitions: partition 9 does not exist.", { field: "params.partitions" });
    fireEvent.click(screen.getByTestId("messages-spark-search"));
    expect(await screen.findByTestId("messages-spark-errors")).toHaveTextContent("Partitions: Partition 9 does not exist.");
    await waitFor(() => expect(screen.queryByTestId("messages-filter-error")).toBeNull());

    answer = apiError(403, "forbidden", "This needs the operator role.");
    fireEvent.click(screen.getByTestId("messages-spark-search"));
    expect(await screen.findByTestId("error-banner")).toHaveTextContent("Could not submit the Spark search");
    expect(posts(fetch)).toHaveLength(3);
  });
});

import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { json, stubFetch } from "../../test/fetchStub";
import { CLUSTERS } from "../../test/fixtures";
import { SPARK_JOB_TYPES, sparkJob } from "../../test/sparkFixtures";
import { SparkJobForm } from "./SparkJobForm";

const replay = SPARK_JOB_TYPES.find((t) => t.name === "topic-replay")!;

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
});

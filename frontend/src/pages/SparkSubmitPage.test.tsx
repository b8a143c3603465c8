import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { apiError, json, stubFetch, type StubResponse } from "../test/fetchStub";
import { CLUSTERS, ME, TOPICS, VIEWER } from "../test/fixtures";
import { renderApp } from "../test/render";
import { SPARK_JOB_TYPES, sparkJob } from "../test/sparkFixtures";

function routes(submit: StubResponse | (() => StubResponse), me = ME) {
  return {
    "/api/v1/me": json(me),
    "/api/v1/spark/job-types": json(SPARK_JOB_TYPES),
    "/api/v1/clusters": json(CLUSTERS),
    "/api/v1/clusters/local/topics": json(TOPICS),
    "/api/v1/spark/jobs": typeof submit === "function" ? submit : () => submit,
  };
}

function posts(fetch: ReturnType<typeof stubFetch>) {
  return fetch.mock.calls
    .filter(([url, init]) => String(url) === "/api/v1/spark/jobs" && init?.method === "POST")
    .map(([, init]) => JSON.parse(String(init?.body)) as unknown);
}

function badField(field: string, message: string): StubResponse {
  return apiError(400, "invalid", message, { field });
}

async function openProfileForm() {
  fireEvent.click(await screen.findByTestId("job-type-topic-profile"));
  const form = await screen.findByTestId("spark-form-topic-profile");
  // The first reachable cluster is chosen, and its topics are offered.
  await waitFor(() => expect(screen.getByTestId("spark-cluster")).toHaveValue("local"));
  await waitFor(() => expect(form.querySelectorAll("datalist option")).toHaveLength(TOPICS.length));
  return form;
}

function typeTopic(name: string) {
  fireEvent.change(screen.getByTestId("param-topic"), { target: { value: name } });
}

describe("SparkSubmitPage", () => {
  it("lists the job types and generates each one's form from its params schema", async () => {
    stubFetch(routes(json(sparkJob(), 201)));
    renderApp("/spark/new");

    for (const type of SPARK_JOB_TYPES) {
      expect(await screen.findByTestId(`job-type-${type.name}`)).toHaveTextContent(type.title);
    }
    // The first type is chosen until another is.
    expect(screen.getByTestId("job-type-topic-export")).toHaveAttribute("aria-pressed", "true");
    expect(await screen.findByTestId("spark-form-topic-export")).toBeInTheDocument();

    const form = await openProfileForm();
    expect(screen.getByTestId("job-type-topic-profile")).toHaveAttribute("aria-pressed", "true");
    // Titles from the param names, descriptions as hints, the defaults filled in, nothing null.
    expect(within(form).getByLabelText(/^Topic/)).toBeRequired();
    expect(within(form).getByLabelText("Top duplicates")).toHaveValue(20);
    expect(within(form).getByLabelText("Sequence scope")).toHaveDisplayValue("partition");
    expect(within(form).getByText("How many of the most copied records to list.")).toHaveClass("field-hint");
    // An offset is one number for every partition or one per partition: a chooser with names.
    expect(within(form).getAllByRole("option", { name: "Same for every partition" })).toHaveLength(2);
    expect(within(form).getAllByRole("option", { name: "Per partition" })).toHaveLength(2);
    // The partition list starts empty (null means every partition), with an Add button.
    expect(form.querySelector("#root_partitions_0")).toBeNull();
    expect(within(form).getAllByRole("button", { name: "Add" }).length).toBeGreaterThan(0);

    fireEvent.click(screen.getByTestId("job-type-topic-replay"));
    expect(await screen.findByTestId("spark-form-topic-replay")).toBeInTheDocument();
    expect(screen.getByLabelText(/^Target topic/)).toBeRequired();
    expect(screen.getByLabelText("Preserve partitions")).toBeChecked();
  });

  it("sends only what was filled in (the server fills its defaults) and opens the new job", async () => {
    const fetch = stubFetch({
      ...routes(json(sparkJob({ id: 77, state: "queued", progress: 0 }), 201)),
      "/api/v1/spark/jobs/77": json(sparkJob({ id: 77, state: "queued", progress: 0 })),
    });
    renderApp("/spark/new?type=topic-profile");
    const form = await openProfileForm();
    typeTopic("orders");
    fireEvent.change(within(form).getByLabelText("Sequence field"), { target: { value: "seq" } });
    fireEvent.click(screen.getByTestId("spark-submit"));

    expect(await screen.findByTestId("spark-job-page")).toBeInTheDocument();
    expect(await screen.findByTestId("job-state")).toHaveAttribute("data-state", "queued");
    expect(posts(fetch)).toEqual([
      {
        job_type: "topic-profile",
        cluster: "local",
        params: { topic: "orders", sequence_field: "seq", sequence_scope: "partition", top_duplicates: 20 },
      },
    ]);
  });

  it("shows a 400 next to the field it names, a cluster error next to the cluster, the rest in a banner", async () => {
    let answer = badField("params.topic", "params.topic: topic 'nope' does not exist.");
    const fetch = stubFetch(routes(() => answer));
    renderApp("/spark/new?type=topic-profile");
    await openProfileForm();
    typeTopic("nope");
    fireEvent.click(screen.getByTestId("spark-submit"));

    const topicError = await screen.findByTestId("field-error-topic");
    // Beside the field, in plain words: no "params.topic:" in front.
    expect(topicError).toHaveTextContent(/^Topic 'nope' does not exist\.$/);
    expect(screen.queryByTestId("error-banner")).toBeNull();
    // Editing the field clears what the server said about its old value.
    typeTopic("nope2");
    expect(screen.queryByTestId("field-error-topic")).toBeNull();

    // A nested path belongs to its param: params.partitions[0] is shown at the partitions.
    answer = badField("params.partitions", "params.partitions: topic 'orders' has no partition 9.");
    typeTopic("orders");
    fireEvent.click(screen.getByTestId("spark-submit"));
    expect(await screen.findByTestId("field-error-partitions")).toHaveTextContent("has no partition 9");
    expect(screen.queryByTestId("field-error-topic")).toBeNull();

    answer = badField("cluster", "cluster: unknown cluster 'local'.");
    fireEvent.click(screen.getByTestId("spark-submit"));
    expect(await screen.findByTestId("field-error-cluster")).toHaveTextContent(/^Unknown cluster 'local'\.$/);
    expect(screen.getByTestId("spark-cluster")).toHaveAttribute("aria-invalid", "true");

    // A field the form does not have (an unknown param, the job type): the banner.
    answer = badField("params.x", "params.x: Additional properties are not allowed ('x' was unexpected)");
    fireEvent.click(screen.getByTestId("spark-submit"));
    expect(await screen.findByTestId("error-banner")).toHaveTextContent("Additional properties");
    expect(screen.queryByTestId("field-error-cluster")).toBeNull();

    answer = apiError(403, "forbidden", "Operators only.");
    fireEvent.click(screen.getByTestId("spark-submit"));
    await waitFor(() => expect(screen.getByTestId("error-banner")).toHaveTextContent("Operators only."));
    expect(posts(fetch)).toHaveLength(5);
  });

  it("checks the params against the schema in the browser before sending", async () => {
    const fetch = stubFetch(routes(json(sparkJob(), 201)));
    renderApp("/spark/new?type=topic-profile");
    const form = await openProfileForm();
    typeTopic("bad topic name!");
    fireEvent.change(within(form).getByLabelText("Top duplicates"), { target: { value: "5000" } });
    fireEvent.click(screen.getByTestId("spark-submit"));

    // Every problem at once, each beside its field, in plain words.
    expect(await screen.findByTestId("field-error-topic")).toHaveTextContent("Use only letters, digits, “.”, “_” and “-”.");
    expect(screen.getByTestId("field-error-top_duplicates")).toHaveTextContent("Must be at most 1000.");
    expect(posts(fetch)).toEqual([]);
  });

  it("shows every problem a 400 lists beside its own field, none with its path in front", async () => {
    const answer = json(
      {
        error: {
          code: "invalid",
          message: "params.topic: unknown field (and 2 more)",
          details: {
            field: "params.topic",
            errors: {
              "params.topic": "params.topic: topic 'nope' does not exist.",
              "params.top_duplicates": "must be a whole number (a JSON integer).",
              "params.sequence_field": "is required with params.sequence_scope.",
            },
          },
        },
      },
      400,
    );
    stubFetch(routes(answer));
    renderApp("/spark/new?type=topic-profile");
    await openProfileForm();
    typeTopic("nope");
    fireEvent.click(screen.getByTestId("spark-submit"));
    expect(await screen.findByTestId("field-error-topic")).toHaveTextContent(/^Topic 'nope' does not exist\.$/);
    expect(screen.getByTestId("field-error-top_duplicates")).toHaveTextContent(/^Must be a whole number \(a JSON integer\)\.$/);
    expect(screen.getByTestId("field-error-sequence_field")).toHaveTextContent(/^Is required with “Sequence scope”\.$/);
    expect(screen.getByTestId("spark-submit-page")).not.toHaveTextContent("params.");
    expect(screen.queryByTestId("error-banner")).toBeNull();
    // Editing one field clears only what was said about it.
    typeTopic("orders");
    expect(screen.queryByTestId("field-error-topic")).toBeNull();
    expect(screen.getByTestId("field-error-top_duplicates")).toBeInTheDocument();
  });

  it("shows viewers the form disabled, with a note", async () => {
    const fetch = stubFetch(routes(json(sparkJob(), 201), VIEWER));
    renderApp("/spark/new?type=topic-profile");
    expect(await screen.findByTestId("operator-only")).toHaveTextContent("Only operators can submit Spark jobs");
    const form = await screen.findByTestId("spark-form-topic-profile");
    expect(screen.getByTestId("param-topic")).toBeDisabled();
    expect(within(form).getByLabelText("Top duplicates")).toBeDisabled();
    expect(screen.getByTestId("spark-cluster")).toBeDisabled();
    expect(screen.getByTestId("spark-submit")).toBeDisabled();
    expect(posts(fetch)).toEqual([]);
  });
});

import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Plan, ReassignmentList } from "../api/types";
import { apiError, bodiesTo, callsTo, json, type Route, stubFetch } from "../test/fetchStub";
import { BROKER_2, BROKER_2_URL, BROKER_DEFAULTS, BROKER_DEFAULTS_URL } from "../test/brokerFixtures";
import { ADMIN, LOCAL, manyTopics, ME, TOPICS } from "../test/fixtures";
import { LIST, MIB, MOVING, PLAN_URL, planAnswer, REASSIGNMENT_7_URL, REASSIGNMENTS_URL } from "../test/reassignFixtures";
import { renderApp } from "../test/render";

function routes(extra: Record<string, Route> = {}, list: ReassignmentList = LIST) {
  return {
    "/api/v1/me": json(ADMIN),
    "/api/v1/clusters/local": json(LOCAL),
    "/api/v1/clusters/local/topics": json(TOPICS),
    [REASSIGNMENTS_URL]: json(list),
    [PLAN_URL]: () => json(planAnswer()),
    ...extra,
  };
}

/** The text a download link holds (its data: URL decoded). */
function downloaded(testId: string): unknown {
  const href = screen.getByTestId(testId).getAttribute("href")!;
  return JSON.parse(decodeURIComponent(href.slice(href.indexOf(",") + 1)));
}

async function openPage(fetchRoutes = routes()) {
  const fetch = stubFetch(fetchRoutes);
  renderApp("/clusters/local/reassignments");
  await screen.findByTestId("reassignments-table");
  await screen.findByTestId("reassign-broker-1");
  return fetch;
}

/** orders, brokers 2 and 3, 1 MiB/s, Preview: the plan's preview on screen. */
async function previewOrders() {
  fireEvent.click(screen.getByRole("checkbox", { name: "orders" }));
  fireEvent.click(screen.getByTestId("reassign-broker-2"));
  fireEvent.click(screen.getByTestId("reassign-broker-3"));
  fireEvent.change(screen.getByTestId("reassign-throttle"), { target: { value: "1" } });
  fireEvent.click(screen.getByTestId("reassign-preview"));
  return screen.findByTestId("reassign-preview-table");
}

describe("ReassignPage", () => {
  it("lists this console's reassignments, and what Kafka moves now when anything does", async () => {
    await openPage(
      routes({}, { ...LIST, in_kafka: [{ topic: "payments", partition: 2, replicas: [1, 2, 3], adding: [3], removing: [1] }] }),
    );
    expect(document.title).toBe("Reassign · local · Kafka Console");
    expect(screen.getByTestId("tab-reassignments")).toHaveAttribute("aria-current", "page");
    const row = screen.getByTestId("reassignment-row-5");
    expect(within(row).getByRole("link", { name: "#5" })).toHaveAttribute("href", "/clusters/local/reassignments/5");
    expect(row).toHaveAttribute("data-state", "completed");
    expect(row).toHaveTextContent("orders, payments");
    expect(row).toHaveTextContent("12");
    expect(row).toHaveTextContent("10.0 MiB/s");
    expect(row).toHaveTextContent("root");
    expect(row).toHaveTextContent("rack-b maintenance");
    const moving = screen.getByTestId("in-kafka-payments-2");
    expect(within(moving).getAllByRole("cell").map((c) => c.textContent)).toEqual(["payments", "2", "1, 2, 3", "3", "1"]);
  });

  it("hides the Kafka table when nothing moves", async () => {
    await openPage();
    expect(screen.queryByTestId("reassign-in-kafka")).toBeNull();
    expect(screen.queryByTestId("admin-only")).toBeNull();
  });

  it("has no tab for anyone below admin", async () => {
    stubFetch({ "/api/v1/me": json(ME), "/api/v1/clusters/local/topics": json(TOPICS) });
    renderApp("/clusters/local/topics");
    await screen.findByTestId("topics-table");
    expect(screen.getByTestId("tab-groups")).toBeInTheDocument();
    expect(screen.queryByTestId("tab-reassignments")).toBeNull();
  });

  it("previews a spread of topics over brokers: one row per move, its bytes and time, the total", async () => {
    const fetch = await openPage();
    // No broker is chosen to start with; each says its rack.
    expect(screen.getByTestId("reassign-broker-1")).not.toBeChecked();
    expect(screen.getByTestId("reassign-broker-1").closest("label")).toHaveTextContent("Broker 1· rack rack-a");
    expect(screen.getByTestId("reassign-throttle-warning")).toHaveTextContent("No throttle");

    const table = await previewOrders();
    expect(bodiesTo(fetch, PLAN_URL)).toEqual([{ topics: ["orders"], brokers: [2, 3], throttle_bytes_per_s: MIB }]);
    expect(screen.queryByTestId("reassign-throttle-warning")).toBeNull();

    const row0 = within(table).getByTestId("reassign-move-orders-0");
    const cells = within(row0).getAllByRole("cell");
    expect(cells[0]).toHaveTextContent("orders");
    expect(cells[1]).toHaveTextContent("0");
    expect(cells[2]).toHaveTextContent("1, 2 → 2, 3");
    // Broker 1 loses its replica (struck through), broker 3 gains one (highlighted).
    expect(cells[2]!.querySelector("del")).toHaveTextContent("1");
    expect(cells[2]!.querySelector("ins")).toHaveTextContent("3");
    expect(within(row0).getByTestId("reassign-target-orders-0")).toHaveValue("2, 3");
    expect(cells[4]).toHaveTextContent("30.0 MiB");
    expect(cells[5]).toHaveTextContent("30 s");
    expect(within(table).getByTestId("reassign-move-orders-1")).toHaveTextContent("2, 3 → 3, 2");

    const total = screen.getByTestId("reassign-total");
    // orders-1 only changes its preferred leader: it moves too, copying nothing.
    expect(total).toHaveTextContent("2 partitions of 1 topic move");
    expect(total).toHaveTextContent("30.0 MiB to copy");
    expect(total).toHaveTextContent("about 30 s at 1.00 MiB/s");

    // The downloads are the documents exactly; the rollback is today's replicas.
    expect(screen.getByTestId("reassign-download-plan")).toHaveAttribute("download", "reassignment-plan.json");
    expect(downloaded("reassign-download-plan")).toEqual(planAnswer().proposed);
    expect(screen.getByTestId("reassign-download-rollback")).toHaveAttribute("download", "reassignment-rollback.json");
    expect(downloaded("reassign-download-rollback")).toEqual(planAnswer().current);
    expect(screen.getByTestId("reassign-downloads")).toHaveTextContent(
      "kafka-reassign-partitions.sh --bootstrap-server … --execute --reassignment-json-file reassignment-rollback.json",
    );

    // Other inputs: the preview is stale and cannot be executed until previewed again.
    fireEvent.click(screen.getByTestId("reassign-broker-1"));
    expect(screen.getByTestId("reassign-preview-stale")).toBeInTheDocument();
    expect(screen.getByTestId("reassign-execute")).toBeDisabled();
  });

  it("executes exactly the previewed plan with the throttle and reason, then opens its progress", async () => {
    const fetch = await openPage(
      routes({
        [REASSIGNMENTS_URL]: (_url, init) => (init?.method === "POST" ? json(MOVING, 201) : json(LIST)),
        [REASSIGNMENT_7_URL]: json(MOVING),
      }),
    );
    await previewOrders();
    fireEvent.change(screen.getByTestId("reassign-reason"), { target: { value: "drain broker 1" } });
    fireEvent.click(screen.getByTestId("reassign-execute"));

    const dialog = screen.getByTestId("confirm-dialog");
    expect(within(dialog).getByTestId("reassign-confirm-summary")).toHaveTextContent(
      "Kafka will move 2 partitions of 1 topic, copying 30.0 MiB at most 1.00 MiB/s per broker, about 30 s.",
    );
    expect(dialog).toHaveTextContent("Reason: drain broker 1");
    expect(callsTo(fetch, REASSIGNMENTS_URL, "POST")).toHaveLength(0);

    fireEvent.click(within(dialog).getByTestId("reassign-confirm"));
    expect(await screen.findByTestId("reassignment-page")).toBeInTheDocument();
    expect(bodiesTo(fetch, REASSIGNMENTS_URL)).toEqual([
      { plan: planAnswer().proposed, throttle_bytes_per_s: MIB, reason: "drain broker 1" },
    ]);
    expect(screen.getByTestId("reassign-state")).toHaveTextContent("running");
  });

  it("shows a refusal to execute (409) beside Execute, and stays on the page", async () => {
    await openPage(
      routes({
        [REASSIGNMENTS_URL]: (_url, init) =>
          init?.method === "POST"
            ? apiError(409, "reassignment_in_progress", "Cannot execute because there is an existing partition reassignment (payments-2).")
            : json(LIST),
      }),
    );
    await previewOrders();
    fireEvent.click(screen.getByTestId("reassign-execute"));
    fireEvent.click(screen.getByTestId("reassign-confirm"));
    const banner = await screen.findByTestId("error-banner");
    expect(banner).toHaveTextContent("Could not start the reassignment: Cannot execute because there is an existing partition");
    expect(banner).toHaveTextContent("HTTP 409");
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
    expect(screen.queryByTestId("reassignment-page")).toBeNull();
    expect(screen.getByTestId("reassign-page")).toBeInTheDocument();
  });

  it("previews an edited row again as the edited plan document", async () => {
    const fetch = await openPage(
      routes({
        [PLAN_URL]: (_url, init) => {
          const body = JSON.parse(String(init?.body)) as { plan?: Plan["proposed"] };
          if (!body.plan) return json(planAnswer());
          const edited = planAnswer();
          edited.proposed = body.plan;
          edited.moves[0] = { ...edited.moves[0]!, to: [3, 2], adding: [3], removing: [1] };
          return json(edited);
        },
      }),
    );
    await previewOrders();
    const input = screen.getByTestId("reassign-target-orders-0");
    fireEvent.change(input, { target: { value: "3 2" } });
    fireEvent.submit(input.closest("form")!);
    await waitFor(() => expect(screen.getByTestId("reassign-target-orders-0")).toHaveValue("3, 2"));
    fireEvent.blur(screen.getByTestId("reassign-target-orders-0"));

    const bodies = bodiesTo(fetch, PLAN_URL);
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toEqual({
      plan: {
        version: 1,
        partitions: [
          { topic: "orders", partition: 0, replicas: [3, 2], log_dirs: ["any", "any"] },
          { topic: "orders", partition: 1, replicas: [3, 2], log_dirs: ["any", "any"] },
        ],
      },
      throttle_bytes_per_s: MIB,
    });
    expect(downloaded("reassign-download-plan")).toEqual((bodies[1] as { plan: unknown }).plan);

    // The plan shown, to edit as JSON: the same document, so the preview stays current.
    fireEvent.click(screen.getByTestId("reassign-edit-json"));
    expect(screen.getByTestId("reassign-mode-json")).toHaveAttribute("aria-pressed", "true");
    expect(JSON.parse((screen.getByTestId("reassign-json") as HTMLTextAreaElement).value)).toEqual((bodies[1] as { plan: unknown }).plan);
    expect(screen.queryByTestId("reassign-preview-stale")).toBeNull();
    expect(screen.getByTestId("reassign-execute")).toBeEnabled();
    fireEvent.click(screen.getByTestId("reassign-mode-topics"));

    // What is no broker list is said above the table; nothing is sent.
    fireEvent.change(screen.getByTestId("reassign-target-orders-1"), { target: { value: "3, x" } });
    fireEvent.blur(screen.getByTestId("reassign-target-orders-1"));
    expect(screen.getByTestId("reassign-edit-error")).toHaveTextContent("orders-1: “x” is not a broker id.");
    expect(callsTo(fetch, PLAN_URL, "POST")).toHaveLength(2);
  });

  it("previews the same document again when the throttle changes", async () => {
    const fetch = await openPage(
      routes({
        [PLAN_URL]: (_url, init) =>
          json(planAnswer((JSON.parse(String(init?.body)) as { throttle_bytes_per_s: number | null }).throttle_bytes_per_s)),
      }),
    );
    await previewOrders();
    fireEvent.change(screen.getByTestId("reassign-throttle"), { target: { value: "2" } });
    await waitFor(() => expect(screen.getByTestId("reassign-total")).toHaveTextContent("about 15 s at 2.00 MiB/s"));
    expect(bodiesTo(fetch, PLAN_URL)[1]).toEqual({ plan: planAnswer().proposed, throttle_bytes_per_s: 2 * MIB });
  });

  it("places a refused preview's problem beside its field", async () => {
    await openPage(
      routes({ [PLAN_URL]: apiError(400, "invalid", "brokers: 9 not live (live: 1, 2, 3).", { field: "brokers" }) }),
    );
    await screen.findByTestId("reassign-topic-orders");
    fireEvent.click(screen.getByRole("checkbox", { name: "orders" }));
    fireEvent.click(screen.getByTestId("reassign-broker-1"));
    fireEvent.click(screen.getByTestId("reassign-preview"));
    expect(await screen.findByTestId("reassign-error-brokers")).toHaveTextContent("9 not live (live: 1, 2, 3).");
    expect(screen.queryByTestId("reassign-preview-table")).toBeNull();
    // Changing the brokers clears it.
    fireEvent.click(screen.getByTestId("reassign-broker-2"));
    expect(screen.queryByTestId("reassign-error-brokers")).toBeNull();
  });

  it("checks the inputs before sending anything", async () => {
    const fetch = await openPage();
    fireEvent.click(screen.getByTestId("reassign-preview"));
    expect(screen.getByTestId("reassign-error-topics")).toHaveTextContent("Choose at least one topic.");
    expect(screen.getByTestId("reassign-error-brokers")).toHaveTextContent("Choose at least one broker.");
    fireEvent.change(screen.getByTestId("reassign-throttle"), { target: { value: "fast" } });
    expect(screen.getByTestId("reassign-error-throttle_bytes_per_s")).toHaveTextContent("Give the throttle in MiB/s");
    expect(callsTo(fetch, PLAN_URL, "POST")).toHaveLength(0);
  });

  it("plans a new replication factor, showing the topic's current one", async () => {
    const fetch = await openPage();
    fireEvent.click(screen.getByTestId("reassign-mode-rf"));
    expect(screen.getByTestId("reassign-mode-rf")).toHaveAttribute("aria-pressed", "true");
    fireEvent.change(screen.getByTestId("reassign-rf-topic"), { target: { value: "audit" } });
    expect(screen.getByTestId("reassign-rf-current")).toHaveTextContent("Now replication factor 1, 1 partition.");
    fireEvent.change(screen.getByTestId("reassign-rf"), { target: { value: "3" } });
    fireEvent.click(screen.getByTestId("reassign-preview"));
    await screen.findByTestId("reassign-preview-table");
    expect(bodiesTo(fetch, PLAN_URL)).toEqual([{ topic: "audit", replication_factor: 3, throttle_bytes_per_s: null }]);
  });

  it("says invalid JSON inline and sends nothing; a loaded file fills the box", async () => {
    const fetch = await openPage();
    fireEvent.click(screen.getByTestId("reassign-mode-json"));
    fireEvent.change(screen.getByTestId("reassign-json"), { target: { value: '{"version": 1, "partitions": [' } });
    fireEvent.click(screen.getByTestId("reassign-preview"));
    expect(screen.getByTestId("reassign-error-plan")).toHaveTextContent(/^Not valid JSON/);
    expect(screen.getByTestId("reassign-json")).toHaveAttribute("aria-invalid", "true");
    expect(callsTo(fetch, PLAN_URL, "POST")).toHaveLength(0);

    const text = JSON.stringify(planAnswer().proposed);
    fireEvent.change(screen.getByTestId("reassign-json-file"), {
      target: { files: [new File([text], "plan.json", { type: "application/json" })] },
    });
    await waitFor(() => expect(screen.getByTestId("reassign-json")).toHaveValue(text));
    expect(screen.queryByTestId("reassign-error-plan")).toBeNull();
    fireEvent.click(screen.getByTestId("reassign-preview"));
    await screen.findByTestId("reassign-preview-table");
    expect(bodiesTo(fetch, PLAN_URL)).toEqual([{ plan: planAnswer().proposed, throttle_bytes_per_s: null }]);
  });

  it("renders only the first 100 of thousands of topics, and finds the others by filter", async () => {
    stubFetch(routes({ "/api/v1/clusters/local/topics": json(manyTopics(5000)) }));
    renderApp("/clusters/local/reassignments");
    const list = await screen.findByTestId("reassign-topic-list");
    expect(within(list).getAllByRole("checkbox")).toHaveLength(100);
    expect(screen.getByTestId("reassign-topic-more")).toHaveTextContent("4,900 more, refine the filter.");
    fireEvent.change(screen.getByTestId("reassign-topic-filter"), { target: { value: "topic-0421" } });
    await waitFor(() => expect(within(list).getAllByRole("checkbox")).toHaveLength(10));
    expect(screen.queryByTestId("reassign-topic-more")).toBeNull();
    fireEvent.click(screen.getByRole("checkbox", { name: "topic-04213" }));
    expect(screen.getByTestId("reassign-topic-count")).toHaveTextContent("1 chosen: topic-04213");
    // The filter cleared: the chosen topic, far beyond the first 100, is shown first, checked.
    fireEvent.change(screen.getByTestId("reassign-topic-filter"), { target: { value: "" } });
    await waitFor(() => expect(within(list).getAllByRole("checkbox")).toHaveLength(101));
    expect(within(list).getAllByRole("checkbox")[0]).toHaveAccessibleName("topic-04213");
    expect(screen.getByRole("checkbox", { name: "topic-04213" })).toBeChecked();
    expect(screen.getByTestId("reassign-topic-more")).toHaveTextContent("4,899 more, refine the filter.");
  });

  it("shows a topic preset by a link checked, however far down the list it sorts", async () => {
    stubFetch(routes({ "/api/v1/clusters/local/topics": json(manyTopics(5000)) }));
    renderApp("/clusters/local/reassignments?topics=topic-04999");
    const list = await screen.findByTestId("reassign-topic-list");
    await waitFor(() => expect(screen.getByRole("checkbox", { name: "topic-04999" })).toBeChecked());
    expect(within(list).getAllByRole("checkbox")).toHaveLength(101);
  });
});

describe("ReassignPage preset by a link", () => {
  /** The topics, with invoices (broker 2 holds a replica of it). */
  const WITH_INVOICES = [...TOPICS, { ...TOPICS[2]!, name: "invoices" }];

  async function openPreset(query: string, extra: Record<string, Route> = {}) {
    const fetch = stubFetch(routes({ "/api/v1/clusters/local/topics": json(WITH_INVOICES), [BROKER_2_URL]: json(BROKER_2), ...extra }));
    renderApp(`/clusters/local/reassignments${query}`);
    await screen.findByTestId("reassign-preview");
    return fetch;
  }

  const checkedTopics = () =>
    within(screen.getByTestId("reassign-topic-list"))
      .getAllByRole("checkbox")
      .filter((box) => (box as HTMLInputElement).checked)
      .map((box) => box.getAttribute("aria-label"));
  const checkedBrokers = () =>
    within(screen.getByTestId("reassign-brokers"))
      .getAllByRole("checkbox")
      .filter((box) => (box as HTMLInputElement).checked)
      .map((box) => box.getAttribute("data-testid"));

  it("drains a broker: every topic it holds chosen, every other live broker the target; nothing previewed", async () => {
    const fetch = await openPreset("?drain=2");
    expect(screen.getByTestId("reassign-drain-note")).toHaveTextContent(
      "Draining broker 2: its topics are chosen and it is left out of the target brokers. Preview to see what moves.",
    );
    expect(screen.getByTestId("reassign-mode-topics")).toHaveAttribute("aria-pressed", "true");
    expect(checkedTopics()).toEqual(["orders", "payments", "invoices"]);
    expect(screen.getByTestId("reassign-topic-count")).toHaveTextContent("3 chosen: invoices, orders, payments");
    expect(checkedBrokers()).toEqual(["reassign-broker-1", "reassign-broker-3"]);
    // Its offline log dir's replicas are unknown: said.
    expect(screen.getByTestId("reassign-drain-unread")).toHaveTextContent("/mnt/broken (KAFKA_STORAGE_ERROR)");
    expect(screen.queryByTestId("reassign-preset-ignored")).toBeNull();
    expect(callsTo(fetch, BROKER_2_URL)).toHaveLength(1);
    expect(callsTo(fetch, PLAN_URL, "POST")).toHaveLength(0);

    // The user may change anything before previewing.
    fireEvent.click(screen.getByRole("checkbox", { name: "invoices" }));
    fireEvent.click(screen.getByTestId("reassign-preview"));
    await screen.findByTestId("reassign-preview-table");
    expect(bodiesTo(fetch, PLAN_URL)).toEqual([{ topics: ["orders", "payments"], brokers: [1, 3], throttle_bytes_per_s: null }]);
  });

  it("is reached from the broker page", async () => {
    stubFetch(
      routes({
        "/api/v1/clusters/local/topics": json(WITH_INVOICES),
        [BROKER_2_URL]: json({ ...BROKER_2, log_dirs: BROKER_2.log_dirs.slice(0, 2) }),
        [BROKER_DEFAULTS_URL]: json(BROKER_DEFAULTS),
      }),
    );
    renderApp("/clusters/local/brokers/2");
    fireEvent.click(await screen.findByTestId("broker-drain"));
    expect(await screen.findByTestId("reassign-drain-note")).toHaveTextContent("Draining broker 2");
    expect(checkedBrokers()).toEqual(["reassign-broker-1", "reassign-broker-3"]);
    expect(screen.queryByTestId("reassign-drain-unread")).toBeNull();
  });

  it("ignores a broker that is not live, with a note", async () => {
    const fetch = await openPreset("?drain=9", {
      "/api/v1/clusters/local/brokers/9": apiError(404, "broker_not_found", "Broker 9 is not a live broker of cluster 'local'."),
    });
    expect(screen.getByTestId("reassign-preset-ignored")).toHaveTextContent("Ignored from the link: broker 9 (not a live broker).");
    expect(screen.queryByTestId("reassign-drain-note")).toBeNull();
    expect(checkedTopics()).toEqual([]);
    expect(checkedBrokers()).toEqual([]);
    expect(callsTo(fetch, PLAN_URL, "POST")).toHaveLength(0);
  });

  it("chooses the link's topics, leaving the brokers to choose, and says which it does not have", async () => {
    const fetch = await openPreset("?topics=payments,nope,audit");
    expect(screen.getByTestId("reassign-mode-topics")).toHaveAttribute("aria-pressed", "true");
    expect(checkedTopics()).toEqual(["payments", "audit"]);
    expect(checkedBrokers()).toEqual([]);
    expect(screen.getByTestId("reassign-preset-ignored")).toHaveTextContent("topic “nope” (not a topic of this cluster)");
    expect(screen.queryByTestId("reassign-drain-note")).toBeNull();
    expect(callsTo(fetch, BROKER_2_URL)).toHaveLength(0);
    expect(callsTo(fetch, PLAN_URL, "POST")).toHaveLength(0);
  });

  it("opens a replication factor change with the link's topic chosen", async () => {
    const fetch = await openPreset("?mode=rf&topic=audit");
    expect(screen.getByTestId("reassign-mode-rf")).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByTestId("reassign-rf-topic")).toHaveValue("audit");
    expect(screen.getByTestId("reassign-rf-current")).toHaveTextContent("Now replication factor 1, 1 partition.");
    expect(screen.getByTestId("reassign-rf")).toHaveValue(null);
    expect(screen.queryByTestId("reassign-preset-ignored")).toBeNull();
    fireEvent.change(screen.getByTestId("reassign-rf"), { target: { value: "3" } });
    fireEvent.click(screen.getByTestId("reassign-preview"));
    await screen.findByTestId("reassign-preview-table");
    expect(bodiesTo(fetch, PLAN_URL)).toEqual([{ topic: "audit", replication_factor: 3, throttle_bytes_per_s: null }]);
  });

  it("leaves out a replication factor change's unknown topic, with a note", async () => {
    await openPreset("?mode=rf&topic=nope");
    expect(screen.getByTestId("reassign-mode-rf")).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByTestId("reassign-rf-topic")).toHaveValue("");
    expect(screen.getByTestId("reassign-preset-ignored")).toHaveTextContent("topic “nope” (not a topic of this cluster)");
  });
});

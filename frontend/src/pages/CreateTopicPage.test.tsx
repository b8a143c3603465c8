import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { apiError, json, stubFetch } from "../test/fetchStub";
import { ADMIN, BROKERS, LOCAL, ORDERS } from "../test/fixtures";
import { renderApp } from "../test/render";

const TWO_BROKERS = { ...LOCAL, broker_count: 2, brokers: BROKERS.slice(0, 2) };

function fill(name: string) {
  fireEvent.change(screen.getByTestId("create-name"), { target: { value: name } });
}

describe("CreateTopicPage", () => {
  it("defaults to 3 partitions and RF min(3, brokers), and shows a 400 next to the field it names", async () => {
    const fetch = stubFetch({
      "/api/v1/me": json(ADMIN),
      "/api/v1/clusters/local": json(TWO_BROKERS),
      "/api/v1/clusters/local/topics": json(
        {
          error: {
            code: "invalid",
            message: "replication_factor: 3 is more than the 2 live brokers.",
            details: { field: "replication_factor" },
          },
        },
        400,
      ),
    });
    renderApp("/clusters/local/create-topic");

    expect(await screen.findByTestId("create-topic-form")).toBeInTheDocument();
    expect(screen.getByTestId("create-partitions")).toHaveValue(3);
    await screen.findByText("2 live brokers");
    expect(screen.getByTestId("create-rf")).toHaveValue(2);

    fill("events");
    fireEvent.change(screen.getByTestId("create-rf"), { target: { value: "3" } });
    fireEvent.click(screen.getByTestId("create-config-add"));
    fireEvent.change(screen.getByTestId("create-config-key-0"), { target: { value: "retention.ms" } });
    fireEvent.change(screen.getByTestId("create-config-value-0"), { target: { value: "60000" } });
    fireEvent.click(screen.getByTestId("create-config-add"));
    fireEvent.click(screen.getByTestId("create-config-remove-1"));
    fireEvent.click(screen.getByTestId("create-submit"));

    const error = await screen.findByTestId("field-error-replication_factor");
    expect(error).toHaveTextContent(/^3 is more than the 2 live brokers\.$/);
    expect(screen.getByTestId("create-rf")).toHaveAttribute("aria-invalid", "true");
    expect(screen.queryByTestId("field-error-name")).toBeNull();
    expect(screen.queryByTestId("error-banner")).toBeNull();

    const post = fetch.mock.calls.find(([url, init]) => url === "/api/v1/clusters/local/topics" && init?.method === "POST");
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      name: "events",
      partitions: 3,
      replication_factor: 3,
      configs: { "retention.ms": "60000" },
    });
  });

  it("shows a 409 next to the name and a 400 without a known field in the banner", async () => {
    let answer = apiError(409, "topic_exists", "Topic 'orders' already exists.");
    stubFetch({
      "/api/v1/me": json(ADMIN),
      "/api/v1/clusters/local": json(LOCAL),
      "/api/v1/clusters/local/topics": () => answer,
    });
    renderApp("/clusters/local/create-topic");
    await screen.findByTestId("create-topic-form");
    fill("orders");
    fireEvent.click(screen.getByTestId("create-submit"));
    expect(await screen.findByTestId("field-error-name")).toHaveTextContent("Topic 'orders' already exists.");

    answer = apiError(400, "invalid", "body: expected a JSON object.", { field: "body" });
    fireEvent.click(screen.getByTestId("create-submit"));
    expect(await screen.findByTestId("error-banner")).toHaveTextContent("Expected a JSON object.");
    expect(screen.getByTestId("error-banner")).not.toHaveTextContent("body:");
    expect(screen.queryByTestId("field-error-name")).toBeNull();
  });

  it("finds every problem Kafka would refuse before sending, each beside its field", async () => {
    const fetch = stubFetch({ "/api/v1/me": json(ADMIN), "/api/v1/clusters/local": json(LOCAL) });
    renderApp("/clusters/local/create-topic");
    await screen.findByTestId("create-topic-form");
    fill("bad name!");
    fireEvent.change(screen.getByTestId("create-partitions"), { target: { value: "0" } });
    fireEvent.change(screen.getByTestId("create-rf"), { target: { value: "1.5" } });
    fireEvent.click(screen.getByTestId("create-config-add"));
    fireEvent.change(screen.getByTestId("create-config-key-0"), { target: { value: "retention.ms" } });
    fireEvent.change(screen.getByTestId("create-config-value-0"), { target: { value: "604800000" } });
    // The value read back in human units.
    expect(screen.getByTestId("create-config-hint-0")).toHaveTextContent("= 7 d");
    fireEvent.click(screen.getByTestId("create-config-add"));
    fireEvent.change(screen.getByTestId("create-config-key-1"), { target: { value: "retention.ms" } });
    fireEvent.change(screen.getByTestId("create-config-value-1"), { target: { value: "-1" } });
    expect(screen.getByTestId("create-config-hint-1")).toHaveTextContent("= unlimited");
    fireEvent.click(screen.getByTestId("create-submit"));

    expect(await screen.findByTestId("field-error-name")).toHaveTextContent("has characters Kafka does not allow");
    expect(screen.getByTestId("field-error-partitions")).toHaveTextContent("at least 1");
    expect(screen.getByTestId("field-error-replication_factor")).toHaveTextContent("whole number");
    expect(screen.getByTestId("field-error-config-1")).toHaveTextContent("“retention.ms” is already set above");
    expect(screen.queryByTestId("field-error-config-0")).toBeNull();
    expect(screen.getByTestId("create-name")).toHaveAttribute("aria-invalid", "true");
    expect(fetch.mock.calls.filter(([, init]) => init?.method === "POST")).toEqual([]);
    // Fixing a field clears what was said about it, and only that.
    fill("events");
    expect(screen.queryByTestId("field-error-name")).toBeNull();
    expect(screen.getByTestId("field-error-partitions")).toBeInTheDocument();
  });

  it("shows every problem the server lists beside its field, configs at their row", async () => {
    stubFetch({
      "/api/v1/me": json(ADMIN),
      "/api/v1/clusters/local": json(LOCAL),
      "/api/v1/clusters/local/topics": json(
        {
          error: {
            code: "invalid",
            message: "partitions: must be at most 10000. (and 1 more)",
            details: {
              field: "partitions",
              errors: { partitions: ["must be at most 10000."], "configs.retention.ms": "configs.retention.ms: Invalid value abc for configuration retention.ms." },
            },
          },
        },
        400,
      ),
    });
    renderApp("/clusters/local/create-topic");
    await screen.findByTestId("create-topic-form");
    fill("events");
    fireEvent.click(screen.getByTestId("create-config-add"));
    fireEvent.change(screen.getByTestId("create-config-key-0"), { target: { value: "retention.ms" } });
    fireEvent.change(screen.getByTestId("create-config-value-0"), { target: { value: "abc" } });
    fireEvent.click(screen.getByTestId("create-submit"));
    expect(await screen.findByTestId("field-error-partitions")).toHaveTextContent(/^Must be at most 10000\.$/);
    expect(screen.getByTestId("field-error-config-0")).toHaveTextContent(/^Invalid value abc for configuration retention\.ms\.$/);
    expect(screen.queryByTestId("error-banner")).toBeNull();
  });

  it("opens the new topic's page on 201", async () => {
    stubFetch({
      "/api/v1/me": json(ADMIN),
      "/api/v1/clusters/local": json(LOCAL),
      "/api/v1/clusters/local/topics": json(ORDERS, 201),
      "/api/v1/clusters/local/topics/orders": json(ORDERS),
    });
    renderApp("/clusters/local/create-topic");
    await screen.findByTestId("create-topic-form");
    fill("orders");
    fireEvent.click(screen.getByTestId("create-submit"));
    expect(await screen.findByTestId("leadership-map")).toBeInTheDocument();
  });
});

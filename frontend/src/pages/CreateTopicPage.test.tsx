import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, stubFetch } from "../test/fetchStub";
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
    expect(error).toHaveTextContent("replication_factor: 3 is more than the 2 live brokers.");
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
    let answer = json({ error: { code: "topic_exists", message: "Topic 'orders' already exists.", details: {} } }, 409);
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

    answer = json({ error: { code: "invalid", message: "body: expected a JSON object.", details: { field: "body" } } }, 400);
    fireEvent.click(screen.getByTestId("create-submit"));
    expect(await screen.findByTestId("error-banner")).toHaveTextContent("body: expected a JSON object.");
    expect(screen.queryByTestId("field-error-name")).toBeNull();
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

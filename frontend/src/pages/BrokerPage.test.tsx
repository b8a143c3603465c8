import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { BrokerDetail, CurrentUser } from "../api/types";
import { BROKER_2, BROKER_2_URL, BROKER_DEFAULTS, BROKER_DEFAULTS_URL, brokerWithReplicas } from "../test/brokerFixtures";
import { apiError, json, stubFetch } from "../test/fetchStub";
import { ADMIN, BROKERS, LOCAL, ME, VIEWER } from "../test/fixtures";
import { renderApp } from "../test/render";
import { expectScreenful, giveScrollBoxHeight, renderedRowIds, scrollToEnd } from "../test/virtualTable";
import { BROKER_POLL_MS } from "./BrokerPage";

afterEach(() => {
  vi.useRealTimers();
});

/** The replica rows in table order, as "topic-partition". */
const replicaOrder = () => renderedRowIds("broker-replicas", "replica-");

async function openBroker2(detail: BrokerDetail = BROKER_2, me: CurrentUser = ME) {
  const fetch = stubFetch({ "/api/v1/me": json(me), [BROKER_2_URL]: json(detail), [BROKER_DEFAULTS_URL]: json(BROKER_DEFAULTS) });
  renderApp("/clusters/local/brokers/2");
  await screen.findByTestId("broker-log-dirs");
  return fetch;
}

describe("BrokerPage", () => {
  it("shows the broker's heading, its counts, and the overview tab as current", async () => {
    await openBroker2();
    const title = screen.getByTestId("broker-title");
    expect(title).toHaveTextContent("Broker 2");
    expect(title).toHaveTextContent("127.0.0.1:19093");
    expect(title).toHaveTextContent("rack rack-b");
    expect(within(title).getByTestId("broker-controller-badge")).toHaveTextContent("controller");
    expect(document.title).toBe("Broker 2 · local · Kafka Console");

    expect(screen.getByTestId("broker-leader-count")).toHaveTextContent("3 partition leaders");
    expect(screen.getByTestId("broker-replica-count")).toHaveTextContent("12 replicas");
    expect(screen.getByTestId("broker-offline-replica-count")).toHaveTextContent("1 offline replica");
    expect(screen.getByTestId("broker-offline-replica-count")).toHaveClass("summary-bad");
    expect(screen.getByTestId("tab-overview")).toHaveAttribute("aria-current", "page");
  });

  it("has no controller badge on another broker", async () => {
    await openBroker2({ ...BROKER_2, is_controller: false, rack: null });
    expect(screen.queryByTestId("broker-controller-badge")).toBeNull();
    expect(screen.getByTestId("broker-title")).toHaveTextContent("no rack");
  });

  it("shows each log dir's use as a bar (amber above 80 %, red above 90 %), its replicas and its error", async () => {
    await openBroker2();
    const dir0 = screen.getByTestId("log-dir-0");
    expect(dir0).toHaveAttribute("data-path", "/var/kafka/data-0");
    const bar0 = within(dir0).getByTestId("log-dir-usage-0");
    expect(bar0).toHaveAttribute("data-used-fraction", "0.75");
    expect(bar0).toHaveAttribute("data-level", "ok");
    expect(bar0).toHaveTextContent("75.0 %");
    // path, used, total, usable, bar, replicas size, replicas, error
    expect(within(dir0).getAllByRole("cell").map((c) => c.textContent)).toEqual([
      "/var/kafka/data-0", "140 GiB", "186 GiB", "46.6 GiB", "75.0 %", "2.84 GiB", "4", "—",
    ]);

    const bar1 = screen.getByTestId("log-dir-usage-1");
    expect(bar1).toHaveAttribute("data-used-fraction", "0.95");
    expect(bar1).toHaveAttribute("data-level", "critical");

    // Offline: no sizes, no bar, the error in red.
    const dir2 = screen.getByTestId("log-dir-2");
    expect(dir2).toHaveAttribute("data-path", "/mnt/broken");
    expect(screen.queryByTestId("log-dir-usage-2")).toBeNull();
    expect(within(dir2).getAllByRole("cell")[1]).toHaveTextContent("—");
    expect(within(dir2).getByTestId("log-dir-error-2")).toHaveTextContent("KAFKA_STORAGE_ERROR");
    expect(within(dir2).getByTestId("log-dir-error-2")).toHaveAttribute("data-tone", "error");
    expect(screen.queryByTestId("log-dirs-error")).toBeNull();
  });

  it("lists every replica biggest first, sorts by topic and filters by topic name", async () => {
    await openBroker2();
    expect(replicaOrder()).toEqual(["orders-2", "orders-0", "payments-0", "payments-1", "orders-1", "invoices-2"]);
    const biggest = screen.getByTestId("replica-orders-2");
    expect(biggest).toHaveAttribute("data-size", "7000000000");
    expect(within(biggest).getAllByRole("cell").map((c) => c.textContent)).toEqual([
      "orders", "2", "/var/kafka/data-1", "6.52 GiB", "0", "",
    ]);
    expect(within(biggest).getByRole("link", { name: "orders" })).toHaveAttribute("href", "/clusters/local/topics/orders");
    expect(screen.getByTestId("replica-payments-1")).toHaveTextContent("future");
    expect(screen.getByTestId("replica-payments-1")).toHaveAttribute("data-future", "true");

    const total = screen.getByTestId("broker-replicas-total");
    expect(total).toHaveTextContent("6 replicas, 9.36 GiB");
    expect(total).toHaveAttribute("data-count", "6");
    expect(total).toHaveAttribute("data-size", "10053478576");

    fireEvent.click(screen.getByTestId("sort-topic"));
    expect(replicaOrder()).toEqual(["invoices-2", "orders-0", "orders-1", "orders-2", "payments-0", "payments-1"]);
    fireEvent.click(screen.getByTestId("sort-topic"));
    expect(replicaOrder()).toEqual(["payments-1", "payments-0", "orders-2", "orders-1", "orders-0", "invoices-2"]);
    fireEvent.click(screen.getByTestId("sort-size"));
    expect(replicaOrder()[0]).toBe("orders-2");

    fireEvent.change(screen.getByTestId("broker-replicas-filter"), { target: { value: "PAY" } });
    await waitFor(() => expect(replicaOrder()).toEqual(["payments-0", "payments-1"]));
    expect(total).toHaveAttribute("data-count", "2");
    expect(total).toHaveAttribute("data-size", String(52_428_800 + 1_048_576));
    expect(total).toHaveTextContent("2 of 6 replicas, 51.0 MiB of 9.36 GiB");

    fireEvent.change(screen.getByTestId("broker-replicas-filter"), { target: { value: "nothing-like-it" } });
    await waitFor(() => expect(replicaOrder()).toEqual([]));
    expect(screen.getByTestId("broker-replicas-table")).toHaveTextContent("No replica of a topic matching the filter.");
  });

  it("shows configs with readable sources, never a sensitive value, and hides defaults on request", async () => {
    await openBroker2();
    const configs = screen.getByTestId("broker-configs");
    const names = () =>
      within(configs)
        .getAllByRole("row")
        .map((r) => r.getAttribute("data-testid"))
        .filter((id): id is string => !!id?.startsWith("broker-config-"))
        .map((id) => id.slice("broker-config-".length));
    expect(names()).toEqual([
      "auto.create.topics.enable",
      "log.cleaner.threads",
      "log.retention.hours",
      "num.io.threads",
      "sasl.jaas.config",
      "some.plugin.setting",
      "ssl.keystore.password",
    ]);

    const cells = (name: string) => within(screen.getByTestId(`broker-config-${name}`)).getAllByRole("cell");
    expect(cells("num.io.threads")[2]).toHaveTextContent("default");
    expect(cells("log.retention.hours")[2]).toHaveTextContent("static (server.properties)");
    expect(cells("log.retention.hours")[1]).toHaveTextContent("7 d");
    expect(cells("log.retention.hours")[3]).toHaveTextContent("read-only");
    expect(cells("ssl.keystore.password")[2]).toHaveTextContent("dynamic, this broker");
    expect(cells("log.cleaner.threads")[2]).toHaveTextContent("dynamic, cluster-wide");
    expect(cells("log.cleaner.threads")[3]).toHaveTextContent("");
    expect(cells("some.plugin.setting")[2]).toHaveTextContent("UNKNOWN");

    // Sensitive: "(sensitive)", muted, and never the value (even one sent by mistake).
    for (const name of ["ssl.keystore.password", "sasl.jaas.config"]) {
      expect(cells(name)[1]).toHaveTextContent(/^\(sensitive\)$/);
      expect(within(cells(name)[1]!).getByText("(sensitive)")).toHaveClass("muted");
    }
    expect(configs).not.toHaveTextContent("secret-value");
    expect(document.body).not.toHaveTextContent("secret-value");

    fireEvent.click(screen.getByTestId("broker-configs-changed-only"));
    expect(screen.queryByTestId("broker-config-num.io.threads")).toBeNull();
    expect(screen.queryByTestId("broker-config-auto.create.topics.enable")).toBeNull();
    expect(names()).toHaveLength(5);
    expect(screen.getByTestId("broker-configs-count")).toHaveTextContent("5 of 7 configs");

    fireEvent.change(screen.getByTestId("broker-configs-filter"), { target: { value: "LOG." } });
    await waitFor(() => expect(names()).toEqual(["log.cleaner.threads", "log.retention.hours"]));
    fireEvent.click(screen.getByTestId("broker-configs-changed-only"));
    fireEvent.change(screen.getByTestId("broker-configs-filter"), { target: { value: "threads" } });
    await waitFor(() => expect(names()).toEqual(["log.cleaner.threads", "num.io.threads"]));
  });

  it("lists the API versions by key", async () => {
    await openBroker2();
    const rows = within(screen.getByTestId("broker-api-versions"))
      .getAllByRole("row")
      .slice(1)
      .map((r) => r.getAttribute("data-testid"));
    expect(rows).toEqual(["api-version-0", "api-version-1", "api-version-3", "api-version-18"]);
    expect(within(screen.getByTestId("api-version-1")).getAllByRole("cell").map((c) => c.textContent)).toEqual([
      "Fetch", "1", "0", "16",
    ]);
  });

  it("says why the log dirs could not be read instead of their table, and shows the rest", async () => {
    await openBroker2({ ...BROKER_2, log_dirs: [], log_dirs_error: "The broker does not support DescribeLogDirs v4." });
    const notice = screen.getByTestId("log-dirs-error");
    expect(notice).toHaveTextContent("The broker does not support DescribeLogDirs v4.");
    expect(screen.getByTestId("broker-log-dirs")).toContainElement(notice);
    expect(screen.queryByTestId("broker-log-dirs-table")).toBeNull();
    expect(screen.queryByTestId("log-dir-0")).toBeNull();
    expect(screen.getByTestId("broker-replicas-table")).toHaveTextContent("the log directories could not be read");
    expect(screen.getByTestId("broker-config-num.io.threads")).toBeInTheDocument();
    expect(screen.getByTestId("api-version-0")).toBeInTheDocument();
    expect(screen.getByTestId("broker-default-log.cleaner.threads")).toBeInTheDocument();
    expect(screen.queryByTestId("error-banner")).toBeNull();
  });

  it("shows a broker that is not live (404) in the error banner", async () => {
    stubFetch({
      "/api/v1/me": json(ME),
      "/api/v1/clusters/local/brokers/9": apiError(404, "broker_not_found", "Broker 9 is not a live broker of cluster 'local'."),
    });
    renderApp("/clusters/local/brokers/9");
    const banner = await screen.findByTestId("error-banner");
    expect(banner).toHaveTextContent("Could not load broker 9");
    expect(banner).toHaveTextContent("Broker 9 is not a live broker of cluster 'local'.");
    expect(banner).toHaveTextContent("HTTP 404");
    expect(screen.queryByTestId("broker-log-dirs")).toBeNull();
    expect(screen.getByTestId("broker-title")).toHaveTextContent("Broker 9");
  });

  it("asks nothing for a path that is no broker id", async () => {
    const fetch = stubFetch({ "/api/v1/me": json(ME) });
    renderApp("/clusters/local/brokers/abc");
    expect(await screen.findByTestId("error-banner")).toHaveTextContent('"abc" is not a broker id.');
    expect(fetch.mock.calls.map(([url]) => String(url)).filter((url) => url.includes("/brokers/"))).toEqual([]);
  });

  it("polls, so the log dirs' use follows the disk", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    let detail = BROKER_2;
    stubFetch({ "/api/v1/me": json(ME), [BROKER_2_URL]: () => json(detail) });
    renderApp("/clusters/local/brokers/2");
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByTestId("log-dir-usage-0")).toHaveAttribute("data-used-fraction", "0.75");

    detail = { ...BROKER_2, log_dirs: [{ ...BROKER_2.log_dirs[0]!, usable_bytes: 30_000_000_000 }] };
    await act(() => vi.advanceTimersByTimeAsync(BROKER_POLL_MS));
    expect(screen.getByTestId("log-dir-usage-0")).toHaveAttribute("data-used-fraction", "0.85");
    expect(screen.getByTestId("log-dir-usage-0")).toHaveAttribute("data-level", "warn");
    expect(screen.queryByTestId("log-dir-1")).toBeNull();
  });

  it("is reached from the cluster overview's broker ids", async () => {
    stubFetch({
      "/api/v1/me": json(ME),
      "/api/v1/clusters/local": json(LOCAL),
      "/api/v1/clusters/local/brokers": json(BROKERS),
      "/api/v1/clusters/local/topics": json([]),
      [BROKER_2_URL]: json(BROKER_2),
    });
    renderApp("/clusters/local");
    const link = await screen.findByTestId("broker-link-2");
    expect(link).toHaveAttribute("href", "/clusters/local/brokers/2");
    expect(screen.getByTestId("broker-link-3")).toHaveAttribute("href", "/clusters/local/brokers/3");
    fireEvent.click(link);
    expect(await screen.findByTestId("broker-log-dirs")).toBeInTheDocument();
    expect(screen.getByTestId("broker-title")).toHaveTextContent("Broker 2");
  });
});

describe("BrokerPage drain link", () => {
  it("offers admins to move the broker's replicas off it, on the Reassign tab", async () => {
    await openBroker2(BROKER_2, ADMIN);
    const link = await screen.findByTestId("broker-drain");
    expect(link).toHaveTextContent("Move replicas off this broker…");
    expect(link).toHaveAttribute("href", "/clusters/local/reassignments?drain=2");
  });

  it("is not offered below admin", async () => {
    for (const user of [VIEWER, ME]) {
      await openBroker2(BROKER_2, user);
      await screen.findByTestId("broker-replicas");
      expect(await screen.findByTestId("current-user")).toHaveAttribute("data-role", user.role);
      expect(screen.queryByTestId("broker-drain")).toBeNull();
      cleanup();
    }
  });
});

describe("BrokerPage with many replicas", () => {
  giveScrollBoxHeight("broker-replicas");

  it("renders only a screenful of 20,000 replicas, biggest first, down to the smallest at the end", async () => {
    await openBroker2(brokerWithReplicas(20_000));
    const first = replicaOrder();
    expectScreenful(first);
    expect(first[0]).toBe("big-19999");
    expect(screen.getByTestId("broker-replicas-total")).toHaveAttribute("data-count", "20000");

    await scrollToEnd("broker-replicas", 20_000);
    const last = replicaOrder();
    expectScreenful(last);
    expect(last[last.length - 1]).toBe("big-0");
  });
});

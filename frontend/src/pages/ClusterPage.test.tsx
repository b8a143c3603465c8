import { act, cleanup, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FakeWebSocket, pushLive } from "../test/fakeWebSocket";
import { apiError, json, stubFetch } from "../test/fetchStub";
import { metadataMessage } from "../test/liveFixtures";
import type { Broker, ClusterDetail } from "../api/types";
import { BROKERS, LOCAL, LOCAL_DISKS_UNKNOWN, ME, MISCONFIGURED_TOPICS, TOPICS } from "../test/fixtures";
import { renderApp } from "../test/render";
import { CLUSTER_POLL_MS } from "./ClusterPage";

const TIMEOUT = {
  error: {
    code: "kafka_timeout",
    message: "Kafka did not answer describe_cluster in time (5.0 s).",
    details: {},
  },
};

afterEach(() => {
  vi.useRealTimers();
});

describe("ClusterPage", () => {
  it("shows the brokers with the controller badge on the controller's row", async () => {
    stubFetch({
      "/api/v1/me": json(ME),
      "/api/v1/clusters/local": json(LOCAL),
      "/api/v1/clusters/local/brokers": json(BROKERS),
    });
    renderApp("/clusters/local");

    const table = await screen.findByTestId("brokers-table");
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((r) => r.getAttribute("data-testid"))).toEqual([
      "broker-row-1",
      "broker-row-2",
      "broker-row-3",
    ]);

    const badges = screen.getAllByTestId("controller-badge");
    expect(badges).toHaveLength(1);
    expect(screen.getByTestId("broker-row-2")).toContainElement(badges[0]!);

    const row3 = screen.getByTestId("broker-row-3");
    expect(row3).toHaveTextContent("127.0.0.1:19094");
    expect(within(row3).getByText("—")).toBeInTheDocument(); // rack null
    expect(screen.getByTestId("broker-row-1")).toHaveTextContent("rack-a");

    expect(screen.getByTestId("broker-count")).toHaveTextContent("3 brokers online");
    expect(screen.getByTestId("broker-count")).toHaveAttribute("data-count", "3");
    expect(screen.getByTestId("offline-replicas")).toHaveTextContent("1 offline replica");
    expect(screen.getByTestId("cluster-id")).toHaveTextContent("MkU3OEVBNTcwNTJENDM2Qg");
    expect(screen.getByTestId("cluster-controller")).toHaveTextContent("broker 2 (127.0.0.1:19093)");
    expect(screen.getByTestId("updated-at")).toHaveTextContent(/^updated \d\d:\d\d:\d\d$/);
    expect(screen.queryByTestId("error-banner")).not.toBeInTheDocument();
  });

  it("shows a 504 in the error banner", async () => {
    stubFetch({
      "/api/v1/me": json(ME),
      "/api/v1/clusters/local": json(TIMEOUT, 504),
      "/api/v1/clusters/local/brokers": json(TIMEOUT, 504),
    });
    renderApp("/clusters/local");

    const banner = await screen.findByTestId("error-banner");
    expect(banner).toHaveTextContent("Kafka did not answer describe_cluster in time (5.0 s).");
    expect(banner).toHaveTextContent("HTTP 504");
    expect(screen.queryByTestId("brokers-table")).not.toBeInTheDocument();
    expect(screen.queryByTestId("loading")).not.toBeInTheDocument();
  });

  it("polls, keeps the last good data greyed out on a 504, and recovers", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    let down = false;
    let brokers = BROKERS;
    const fetch = stubFetch({
      "/api/v1/me": json(ME),
      "/api/v1/clusters/local": () => (down ? json(TIMEOUT, 504) : json(LOCAL)),
      "/api/v1/clusters/local/brokers": () => (down ? json(TIMEOUT, 504) : json(brokers)),
    });
    const flush = () => act(() => vi.advanceTimersByTimeAsync(0));

    renderApp("/clusters/local");
    await flush();
    expect(screen.getByTestId("broker-count")).toHaveTextContent("3");
    const callsAfterFirst = fetch.mock.calls.length;

    down = true;
    await act(() => vi.advanceTimersByTimeAsync(CLUSTER_POLL_MS));
    expect(fetch.mock.calls.length).toBeGreaterThan(callsAfterFirst);
    expect(screen.getByTestId("error-banner")).toHaveTextContent("Kafka did not answer");
    expect(screen.getByTestId("error-banner")).toHaveTextContent("Showing the last data received.");
    expect(screen.getByTestId("brokers-table").closest(".stale")).not.toBeNull();
    expect(screen.getByTestId("broker-count")).toHaveTextContent("3");

    down = false;
    brokers = BROKERS.filter((b) => b.id !== 3);
    await act(() => vi.advanceTimersByTimeAsync(CLUSTER_POLL_MS));
    expect(screen.queryByTestId("error-banner")).not.toBeInTheDocument();
    expect(screen.getByTestId("brokers-table").closest(".stale")).toBeNull();
    expect(screen.getByTestId("broker-count")).toHaveTextContent("2 brokers online");
    expect(screen.queryByTestId("broker-row-3")).not.toBeInTheDocument();
  });

  it("shows a 404 for an unknown cluster", async () => {
    stubFetch({
      "/api/v1/me": json(ME),
      "/api/v1/clusters/nope": apiError(404, "cluster_not_found", "No cluster named 'nope'."),
    });
    renderApp("/clusters/nope");
    expect(await screen.findByTestId("error-banner")).toHaveTextContent("No cluster named 'nope'.");
  });
});

describe("ClusterPage overview", () => {
  it("shows cluster-wide partition health linking to the filtered topic list, and the leadership chart", async () => {
    const fetch = stubFetch({
      "/api/v1/me": json(ME),
      "/api/v1/clusters/local": json(LOCAL),
      "/api/v1/clusters/local/brokers": json(BROKERS),
      "/api/v1/clusters/local/topics": json(TOPICS),
    });
    renderApp("/clusters/local");

    const under = await screen.findByTestId("health-under_replicated");
    expect(fetch).toHaveBeenCalledWith("/api/v1/clusters/local/topics?include_internal=true", expect.anything());
    expect(under).toHaveAttribute("data-count", "7"); // 2 + 1 + 4, internal topics included
    expect(under).toHaveTextContent("7");
    expect(under).toHaveTextContent("in 3 topics");
    expect(under).toHaveAttribute("href", "/clusters/local/topics?filter=under_replicated&internal=true");
    expect(screen.getByTestId("health-under_min_isr")).toHaveAttribute("data-count", "1");
    expect(screen.getByTestId("health-unavailable")).toHaveTextContent("1");
    expect(screen.getByTestId("health-unavailable")).toHaveAttribute("href", "/clusters/local/topics?filter=unavailable&internal=true");

    const chart = screen.getByTestId("leadership-chart");
    expect(chart).toHaveAttribute("data-brokers", "3");
    expect(chart).toHaveTextContent("Leaders per broker: min 3, max 5, mean 4");
    expect(screen.getByTestId("leader-skew")).toHaveAttribute("data-skew", "25");
    // recharts (loaded lazily) draws one bar per broker and series
    await waitFor(() => expect(chart.querySelectorAll(".recharts-bar-rectangle")).toHaveLength(6));
    expect(chart).toHaveTextContent("broker 1");

    expect(screen.getByTestId("tab-overview")).toHaveAttribute("aria-current", "page");
    expect(screen.getByTestId("tab-topics")).toHaveAttribute("href", "/clusters/local/topics");
  });

  it("shows under min ISR amber when only misconfigured topics are under it, with a card of their own", async () => {
    const healthy = TOPICS.map((t) => ({ ...t, under_min_isr_count: 0, under_min_isr_outage_count: 0, unavailable_count: 0 }));
    stubFetch({
      "/api/v1/me": json(ME),
      "/api/v1/clusters/local": json(LOCAL),
      "/api/v1/clusters/local/brokers": json(BROKERS),
      "/api/v1/clusters/local/topics": json([...healthy, MISCONFIGURED_TOPICS[0]!]), // ledger: RF 1, min ISR 2
    });
    renderApp("/clusters/local");

    const under = await screen.findByTestId("health-under_min_isr");
    expect(under).toHaveAttribute("data-count", "4"); // TopicCommand's count, unchanged
    expect(under).toHaveClass("health-warn");
    expect(under).not.toHaveClass("health-error");
    expect(screen.getByTestId("health-under_min_isr-split")).toHaveTextContent("0 with lost replicas, 4 misconfigured");
    const card = screen.getByTestId("health-min_isr_unreachable");
    expect(card).toHaveAttribute("data-count", "4");
    expect(card).toHaveClass("health-warn");
    expect(card).toHaveTextContent("Misconfigured partitions (RF < min ISR)");
    expect(card).toHaveTextContent("in 1 topic");
    expect(card).toHaveAttribute("href", "/clusters/local/topics?filter=min_isr_unreachable&internal=true");
  });

  it("keeps under min ISR red when a topic lost replicas, misconfigured topics or not", async () => {
    stubFetch({
      "/api/v1/me": json(ME),
      "/api/v1/clusters/local": json(LOCAL),
      "/api/v1/clusters/local/brokers": json(BROKERS),
      "/api/v1/clusters/local/topics": json([...TOPICS, ...MISCONFIGURED_TOPICS]),
    });
    renderApp("/clusters/local");

    const under = await screen.findByTestId("health-under_min_isr");
    expect(under).toHaveAttribute("data-count", "7"); // payments 1 + ledger 4 + invoices 2
    expect(under).toHaveClass("health-error");
    expect(screen.getByTestId("health-under_min_isr-split")).toHaveTextContent("2 with lost replicas, 5 misconfigured");
    expect(screen.getByTestId("health-min_isr_unreachable")).toHaveAttribute("data-count", "5");
    expect(screen.getByTestId("health-min_isr_unreachable")).toHaveTextContent("in 2 topics");
  });

  it("shows no misconfiguration when there is none", async () => {
    stubFetch({
      "/api/v1/me": json(ME),
      "/api/v1/clusters/local": json(LOCAL),
      "/api/v1/clusters/local/brokers": json(BROKERS),
      "/api/v1/clusters/local/topics": json(TOPICS),
    });
    renderApp("/clusters/local");
    const card = await screen.findByTestId("health-min_isr_unreachable");
    expect(card).toHaveAttribute("data-count", "0");
    expect(card).not.toHaveClass("health-warn");
    expect(screen.getByTestId("health-under_min_isr")).toHaveClass("health-error");
    expect(screen.queryByTestId("health-under_min_isr-split")).toBeNull();
  });

  it("keeps the brokers when only the topic health fails", async () => {
    stubFetch({
      "/api/v1/me": json(ME),
      "/api/v1/clusters/local": json(LOCAL),
      "/api/v1/clusters/local/brokers": json(BROKERS),
      "/api/v1/clusters/local/topics": json(TIMEOUT, 504),
    });
    renderApp("/clusters/local");
    expect(await screen.findByTestId("health-error")).toHaveTextContent("Kafka did not answer");
    expect(screen.getByTestId("brokers-table")).toBeInTheDocument();
    expect(screen.getByTestId("health-unavailable")).toHaveTextContent("—");
    expect(screen.queryByTestId("error-banner")).toBeNull();
  });
});

describe("ClusterPage disks and balance", () => {
  async function openOverview(detail: ClusterDetail = LOCAL, brokers: Broker[] = BROKERS) {
    stubFetch({
      "/api/v1/me": json(ME),
      "/api/v1/clusters/local": json(detail),
      "/api/v1/clusters/local/brokers": json(brokers),
      "/api/v1/clusters/local/topics": json(TOPICS),
    });
    renderApp("/clusters/local");
    await screen.findByTestId("brokers-table");
  }

  it("shows each broker's disk use as a bar (amber above 80 %, red above 90 %) and its data", async () => {
    await openOverview();
    const disk1 = screen.getByTestId("broker-disk-1");
    expect(disk1).toHaveAttribute("data-used-fraction", "0.6");
    expect(disk1).toHaveTextContent("60.0 %");
    expect(disk1).toHaveTextContent("559 GiB of 931 GiB"); // 600 GB of 1 TB
    expect(within(disk1).getByRole("meter")).toHaveAttribute("data-level", "ok");
    expect(screen.getByTestId("broker-disk-2")).toHaveAttribute("data-used-fraction", "0.85");
    expect(within(screen.getByTestId("broker-disk-2")).getByRole("meter")).toHaveAttribute("data-level", "warn");
    expect(screen.getByTestId("broker-disk-3")).toHaveAttribute("data-used-fraction", "0.95");
    expect(within(screen.getByTestId("broker-disk-3")).getByRole("meter")).toHaveAttribute("data-level", "critical");

    const data3 = screen.getByTestId("broker-data-3");
    expect(data3).toHaveAttribute("data-bytes", String(160 * 1024 ** 3));
    expect(data3).toHaveTextContent(/^160 GiB$/);
    expect(screen.getByTestId("broker-data-1")).toHaveTextContent(/^100 GiB$/);
    // The cells are the row's last two, under their headers.
    const headers = within(screen.getByTestId("brokers-table")).getAllByRole("columnheader").map((h) => h.textContent);
    expect(headers.slice(-2)).toEqual(["Disk", "Data"]);
    expect(within(screen.getByTestId("broker-row-3")).getAllByRole("cell").at(-1)).toBe(data3);
  });

  it("says how far the busiest broker is above the mean in leaders and in data", async () => {
    await openOverview();
    const balance = screen.getByTestId("broker-skew");
    const leaders = within(balance).getByTestId("skew-leaders");
    // leaders 5, 3, 4: mean 4, broker 1 25 % above
    expect(leaders).toHaveAttribute("data-skew", "0.25");
    expect(leaders).toHaveTextContent(/^leaders \+25 % on broker 1$/);
    expect(leaders).toHaveClass("summary-warn");
    // data 100, 100, 160 GiB: mean 120, broker 3 33 % above
    const bytes = within(balance).getByTestId("skew-bytes");
    expect(Number(bytes.getAttribute("data-skew"))).toBeCloseTo(1 / 3);
    expect(bytes).toHaveTextContent(/^data \+33 % on broker 3$/);
  });

  it("says balanced under 10 %, and for a single broker", async () => {
    const even = BROKERS.map((b) => ({ ...b, leader_count: b.id === 1 ? 43 : 40 }));
    const sameData: ClusterDetail = { ...LOCAL, brokers: LOCAL.brokers.map((b) => ({ ...b, replicas_size_bytes: 1_000 + b.id })) };
    await openOverview(sameData, even);
    expect(screen.getByTestId("skew-leaders")).toHaveTextContent(/^leaders balanced$/); // 43 of mean 41: +4.9 %
    expect(Number(screen.getByTestId("skew-leaders").getAttribute("data-skew"))).toBeCloseTo(43 / 41 - 1);
    expect(screen.getByTestId("skew-leaders")).not.toHaveClass("summary-warn");
    expect(screen.getByTestId("skew-bytes")).toHaveTextContent(/^data balanced$/);
    cleanup();

    await openOverview(LOCAL, BROKERS.filter((b) => b.id === 3));
    expect(screen.getByTestId("skew-leaders")).toHaveAttribute("data-skew", "0");
    expect(screen.getByTestId("skew-leaders")).toHaveTextContent(/^leaders balanced$/);
    expect(screen.getByTestId("skew-bytes")).toHaveAttribute("data-skew", "0");
    expect(screen.getByTestId("skew-bytes")).toHaveTextContent(/^data balanced$/);
  });

  it("shows — for unknown disks and data, and the data skew unknown", async () => {
    await openOverview(LOCAL_DISKS_UNKNOWN);
    for (const id of [1, 2, 3]) {
      const disk = screen.getByTestId(`broker-disk-${id}`);
      expect(disk).toHaveTextContent(/^—$/);
      expect(disk).not.toHaveAttribute("data-used-fraction");
      expect(within(disk).queryByRole("meter")).toBeNull();
      expect(screen.getByTestId(`broker-data-${id}`)).toHaveTextContent(/^—$/);
      expect(screen.getByTestId(`broker-data-${id}`)).not.toHaveAttribute("data-bytes");
    }
    expect(screen.getByTestId("skew-bytes")).toHaveTextContent(/^data unknown$/);
    expect(screen.getByTestId("skew-bytes")).not.toHaveAttribute("data-skew");
    expect(screen.getByTestId("skew-leaders")).toHaveAttribute("data-skew", "0.25");
  });

  it("counts the data skew unknown when one broker's data is, or the cluster does not list a live broker", async () => {
    const oneUnknown: ClusterDetail = {
      ...LOCAL,
      brokers: LOCAL.brokers.map((b) => (b.id === 2 ? { ...b, replicas_size_bytes: null } : b)),
    };
    await openOverview(oneUnknown);
    expect(screen.getByTestId("skew-bytes")).toHaveTextContent("data unknown");
    expect(screen.getByTestId("broker-data-2")).toHaveTextContent(/^—$/);
    expect(screen.getByTestId("broker-data-3")).toHaveAttribute("data-bytes", String(160 * 1024 ** 3));
    expect(screen.getByTestId("broker-disk-2")).toHaveAttribute("data-used-fraction", "0.85");
    cleanup();

    const newcomer: Broker = { ...BROKERS[0]!, id: 4, port: 19095, leader_count: 4 };
    await openOverview(LOCAL, [...BROKERS, newcomer]);
    expect(screen.getByTestId("broker-disk-4")).toHaveTextContent(/^—$/);
    expect(screen.getByTestId("skew-bytes")).toHaveTextContent("data unknown");
  });
});

describe("ClusterPage live", () => {
  it("refetches at once when the metadata socket reports a change, and shows the live dot", async () => {
    let brokers = BROKERS;
    const fetch = stubFetch({
      "/api/v1/me": json(ME),
      "/api/v1/clusters/local": json(LOCAL),
      "/api/v1/clusters/local/brokers": () => json(brokers),
      "/api/v1/clusters/local/topics": json(TOPICS),
    });
    renderApp("/clusters/local");
    await screen.findByTestId("brokers-table");
    const socket = FakeWebSocket.last("/metadata");
    expect(socket.url).toMatch(/^ws:\/\/[^/]+\/ws\/clusters\/local\/metadata$/);
    await pushLive(socket);
    expect(socket.sent).toEqual([]);
    expect(screen.getByTestId("live-indicator")).toHaveAttribute("data-status", "live");
    const brokerCalls = () => fetch.mock.calls.filter(([url]) => String(url) === "/api/v1/clusters/local/brokers").length;
    expect(brokerCalls()).toBe(1);

    brokers = BROKERS.filter((b) => b.id !== 3);
    await pushLive(socket, metadataMessage({ brokers: [], changes: [] }));
    await waitFor(() => expect(screen.getByTestId("broker-count")).toHaveTextContent("2 brokers online"));
    expect(brokerCalls()).toBe(2);
  });
});

import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, stubFetch } from "../test/fetchStub";
import { CLUSTERS, ME } from "../test/fixtures";
import { renderApp } from "../test/render";

describe("ClustersPage", () => {
  it("renders one row per cluster from GET /clusters", async () => {
    const fetch = stubFetch({ "/api/v1/me": json(ME), "/api/v1/clusters": json(CLUSTERS) });
    renderApp("/");

    const table = await screen.findByTestId("clusters-table");
    expect(within(table).getAllByRole("row")).toHaveLength(1 + CLUSTERS.length);

    const local = screen.getByTestId("cluster-row-local");
    expect(within(local).getByRole("link", { name: "local" })).toHaveAttribute("href", "/clusters/local");
    expect(local).toHaveTextContent("127.0.0.1:19092,127.0.0.1:19093,127.0.0.1:19094");
    expect(local).toHaveTextContent("MkU3OEVBNTcwNTJENDM2Qg");
    expect(within(local).getByText("reachable")).toHaveAttribute("data-tone", "ok");
    const cells = within(local).getAllByRole("cell");
    expect(cells[3]).toHaveTextContent("2"); // controller id
    expect(cells[4]).toHaveTextContent("3"); // broker count

    const staging = screen.getByTestId("cluster-row-staging");
    expect(within(staging).getByText("unreachable")).toHaveAttribute("data-tone", "error");
    expect(within(staging).getAllByText("—")).toHaveLength(3);

    expect(await screen.findByTestId("current-user")).toHaveTextContent("alice");
    expect(screen.getByTestId("current-user")).toHaveTextContent("operator");
    expect(screen.queryByTestId("error-banner")).not.toBeInTheDocument();
    expect(fetch).toHaveBeenCalledWith("/api/v1/clusters", expect.anything());
  });

  it("marks the protected clusters (their changes wait for a second person's approval)", async () => {
    const [local, staging] = CLUSTERS;
    stubFetch({ "/api/v1/me": json(ME), "/api/v1/clusters": json([{ ...local, protected: true }, { ...staging, protected: false }]) });
    renderApp("/");
    const row = await screen.findByTestId("cluster-row-local");
    expect(within(row).getByTestId("cluster-protected-local")).toHaveTextContent("protected");
    expect(within(screen.getByTestId("cluster-row-staging")).queryByText("protected")).toBeNull();
  });

  it("says which entries reach the same Kafka cluster", async () => {
    const [local, staging] = CLUSTERS;
    const clusters = [
      { ...local, same_cluster_as: ["local-secure"] },
      { ...local, name: "local-secure", bootstrap_servers: "127.0.0.1:19096", same_cluster_as: ["local"] },
      { ...staging, same_cluster_as: [] },
    ];
    stubFetch({ "/api/v1/me": json(ME), "/api/v1/clusters": json(clusters) });
    renderApp("/");

    const local0 = await screen.findByTestId("cluster-row-local");
    expect(within(local0).getByTestId("same-cluster-as")).toHaveTextContent("same cluster as local-secure");
    const secure = screen.getByTestId("cluster-row-local-secure");
    expect(within(secure).getByTestId("same-cluster-as")).toHaveTextContent(/^same cluster as local$/);
    expect(within(screen.getByTestId("cluster-row-staging")).queryByTestId("same-cluster-as")).toBeNull();
  });

  it("shows the API's message in the error banner when the list fails", async () => {
    stubFetch({
      "/api/v1/me": json(ME),
      "/api/v1/clusters": json({ error: { code: "internal_error", message: "The server failed." } }, 500),
    });
    renderApp("/");
    expect(await screen.findByTestId("error-banner")).toHaveTextContent("The server failed.");
    expect(screen.queryByTestId("clusters-table")).not.toBeInTheDocument();
  });
});

describe("routing", () => {
  it("shows a not-found page for unknown paths", async () => {
    stubFetch({ "/api/v1/me": json(ME) });
    renderApp("/no/such/page");
    expect(await screen.findByTestId("not-found")).toHaveTextContent("/no/such/page");
    expect(screen.getByRole("link", { name: "Back to the clusters" })).toHaveAttribute("href", "/");
  });
});

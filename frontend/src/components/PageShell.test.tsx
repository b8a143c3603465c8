import { fireEvent, render, screen, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../api/client";
import { PageShell, Stale } from "./PageShell";

const wrap = (ui: ReactNode) => render(<MemoryRouter initialEntries={["/clusters/local/topics"]}>{ui}</MemoryRouter>);

describe("PageShell", () => {
  it("renders the breadcrumb (links except the last step), title, update time, tabs, heading and actions", () => {
    wrap(
      <PageShell
        crumbs={[{ label: "Clusters", to: "/" }, { label: "local", to: "/clusters/local" }, { label: "Topics" }]}
        title="local"
        updatedAt={new Date("2026-07-01T09:30:05")}
        tabsOf="local"
        heading={<span>orders</span>}
        actions={<div data-testid="toolbar">search</div>}
      >
        <p>body</p>
      </PageShell>,
    );
    const crumbs = screen.getByRole("navigation", { name: "Breadcrumb" });
    expect(crumbs).toHaveTextContent("Clusters / local / Topics");
    expect(within(crumbs).getByRole("link", { name: "Clusters" })).toHaveAttribute("href", "/");
    expect(within(crumbs).getByRole("link", { name: "local" })).toHaveAttribute("href", "/clusters/local");
    expect(within(crumbs).queryByRole("link", { name: "Topics" })).toBeNull();
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("local");
    expect(screen.getByTestId("updated-at")).toHaveTextContent("updated 09:30:05");
    expect(screen.getByTestId("tab-topics")).toHaveAttribute("aria-current", "page");
    expect(screen.getByRole("heading", { level: 2 })).toHaveTextContent("orders");
    expect(screen.getByTestId("toolbar")).toBeInTheDocument();
    expect(screen.getByText("body")).toBeInTheDocument();
    // No load state given: no banner, no skeleton, the content not wrapped for dimming.
    expect(screen.queryByTestId("error-banner")).toBeNull();
    expect(screen.queryByTestId("loading")).toBeNull();
    expect(screen.getByText("body").parentElement).not.toHaveAttribute("data-stale");
  });

  it("shows a skeleton on the first load, an error without data, then stale data dimmed under the error", () => {
    const retry = vi.fn();
    const shell = (props: { loading: boolean; error: Error | null; data: string | undefined }) => (
      <MemoryRouter>
        <PageShell
          title="Clusters"
          actions={<div data-testid="toolbar" />}
          loading={props.loading}
          error={props.error}
          stale={!!props.error && props.data !== undefined}
          what="the topics"
          loadingLabel="Loading topics…"
          skeletonRows={4}
          onRetry={retry}
        >
          {props.data && <p>{props.data}</p>}
        </PageShell>
      </MemoryRouter>
    );
    const { rerender } = render(shell({ loading: true, error: null, data: undefined }));
    expect(screen.getByTestId("loading")).toHaveTextContent("Loading topics…");
    expect(screen.getByTestId("toolbar")).toBeInTheDocument(); // actions show in every state
    expect(screen.queryByTestId("error-banner")).toBeNull();

    rerender(shell({ loading: false, error: new ApiError(504, "kafka_timeout", "Kafka did not answer."), data: undefined }));
    expect(screen.queryByTestId("loading")).toBeNull();
    const banner = screen.getByTestId("error-banner");
    expect(banner).toHaveTextContent("Could not load the topics: Kafka did not answer.");
    expect(banner).toHaveTextContent("HTTP 504 · kafka_timeout");
    expect(banner).not.toHaveTextContent("Showing the last data received.");
    expect(document.querySelector("[data-stale]")).toBeNull(); // no data: nothing to dim

    rerender(shell({ loading: false, error: null, data: "rows" }));
    expect(screen.queryByTestId("error-banner")).toBeNull();
    expect(screen.getByText("rows").parentElement).toHaveAttribute("data-stale", "false");
    expect(screen.getByText("rows").closest(".stale")).toBeNull();

    rerender(shell({ loading: false, error: new Error("down"), data: "rows" }));
    expect(screen.getByTestId("error-banner")).toHaveTextContent("Could not refresh the topics: down");
    expect(screen.getByTestId("error-banner")).toHaveTextContent("Showing the last data received.");
    expect(screen.getByText("rows").closest(".stale")).toHaveAttribute("data-stale", "true");
    fireEvent.click(screen.getByRole("button", { name: "Retry now" }));
    expect(retry).toHaveBeenCalledTimes(1);
  });

  it("leaves the dimming to the page with dimStale={false}", () => {
    wrap(
      <PageShell title="local" error={new Error("down")} stale what="group g" dimStale={false}>
        <Stale when>
          <p>facts</p>
        </Stale>
        <div>toolbar</div>
      </PageShell>,
    );
    expect(screen.getByText("facts").closest(".stale")).not.toBeNull();
    expect(screen.getByText("toolbar").closest(".stale")).toBeNull();
    expect(screen.getByTestId("error-banner")).toHaveTextContent("Could not refresh group g");
  });

  it("takes an extra class and test id for the page", () => {
    wrap(<PageShell title="Page not found" className="not-found" testId="not-found" />);
    expect(screen.getByTestId("not-found")).toHaveClass("page", "not-found");
  });
});

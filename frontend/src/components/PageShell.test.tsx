import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it, vi } from "vitest";
import { LoadState, PageShell, Stale } from "./PageShell";

const wrap = (ui: React.ReactNode) => render(<MemoryRouter>{ui}</MemoryRouter>);

describe("PageShell", () => {
  it("renders the breadcrumb with links except the last step, the title and the tabs", () => {
    wrap(
      <PageShell crumbs={[{ label: "Clusters", to: "/" }, { label: "local" }]} title="local" tabsOf="local">
        <p>body</p>
      </PageShell>,
    );
    const crumbs = screen.getByRole("navigation", { name: "Breadcrumb" });
    expect(crumbs).toHaveTextContent("Clusters / local");
    expect(screen.getByRole("link", { name: "Clusters" })).toHaveAttribute("href", "/");
    expect(screen.queryByRole("link", { name: "local" })).toBeNull();
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("local");
    expect(screen.getByText("body")).toBeInTheDocument();
  });

  it("shows a skeleton on the first load, then an error that keeps the data as stale", () => {
    const retry = vi.fn();
    const { rerender } = wrap(
      <LoadState hasData={false} error={null} loading what="the topics" loadingLabel="Loading topics…" />,
    );
    expect(screen.getByTestId("loading")).toHaveTextContent("Loading topics…");
    rerender(
      <MemoryRouter>
        <LoadState hasData error={new Error("Kafka did not answer.")} loading={false} what="the topics" loadingLabel="x" onRetry={retry} />
        <Stale when>
          <p>rows</p>
        </Stale>
      </MemoryRouter>,
    );
    expect(screen.queryByTestId("loading")).toBeNull();
    expect(screen.getByTestId("error-banner")).toHaveTextContent("Could not refresh the topics");
    expect(screen.getByText("rows").parentElement).toHaveAttribute("data-stale", "true");
  });

  it("says 'load' when there is no data yet", () => {
    wrap(<LoadState hasData={false} error={new Error("down")} loading={false} what="the groups" loadingLabel="x" />);
    expect(screen.getByTestId("error-banner")).toHaveTextContent("Could not load the groups");
  });
});

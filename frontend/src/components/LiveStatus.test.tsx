import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { CONNECTING, type LiveState } from "../lib/liveConnection";
import { LagStatusBadge, RetentionRiskBadge } from "./LagStatusBadge";
import { LiveBanner, LiveIndicator } from "./LiveStatus";
import { PageShell } from "./PageShell";

const state = (patch: Partial<LiveState>): LiveState => ({ ...CONNECTING, ...patch });

describe("LiveIndicator and LiveBanner", () => {
  it("shows a live dot while live, nothing alarming while connecting", () => {
    const { rerender } = render(<LiveIndicator state={CONNECTING} />);
    expect(screen.getByTestId("live-indicator")).toHaveAttribute("data-status", "connecting");
    expect(screen.getByTestId("live-indicator")).toHaveTextContent("connecting…");

    rerender(<LiveIndicator state={state({ status: "live", live: true, wasLive: true })} />);
    expect(screen.getByTestId("live-indicator")).toHaveAttribute("data-status", "live");
    expect(screen.getByTestId("live-indicator")).toHaveTextContent(/^live$/);
    expect(screen.getByTestId("live-indicator").querySelector(".live-dot")).not.toBeNull();
  });

  it("says why it is not live (with a retry) before it ever was, idle when nothing arrives", () => {
    const { rerender } = render(<LiveIndicator state={state({ status: "paused", reason: "The connection closed (code 1006)." })} />);
    const indicator = screen.getByTestId("live-indicator");
    expect(indicator).toHaveTextContent("not live");
    expect(indicator).toHaveAttribute("title", expect.stringContaining("The connection closed (code 1006). Retrying."));

    rerender(<LiveIndicator state={state({ status: "idle", wasLive: true, reason: "Connected, but nothing arrived for 15 s." })} />);
    expect(screen.getByTestId("live-indicator")).toHaveTextContent("live · idle");

    rerender(<LiveIndicator state={state({ status: "off", reason: "Not signed in." })} />);
    expect(screen.getByTestId("live-indicator")).toHaveTextContent("not live");
  });

  it("shows the banner instead of the dot once a live socket dropped, and neither banner otherwise", () => {
    const dropped = state({ status: "paused", live: false, wasLive: true, reason: "gone" });
    const { rerender } = render(
      <>
        <LiveIndicator state={dropped} />
        <LiveBanner state={dropped} />
      </>,
    );
    expect(screen.queryByTestId("live-indicator")).toBeNull();
    expect(screen.getByTestId("live-banner")).toHaveTextContent("Live updates paused — reconnecting…");

    const back = state({ status: "live", live: true, wasLive: true });
    rerender(
      <>
        <LiveIndicator state={back} />
        <LiveBanner state={back} />
      </>,
    );
    expect(screen.queryByTestId("live-banner")).toBeNull();
    expect(screen.getByTestId("live-indicator")).toHaveAttribute("data-status", "live");
  });

  it("sits in the page shell next to the update time, the banner under the title", () => {
    const { rerender } = render(
      <MemoryRouter>
        <PageShell title="local" updatedAt={new Date()} live={state({ status: "live", live: true, wasLive: true })}>
          <p>body</p>
        </PageShell>
      </MemoryRouter>,
    );
    expect(screen.getByTestId("live-indicator").parentElement).toContainElement(screen.getByTestId("updated-at"));
    rerender(
      <MemoryRouter>
        <PageShell title="local" updatedAt={new Date()} live={state({ status: "paused", wasLive: true })}>
          <p>body</p>
        </PageShell>
      </MemoryRouter>,
    );
    expect(screen.getByTestId("live-banner")).toBeInTheDocument();
    rerender(
      <MemoryRouter>
        <PageShell title="local">
          <p>body</p>
        </PageShell>
      </MemoryRouter>,
    );
    expect(screen.queryByTestId("live-indicator")).toBeNull();
    expect(screen.queryByTestId("live-banner")).toBeNull();
  });
});

describe("LagStatusBadge and RetentionRiskBadge", () => {
  it("gives each status its own class and a tooltip; unknown strings are UNKNOWN", () => {
    const statuses = ["OK", "WARN", "ERR", "STOP", "STALL", "REWIND", "UNKNOWN"];
    render(
      <>
        {statuses.map((s) => (
          <LagStatusBadge key={s} status={s} data-testid={`s-${s}`} />
        ))}
        <LagStatusBadge status="SOMETHING_NEW" data-testid="s-new" />
      </>,
    );
    const classes = statuses.map((s) => screen.getByTestId(`s-${s}`).className);
    expect(new Set(classes).size).toBe(statuses.length);
    expect(screen.getByTestId("s-STALL")).toHaveClass("lag-status-stall");
    expect(screen.getByTestId("s-ERR")).toHaveAttribute("title", expect.stringContaining("no members"));
    expect(screen.getByTestId("s-new")).toHaveAttribute("data-status", "UNKNOWN");
  });

  it("warns of records near deletion or lost, and says nothing otherwise", () => {
    const { rerender } = render(<RetentionRiskBadge risk="near" data-testid="risk" />);
    expect(screen.getByTestId("risk")).toHaveTextContent("near deletion");
    expect(screen.getByTestId("risk")).toHaveClass("badge-warn");
    rerender(<RetentionRiskBadge risk="lost" data-testid="risk" />);
    expect(screen.getByTestId("risk")).toHaveTextContent("records lost");
    expect(screen.getByTestId("risk")).toHaveClass("badge-error");
    expect(screen.getByTestId("risk")).toHaveAttribute("title", expect.stringContaining("before the group consumed them"));
    rerender(<RetentionRiskBadge risk="none" data-testid="risk" />);
    expect(screen.queryByTestId("risk")).toBeNull();
  });
});

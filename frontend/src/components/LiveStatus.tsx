import type { LiveState } from "../lib/liveConnection";

/**
 * Next to the page title: a green dot and "live" while updates are pushed; otherwise a grey dot
 * saying why the page polls instead. Nothing while a dropped socket shows the banner instead.
 */
export function LiveIndicator({ state }: { state: LiveState }) {
  if (state.status === "paused" && state.wasLive) return null;
  const label =
    state.status === "live"
      ? "live"
      : state.status === "connecting"
        ? "connecting…"
        : state.status === "idle"
          ? "live · idle"
          : "not live";
  const title =
    state.status === "live"
      ? "Live updates: the server pushes changes as they happen."
      : state.status === "connecting"
        ? "Connecting for live updates…"
        : `${state.reason ?? "No live updates."}${state.status === "paused" ? " Retrying." : ""} The page refreshes by polling meanwhile.`;
  return (
    <span
      className={`live-indicator live-${state.status}`}
      data-testid="live-indicator"
      data-status={state.status}
      title={title}
    >
      <span className="live-dot" aria-hidden="true" />
      {label}
    </span>
  );
}

/** Under the title once a socket that was live dropped: it comes back by itself. */
export function LiveBanner({ state }: { state: LiveState }) {
  if (!(state.status === "paused" && state.wasLive)) return null;
  return (
    <p className="notice notice-warn live-banner" role="status" data-testid="live-banner" title={state.reason ?? undefined}>
      Live updates paused — reconnecting… <span className="muted">The page refreshes by polling meanwhile.</span>
    </p>
  );
}

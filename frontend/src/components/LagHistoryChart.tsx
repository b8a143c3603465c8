import { lazy, useEffect, useMemo, useRef, useState } from "react";
import { lagHistoryQuery } from "../api/queries";
import type { LagPoint, LagWindow } from "../api/types";
import { usePolledQuery } from "../hooks/usePolledQuery";
import { formatCount, formatDuration, formatRate, plural } from "../lib/format";
import { topicSeries } from "../lib/lagHistory";
import { ChartCard, LazyChart } from "./ChartCard";
import { LagStatusBadge } from "./LagStatusBadge";

// recharts is the largest dependency: load it with the first chart.
const HistoryCharts = lazy(() => import("./LagTimeCharts"));

/** The history is fetched again this often while live samples are appended (they fill the gaps). */
export const HISTORY_POLL_LIVE_MS = 300_000;
/** …and this often without live samples. */
export const HISTORY_POLL_MS = 30_000;
/** Live again after a drop: the history is fetched again if older than this. */
const RECONNECT_REFETCH_AFTER_MS = 10_000;

const NO_POINTS: LagPoint[] = [];

export const LAG_WINDOWS: { value: LagWindow; label: string; long: string }[] = [
  { value: "1h", label: "1 h", long: "the last hour (every sample)" },
  { value: "24h", label: "24 h", long: "the last 24 hours (one point a minute)" },
  { value: "7d", label: "7 d", long: "the last 7 days (one point every 10 minutes)" },
];

export interface LagHistoryChartProps {
  cluster: string;
  group: string;
  /** The group's topics (the select), the first one shown first. */
  topics: string[];
  /** The topic to show first (e.g. the one with the most lag); default the first of `topics`. */
  preferred?: string;
  /** Live points received since the page opened (livePointsOf), appended after the history. */
  livePoints: readonly LagPoint[];
  /** Whether the socket is live (the history is then polled much less often). */
  live: boolean;
}

/**
 * "Lag over time" of one topic of the group: lag (records) and lag in seconds, with the write and
 * consume rates below, over the last hour or day (GET …/lag-history), the live samples appended as
 * they arrive.
 */
export function LagHistoryChart({ cluster, group, topics, preferred, livePoints, live }: LagHistoryChartProps) {
  const [win, setWin] = useState<LagWindow>("1h");
  const [chosen, setChosen] = useState<string | null>(null);
  const topic =
    chosen !== null && topics.includes(chosen)
      ? chosen
      : preferred !== undefined && topics.includes(preferred)
        ? preferred
        : (topics[0] ?? null);
  // The first topic shown stays (the most lagging one may change with every sample).
  useEffect(() => {
    if (topic !== null && chosen === null) setChosen(topic);
  }, [topic, chosen]);

  const history = usePolledQuery(lagHistoryQuery(cluster, group, win, topic), live ? HISTORY_POLL_LIVE_MS : HISTORY_POLL_MS);
  // Live again after a gap: fetch the history at once, it has the samples pushed meanwhile.
  const wasLive = useRef(live);
  const { refresh, updatedAt } = history;
  useEffect(() => {
    if (live && !wasLive.current && updatedAt && Date.now() - updatedAt.getTime() > RECONNECT_REFETCH_AFTER_MS) refresh();
    wasLive.current = live;
  }, [live, refresh, updatedAt]);
  const fetched = history.data?.window === win ? history.data.points : NO_POINTS;
  const points = useMemo(
    () => (topic === null ? [] : topicSeries(fetched, livePoints, topic, win)),
    [fetched, livePoints, topic, win],
  );
  const last = points[points.length - 1];
  const windowInfo = LAG_WINDOWS.find((w) => w.value === win)!;

  return (
    <ChartCard
      data-testid="lag-history"
      data-window={win}
      data-topic={topic ?? ""}
      data-points={points.length}
      aria-label="Lag over time"
      caption={
        <>
          <span className="chart-controls">
            <label className="visually-hidden" htmlFor="lag-history-topic">
              Topic
            </label>
            <select
              id="lag-history-topic"
              className="input"
              value={topic ?? ""}
              onChange={(event) => setChosen(event.target.value)}
              disabled={topics.length === 0}
              data-testid="lag-history-topic"
            >
              {topics.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
            <span className="segmented" role="group" aria-label="Time window">
              {LAG_WINDOWS.map((w) => (
                <button
                  key={w.value}
                  type="button"
                  aria-pressed={w.value === win}
                  onClick={() => setWin(w.value)}
                  title={w.long}
                  data-testid={`lag-window-${w.value}`}
                >
                  {w.label}
                </button>
              ))}
            </span>
          </span>
          {last && (
            <span data-testid="lag-history-last">
              latest: lag {formatCount(last.lag)}, <span className="nowrap">{formatDuration(last.lag_seconds)}</span> behind; write{" "}
              {formatRate(last.write_per_s)}, consume {formatRate(last.consume_per_s)}{" "}
              <LagStatusBadge status={last.status} />
            </span>
          )}
        </>
      }
    >
      {history.error && (
        <p className="inline-error" role="alert" data-testid="lag-history-error">
          Could not load the lag history: {history.error.message}
          {livePoints.length > 0 && " Live samples are still shown."}
        </p>
      )}
      {topic === null ? (
        <p className="empty">The group has no topics: nothing to chart.</p>
      ) : points.length === 0 ? (
        <p className="empty" data-testid="lag-history-empty">
          {history.loading ? "Loading the lag history…" : `No sample of ${topic} in ${windowInfo.long}.`}
        </p>
      ) : (
        <>
          <LazyChart>
            <HistoryCharts points={points} />
          </LazyChart>
          <p className="muted chart-note">
            {formatCount(points.length)} {plural(points.length, "point")} over {windowInfo.long}
            {livePoints.length > 0 && "; live samples appended as they arrive"}.
          </p>
        </>
      )}
    </ChartCard>
  );
}

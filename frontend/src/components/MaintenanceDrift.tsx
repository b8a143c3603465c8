// A model's feature drift (GET spark/models/{id}/drift): per scored day, how far each feature's
// distribution moved from the model's reference (its test days, else its training days), as a
// population-stability index. A feature has drifted when its PSI is above its bar (the 0.25
// threshold, or what chance alone reaches for a fleet that small). The score steps measure it: the
// query sits under the models' key, so a run that succeeds here asks it again, and it polls as the
// realised performance does.
import { lazy, useId, useMemo, useState } from "react";
import { Link } from "react-router-dom";
import type { DriftDay, DriftFeature, DriftReference, ModelDrift, SparkModel } from "../api/maintenance";
import { sparkModelDriftQuery } from "../api/queries";
import { usePolledQuery } from "../hooks/usePolledQuery";
import { formatCount, plural } from "../lib/format";
import { sparkJobPath } from "../navigation";
import { ChartCard, LazyChart } from "./ChartCard";
import { ErrorBanner } from "./ErrorBanner";
import { Loading } from "./Loading";
import { localMinute } from "./MaintenanceActiveModel";
import { formatScore } from "./MaintenanceSteps";
import { StatusBadge } from "./StatusBadge";
import { numeric, Table, type HeaderColumn } from "./TableParts";

// recharts loads with the first chart, in its own chunk.
const DriftChart = lazy(() => import("./MaintenanceDriftChart"));

/** The score steps measure it once a day: polled as the realised performance is. */
export const DRIFT_POLL_MS = 60_000;
/** The newest day's features shown before "Show all". */
export const DRIFT_TOP_FEATURES = 10;

const FEATURE_COLUMNS: HeaderColumn[] = [
  "Feature",
  numeric("PSI", "Population-stability index against the reference"),
  numeric("Bar", "Above it the feature has drifted: the threshold, or what chance alone reaches for a fleet this small"),
  { label: "Drifted", hidden: true },
];

/** A feature has drifted when its PSI is above its bar. */
export const isDrifted = (f: DriftFeature): boolean => f.psi > f.bar;

/** "reference: test days, 320 rows". */
export function referenceText(reference: DriftReference): string {
  const part = reference.part === "test" ? "test days" : "training days";
  return `reference: ${part}, ${formatCount(reference.rows)} ${plural(reference.rows, "row")}`;
}

/** The newest scored day (the server lists them oldest first; the latest date wins anyway). */
export function newestDay(days: DriftDay[]): DriftDay | null {
  return days.reduce<DriftDay | null>((newest, d) => (newest === null || d.day >= newest.day ? d : newest), null);
}

/** A day's features, largest PSI first (the server sorts them; an older answer may not). */
export function featuresByPsi(day: DriftDay): DriftFeature[] {
  return day.features
    .filter((f) => Number.isFinite(f.psi) && Number.isFinite(f.bar))
    .sort((a, b) => b.psi - a.psi || (a.feature < b.feature ? -1 : a.feature > b.feature ? 1 : 0));
}

/** "2 features drifted on 2026-04-29: a, b"; null when none did. */
export function flaggedText(day: DriftDay): string | null {
  const names = day.drifted;
  if (names.length === 0) return null;
  return `${names.length} ${plural(names.length, "feature")} drifted on ${day.day}: ${names.join(", ")}`;
}

/** The chosen model's feature drift: no reference, no day yet, or the chart and the newest day. */
export function MaintenanceDrift({ model }: { model: SparkModel }) {
  const drift = usePolledQuery(sparkModelDriftQuery(model.id), DRIFT_POLL_MS);
  const data = drift.data;
  const titleId = useId();
  return (
    <section className="pm-drift" aria-labelledby={titleId} data-testid="pm-drift" data-days={data?.days.length ?? 0}>
      <div className="pm-drift-head">
        <h3 id={titleId}>Feature drift · model #{model.id}</h3>
        {data?.reference && (
          <span className="muted" data-testid="pm-drift-reference">
            {referenceText(data.reference)}
          </span>
        )}
      </div>
      <p className="muted pm-drift-text">
        Population-stability index of each feature on the scored days against the model's reference (its test days);
        above the bar, the day's machines no longer look like the ones the model learned from.
      </p>
      {drift.error && (
        <ErrorBanner error={drift.error} title="Could not load the model's drift" stale={data !== undefined} onRetry={drift.refresh} />
      )}
      {drift.loading && <Loading label="Loading the model's drift…" rows={2} />}
      {data && <DriftBody drift={data} />}
    </section>
  );
}

function DriftBody({ drift }: { drift: ModelDrift }) {
  const newest = useMemo(() => newestDay(drift.days), [drift.days]);
  if (drift.reference === null) {
    return (
      <p className="empty pm-drift-note" data-testid="pm-drift-none">
        This model was trained before drift was measured: retrain to get a reference.
      </p>
    );
  }
  if (newest === null) {
    return (
      <p className="empty pm-drift-note" data-testid="pm-drift-empty">
        No scored day yet: each score job with this model measures the day's drift.
      </p>
    );
  }
  const flagged = flaggedText(newest);
  return (
    <>
      {flagged && (
        <p className="pm-drift-flagged" data-testid="pm-drift-flagged">
          {flagged}
        </p>
      )}
      <ChartCard
        className="pm-drift-chart"
        data-testid="pm-drift-chart"
        data-points={drift.days.length}
        aria-label="Largest PSI per scored day"
        caption={
          <>
            <strong className="pm-chart-title">Per scored day · largest PSI</strong>
            <span>
              dashed: the {drift.threshold} threshold · red: a feature above its bar that day (a small fleet's bar is higher)
            </span>
          </>
        }
      >
        <LazyChart>
          <DriftChart days={drift.days} threshold={drift.threshold} />
        </LazyChart>
      </ChartCard>
      <LatestFeatures day={newest} />
    </>
  );
}

/** The newest day's features, largest PSI first: the top ones, or all of them. */
function LatestFeatures({ day }: { day: DriftDay }) {
  const [all, setAll] = useState(false);
  const features = useMemo(() => featuresByPsi(day), [day]);
  const shown = all ? features : features.slice(0, DRIFT_TOP_FEATURES);
  return (
    <div className="pm-drift-latest">
      <p className="pm-drift-day">
        <strong>Newest scored day {day.day}</strong>
        <span className="muted">
          {day.rows !== null && ` · ${formatCount(day.rows)} ${plural(day.rows, "machine")}`}
          {day.scored_at && ` · scored ${localMinute(day.scored_at)}`} · by{" "}
          <Link to={sparkJobPath(day.job_id)}>job #{day.job_id}</Link>
        </span>
      </p>
      <Table columns={FEATURE_COLUMNS} wrapClassName="pm-drift-table" data-testid="pm-drift-latest" data-rows={shown.length}>
        {shown.map((f) => {
          const drifted = isDrifted(f);
          return (
            <tr key={f.feature} className={drifted ? "pm-drift-row-drifted" : undefined} data-testid={`pm-drift-row-${f.feature}`} data-drifted={drifted}>
              <td className="mono">{f.feature}</td>
              <td className="num">{formatScore(f.psi)}</td>
              <td className="num">{formatScore(f.bar)}</td>
              <td>{drifted && <StatusBadge tone="error">drifted</StatusBadge>}</td>
            </tr>
          );
        })}
      </Table>
      {features.length > DRIFT_TOP_FEATURES && (
        <button
          type="button"
          className="button button-small pm-drift-toggle"
          aria-expanded={all}
          onClick={() => setAll(!all)}
          data-testid="pm-drift-show-all"
        >
          {all ? `Show the top ${DRIFT_TOP_FEATURES}` : `Show all ${features.length} features`}
        </button>
      )}
    </div>
  );
}

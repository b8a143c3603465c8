// A model's realised performance (GET spark/models/{id}/performance): how its past predictions
// turned out once their horizon had passed, per scored day (precision, recall, ROC AUC) and as a
// calibration curve. The numbers come from the newest `model-performance` job of the model: the
// cluster's daily performance schedule runs it for the active model, and operators can run it for
// any model here ("Measure now"), followed live as any Spark job (useSparkJob).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { lazy, useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { measureModelPerformance, PERFORMANCE_JOB_TYPE, type ModelPerformance, type SparkModel } from "../api/maintenance";
import { sparkModelPerformanceQuery } from "../api/queries";
import { refetchNow, replaceQueryData } from "../api/queryClient";
import { queryKeys } from "../api/queryKeys";
import type { SparkJob } from "../api/types";
import { usePolledQuery } from "../hooks/usePolledQuery";
import { useSparkJob } from "../hooks/useSparkJob";
import { formatCount } from "../lib/format";
import { isActive } from "../lib/sparkJobs";
import { sparkJobPath } from "../navigation";
import { ChartCard, LazyChart } from "./ChartCard";
import { ErrorBanner } from "./ErrorBanner";
import { Loading } from "./Loading";
import { localMinute } from "./MaintenanceActiveModel";
import type { CalibrationPoint } from "./MaintenanceCalibrationChart";
import { formatScore } from "./MaintenanceSteps";
import { JobStateBadge } from "./sparkJobs/JobStateBadge";
import { ProgressBar } from "./sparkJobs/ProgressBar";

// recharts loads with the first chart, in its own chunk.
const PerformanceChart = lazy(() => import("./MaintenancePerformanceChart"));
const CalibrationChart = lazy(() => import("./MaintenanceCalibrationChart"));

/** The schedule measures once a day: a minute's poll shows a new measure soon enough. */
export const PERFORMANCE_POLL_MS = 60_000;

/** The calibration bands as points, by mean predicted probability; [] when there is none. The
 * columns are looked up by name (an older or hand-written result may order them otherwise). */
export function calibrationPoints(calibration: ModelPerformance["calibration"]): CalibrationPoint[] {
  if (!calibration || !Array.isArray(calibration.rows)) return [];
  const columns = Array.isArray(calibration.columns) ? calibration.columns : [];
  const at = (name: string, fallback: number) => (columns.indexOf(name) >= 0 ? columns.indexOf(name) : fallback);
  const [lo, hi, n, pred, obs] = [at("band_low", 0), at("band_high", 1), at("predictions", 2), at("predicted", 3), at("observed", 4)];
  const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
  const points: CalibrationPoint[] = [];
  for (const row of calibration.rows) {
    if (!Array.isArray(row)) continue;
    const [bandLow, bandHigh, predictions, predicted, observed] = [row[lo], row[hi], row[n], row[pred], row[obs]];
    if (finite(bandLow) && finite(bandHigh) && finite(predictions) && finite(predicted) && finite(observed)) {
      points.push({ bandLow, bandHigh, predictions, predicted, observed });
    }
  }
  return points.sort((a, b) => a.predicted - b.predicted);
}

/** "Known 1,200 of 1,500 predictions (300 pending) · precision 0.42 · recall 0.61 at threshold
 * 0.50 · measured 2026-07-03 05:30 by job #N": what is null is left out. */
export function totalsText(perf: ModelPerformance): string {
  const { totals, threshold } = perf;
  const known = totals ? `Known ${formatCount(totals.known)} of ${formatCount(totals.predictions)} predictions (${formatCount(totals.pending)} pending)` : null;
  const rates = [
    totals?.precision != null ? `precision ${formatScore(totals.precision, 2)}` : null,
    totals?.recall != null ? `recall ${formatScore(totals.recall, 2)}` : null,
  ].filter((r): r is string => r !== null);
  // The threshold says what precision and recall are of: nothing to say without them.
  if (rates.length > 0 && threshold != null) rates[rates.length - 1] += ` at threshold ${formatScore(threshold, 2)}`;
  const measured = ["measured", perf.computed_at ? localMinute(perf.computed_at) : null, perf.job_id !== null ? `by job #${perf.job_id}` : null]
    .filter(Boolean)
    .join(" ");
  return [known, ...rates, measured].filter(Boolean).join(" · ");
}

interface MeasureState {
  /** The job submitted here and followed (null: none, or it succeeded). */
  jobId: number | null;
  submitting: boolean;
  /** The submit's refusal (403, 400...). */
  submitError: Error | null;
  measure: () => void;
  /** The followed job succeeded: its measure is fetched. */
  done: () => void;
}

/** Submits the model's model-performance job; the job shows at once, then its socket follows it. */
function useMeasure(model: SparkModel, refetch: () => void): MeasureState {
  const client = useQueryClient();
  const [jobId, setJobId] = useState<number | null>(null);
  const mutation = useMutation({
    mutationFn: () => measureModelPerformance(model),
    onSuccess: (job: SparkJob) => {
      replaceQueryData<SparkJob>(client, queryKeys.sparkJob(job.id), job);
      setJobId(job.id);
    },
  });
  const done = useCallback(() => {
    setJobId(null);
    refetch();
    // The drift of the days scored since its last poll (a minute apart) shows with the measure.
    void refetchNow(client, queryKeys.sparkModelDrift(model.id));
  }, [refetch, client, model.id]);
  return { jobId, submitting: mutation.isPending, submitError: mutation.error, measure: () => mutation.mutate(), done };
}

interface MaintenancePerformanceProps {
  model: SparkModel;
  /** Operators and admins: "Measure now" runs the model-performance job for it. */
  canMeasure: boolean;
}

/** The chosen model's realised performance: not measured yet, or its totals and two charts. */
export function MaintenancePerformance({ model, canMeasure }: MaintenancePerformanceProps) {
  const performance = usePolledQuery(sparkModelPerformanceQuery(model.id), PERFORMANCE_POLL_MS);
  const measure = useMeasure(model, performance.refresh);
  const perf = performance.data;
  const titleId = useId();
  const busy = measure.submitting || measure.jobId !== null;
  return (
    <section className="pm-performance" aria-labelledby={titleId} data-testid="pm-performance" data-job={perf?.job_id ?? ""}>
      <div className="pm-performance-head">
        <h3 id={titleId}>Realised performance · model #{model.id}</h3>
        {canMeasure && (
          <button
            type="button"
            className="button button-small"
            onClick={measure.measure}
            disabled={busy}
            title={`Run the ${PERFORMANCE_JOB_TYPE} Spark job for model #${model.id} on ${model.cluster} now`}
            data-testid="pm-performance-run"
          >
            {busy ? "Measuring…" : "Measure now"}
          </button>
        )}
      </div>
      {measure.submitError && (
        <div data-testid="pm-performance-error">
          <ErrorBanner error={measure.submitError} title="Could not start the measure" />
        </div>
      )}
      {measure.jobId !== null && <MeasureJob key={measure.jobId} jobId={measure.jobId} onSucceeded={measure.done} />}
      {performance.error && (
        <ErrorBanner
          error={performance.error}
          title="Could not load the model's performance"
          stale={perf !== undefined}
          onRetry={performance.refresh}
        />
      )}
      {performance.loading && <Loading label="Loading the model's performance…" rows={2} />}
      {perf && <PerformanceBody perf={perf} canMeasure={canMeasure} />}
    </section>
  );
}

/** The job "Measure now" queued: live state and progress; once it failed, why. On success the
 * parent fetches the new measure (and drops this). */
function MeasureJob({ jobId, onSucceeded }: { jobId: number; onSucceeded: () => void }) {
  const { data: job, error } = useSparkJob(jobId);
  const onSucceededRef = useRef(onSucceeded);
  onSucceededRef.current = onSucceeded;
  const state = job?.state;
  useEffect(() => {
    if (state === "succeeded") onSucceededRef.current();
  }, [state]);

  if (!job) return error ? <ErrorBanner error={error} title={`Could not read job #${jobId}`} /> : null;
  if (isActive(job.state) || job.state === "succeeded") {
    return (
      <div className="pm-performance-running" data-testid="pm-performance-running" data-state={job.state}>
        <span>
          Measuring… <Link to={sparkJobPath(job.id)}>job #{job.id}</Link>
        </span>
        <JobStateBadge state={job.state} />
        <ProgressBar value={job.progress} state={job.state} label="Measure progress" />
      </div>
    );
  }
  return (
    <div className="job-error" role="alert" data-testid="pm-performance-error" data-state={job.state}>
      <strong>
        The measure {job.state === "lost" ? "was lost" : job.state === "cancelled" ? "was cancelled" : "failed"} (
        <Link to={sparkJobPath(job.id)}>job #{job.id}</Link>)
      </strong>
      {job.error && <pre className="job-error-text">{job.error}</pre>}
    </div>
  );
}

function PerformanceBody({ perf, canMeasure }: { perf: ModelPerformance; canMeasure: boolean }) {
  if (perf.job_id === null) {
    return (
      <p className="empty pm-performance-none" data-testid="pm-performance-none">
        Not measured yet: the cluster's daily performance schedule measures the active model's past predictions once
        their horizon has passed (each is matched with the failures that followed it).{" "}
        {canMeasure ? "Measure this model now with the button above." : "Operators can measure it now."}
      </p>
    );
  }
  if (perf.days.length === 0) {
    return (
      <p className="empty" data-testid="pm-performance-empty">
        No prediction of this model was found in its predictions topic.
      </p>
    );
  }
  return (
    <>
      <p className="pm-performance-totals" data-testid="pm-performance-totals">
        {totalsText(perf)}
      </p>
      <div className="pm-performance-charts">
        <DaysCard perf={perf} />
        <CalibrationCard perf={perf} />
      </div>
    </>
  );
}

function DaysCard({ perf }: { perf: ModelPerformance }) {
  const horizon = perf.horizon_days;
  return (
    <ChartCard
      className="pm-performance-chart"
      data-testid="pm-performance-chart"
      data-points={perf.days.length}
      aria-label="Performance per scored day"
      caption={
        <>
          <strong className="pm-chart-title">Per scored day · precision, recall and ROC AUC</strong>
          <span>
            {horizon != null && `failures within ${horizon} d · `}
            {perf.last_day && `data up to ${perf.last_day} · `}gaps: no known prediction (or no failure) that day
          </span>
        </>
      }
    >
      <LazyChart>
        <PerformanceChart days={perf.days} />
      </LazyChart>
    </ChartCard>
  );
}

function CalibrationCard({ perf }: { perf: ModelPerformance }) {
  const points = useMemo(() => calibrationPoints(perf.calibration), [perf.calibration]);
  return (
    <ChartCard
      className="pm-calibration-chart"
      data-testid="pm-calibration-chart"
      data-points={points.length}
      aria-label="Calibration"
      caption={
        <>
          <strong className="pm-chart-title">Calibration</strong>
          <span>dashed: perfectly calibrated</span>
        </>
      }
    >
      <LazyChart empty={points.length === 0 && "No known prediction yet: no calibration."}>
        <CalibrationChart points={points} />
      </LazyChart>
    </ChartCard>
  );
}

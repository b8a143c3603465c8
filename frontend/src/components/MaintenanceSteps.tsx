// The maintenance pipeline's steps as a table: state, duration and a one-line summary of each
// step's result; a failed step's error under it. Results are read defensively: a field the
// backend does not (yet) send is left out of the summary rather than shown as "undefined".
import { Fragment } from "react";
import { PIPELINE_STEPS, type PipelineJob, type PipelineStep, type PipelineStepState } from "../api/maintenance";
import { formatCount, formatDuration, plural } from "../lib/format";
import { isRecord } from "../lib/isRecord";
import { humanize } from "../lib/sparkForm";
import { StatusBadge, type Tone } from "./StatusBadge";
import { type HeaderColumn, numeric, Table } from "./TableParts";

const STEP_COLUMNS: HeaderColumn[] = ["#", "Step", "State", numeric("Took"), "Result"];

const STEP_TITLES: Record<string, string> = {
  "window-features": "Window features",
  "failure-labels": "Failure labels",
  "training-set": "Training set",
  "train-model": "Train model",
  score: "Score",
};

const STEP_STATES: Record<PipelineStepState, { tone: Tone; help: string }> = {
  pending: { tone: "neutral", help: "Waits for the steps before it." },
  running: { tone: "info", help: "Spark is running it." },
  succeeded: { tone: "ok", help: "Finished; its result is summed up on the right." },
  failed: { tone: "error", help: "Ended with an error (below); the steps after it were skipped." },
  skipped: { tone: "neutral", help: "Not run: a step before it failed or the job was cancelled." },
};

function num(result: Record<string, unknown>, key: string): number | null {
  const value = result[key];
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function str(result: Record<string, unknown>, key: string): string | null {
  const value = result[key];
  return typeof value === "string" && value !== "" ? value : null;
}

/** 0.87345 → "0.873"; an em dash when unknown. */
export function formatScore(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "—" : value.toFixed(digits);
}

/** "1,234 rows" or null when the count is missing. */
function counted(result: Record<string, unknown>, key: string, one: string, many?: string): string | null {
  const value = num(result, key);
  return value === null ? null : `${formatCount(value)} ${plural(value, one, many)}`;
}

/** Every top-level number of a result but a seed, "train rows 1,200" (at most `max`): what a
 * summary falls back on when the result has none of the fields it knows. */
function numbersOf(result: Record<string, unknown>, max = 5): string[] {
  return Object.entries(result)
    .filter(([key, value]) => typeof value === "number" && Number.isFinite(value) && key !== "seed")
    .slice(0, max)
    .map(([key, value]) => `${humanize(key).toLowerCase()} ${formatCount(value as number)}`);
}

function join(parts: (string | null)[]): string {
  return parts.filter((p): p is string => p !== null).join(" · ");
}

/** "3 equipment not scored: under 21 days of history" (a score's too_little_history), or null
 * when every equipment of the day was scored. */
function shortHistory(value: unknown): string | null {
  if (!isRecord(value)) return null;
  const count = num(value, "equipment");
  const days = num(value, "longest_window_days");
  if (!count || days === null) return null;
  return `${formatCount(count)} equipment not scored: under ${formatCount(days)} ${plural(days, "day")} of history`;
}

/** One line saying what a finished step produced (rows, positives/negatives, AUC, predictions). */
export function stepSummary(name: string, result: unknown): string {
  if (!isRecord(result)) return "";
  switch (name) {
    case "window-features": {
      const columns = Array.isArray(result.feature_columns) ? result.feature_columns.length : null;
      const first = str(result, "first_day");
      const last = str(result, "last_day");
      return join([
        counted(result, "rows", "row"),
        counted(result, "equipment", "equipment", "equipment"),
        columns === null ? null : `${formatCount(columns)} ${plural(columns, "feature")}`,
        first && last ? `${first} to ${last}` : null,
      ]);
    }
    case "failure-labels": {
      const positives = num(result, "positives");
      const negatives = num(result, "negatives");
      const horizon = num(result, "horizon_days");
      return join([
        counted(result, "rows", "row"),
        positives !== null && negatives !== null ? `${formatCount(positives)} positive / ${formatCount(negatives)} negative` : null,
        horizon === null ? null : `horizon ${horizon} d`,
      ]);
    }
    case "training-set": {
      const cutoff = str(result, "cutoff_date");
      const part = (name: "train" | "test") => {
        const rows = num(result, `${name}_rows`);
        if (rows === null) return null;
        const pos = num(result, `${name}_positives`);
        const neg = num(result, `${name}_negatives`);
        const split = pos !== null && neg !== null ? ` (${formatCount(pos)} positive / ${formatCount(neg)} negative)` : "";
        return `${name} ${formatCount(rows)} ${plural(rows, "row")}${split}`;
      };
      const parts = [part("train"), part("test")];
      // A result without the counts this knows: whatever numbers it has.
      return join([cutoff ? `cut-off ${cutoff}` : null, ...(parts.some(Boolean) ? parts : numbersOf(result, 4))]);
    }
    case "train-model": {
      const metrics = isRecord(result.metrics) ? result.metrics : {};
      const model = num(result, "model_id");
      return join([
        num(metrics, "roc_auc") === null ? null : `ROC AUC ${formatScore(num(metrics, "roc_auc"))}`,
        num(metrics, "pr_auc") === null ? null : `PR AUC ${formatScore(num(metrics, "pr_auc"))}`,
        str(result, "algorithm"),
        model === null ? null : `model #${model}`,
      ]);
    }
    case "score": {
      const day = str(result, "day");
      const topic = str(result, "predictions_topic");
      return join([
        counted(result, "predictions", "prediction"),
        day ? `for ${day}` : null,
        topic ? `→ ${topic}` : null,
        shortHistory(result.too_little_history),
      ]);
    }
    default:
      return join(numbersOf(result));
  }
}

/** Seconds from a step's start to its end (or now while it runs); null before it started. */
export function stepSeconds(step: Pick<PipelineStep, "started_at" | "finished_at">, now: number = Date.now()): number | null {
  if (!step.started_at) return null;
  const start = Date.parse(step.started_at);
  const end = step.finished_at ? Date.parse(step.finished_at) : now;
  return Number.isNaN(start) || Number.isNaN(end) ? null : Math.max(0, (end - start) / 1000);
}

/**
 * The job's steps; a server that sends none (a job object without `steps`) gets them from the
 * result instead: a step with a result succeeded, the others are unknown (shown pending).
 */
export function stepsOf(job: PipelineJob): PipelineStep[] {
  if (Array.isArray(job.steps) && job.steps.length > 0) return job.steps;
  const result = isRecord(job.result) ? job.result : {};
  return PIPELINE_STEPS.map((name) => ({
    name,
    state: isRecord(result[name]) ? "succeeded" : "pending",
    started_at: null,
    finished_at: null,
    result: isRecord(result[name]) ? (result[name] as Record<string, unknown>) : null,
    error: null,
  }));
}

/** The steps of a pipeline run, in order, each with its state, duration and result summary;
 * `modelWarning`: the server's verdict on the model it trained, when not to use it. */
export function MaintenanceSteps({ steps, modelWarning = null }: { steps: PipelineStep[]; modelWarning?: string | null }) {
  return (
    <Table columns={STEP_COLUMNS} className="pm-steps" data-testid="pm-steps">
      {steps.map((step, index) => {
        const info = STEP_STATES[step.state] ?? { tone: "neutral" as Tone, help: "" };
        const summary = step.state === "succeeded" ? stepSummary(step.name, step.result) : "";
        return (
          <Fragment key={step.name}>
            <tr data-testid={`pm-step-${step.name}`} data-state={step.state} className={`pm-step pm-step-${step.state}`}>
              <td className="muted">{index + 1}</td>
              <td>
                <span className="pm-step-title">{STEP_TITLES[step.name] ?? humanize(step.name)}</span>
                <span className="mono muted pm-step-name">{step.name}</span>
              </td>
              <td>
                <StatusBadge tone={info.tone} title={info.help} data-testid={`pm-step-state-${step.name}`}>
                  {step.state}
                </StatusBadge>
              </td>
              <td className="num nowrap" data-testid={`pm-step-took-${step.name}`}>
                {step.started_at ? formatDuration(stepSeconds(step)) : <span className="muted">—</span>}
              </td>
              <td className="wrap-soft" data-testid={`pm-step-summary-${step.name}`}>
                {summary || (step.state === "running" ? <span className="muted">running…</span> : <span className="muted">—</span>)}
                {step.name === "train-model" && summary && modelWarning && (
                  <>
                    {" "}
                    <StatusBadge tone="error" data-testid="pm-step-model-warning">
                      {modelWarning}
                    </StatusBadge>
                  </>
                )}
              </td>
            </tr>
            {step.state === "failed" && step.error && (
              <tr className="pm-step-error-row">
                <td />
                <td colSpan={4}>
                  <div className="job-error pm-step-error" role="alert" data-testid={`pm-step-error-${step.name}`}>
                    <strong>{STEP_TITLES[step.name] ?? step.name} failed</strong>
                    <pre className="job-error-text">{step.error}</pre>
                  </div>
                </td>
              </tr>
            )}
          </Fragment>
        );
      })}
    </Table>
  );
}

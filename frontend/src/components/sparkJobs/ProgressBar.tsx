import type { SparkJobState } from "../../api/types";
import { progressPercent } from "../../lib/sparkJobs";

interface ProgressBarProps {
  /** 0..1 (clamped). */
  value: number;
  /** Colours the bar: blue while active, green succeeded, red failed or lost, amber cancelled. */
  state: SparkJobState;
  /** The list's small variant (no label text beside it, narrower). */
  compact?: boolean;
  label?: string;
  "data-testid"?: string;
}

/** A horizontal bar with the percentage beside it; `data-progress` holds the exact value. */
export function ProgressBar({ value, state, compact = false, label = "Progress", "data-testid": testId }: ProgressBarProps) {
  const percent = progressPercent(value);
  return (
    <div
      className={`progress progress-${state}${compact ? " progress-compact" : ""}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={`${percent} %`}
      data-testid={testId}
      data-progress={Number.isFinite(value) ? value : 0}
    >
      <div className="progress-track">
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
      <span className="progress-label">{percent} %</span>
    </div>
  );
}

import { usageLevel, type UsageLevel } from "../../lib/brokers";
import { formatShare } from "../../lib/format";

const LEVEL_LABEL: Record<UsageLevel, string> = { ok: "", warn: " (above 80 %)", critical: " (above 90 %)" };

/**
 * A disk's share in use as a compact horizontal bar (as the progress bars): blue up to 80 %, amber
 * above, red above 90 %; `data-used-fraction` holds the share exactly. The log dirs of the broker
 * page and the brokers of the cluster overview.
 */
export function UsageBar({ fraction, testId }: { fraction: number; testId?: string }) {
  const level = usageLevel(fraction);
  const text = formatShare(fraction);
  return (
    <div
      className={`progress progress-compact usage usage-${level}`}
      role="meter"
      aria-label={`Disk used${LEVEL_LABEL[level]}`}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(fraction * 1000) / 10}
      aria-valuetext={text}
      data-testid={testId}
      data-used-fraction={fraction}
      data-level={level}
    >
      <div className="progress-track">
        <div className="progress-fill" style={{ width: `${fraction * 100}%` }} />
      </div>
      <span className="progress-label">{text}</span>
    </div>
  );
}

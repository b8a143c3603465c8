import type { Reassignment } from "../../api/types";
import { formatBytes, formatCount, formatDuration } from "../../lib/format";
import { reassignmentBarState, reassignmentFraction, reassignmentStateHelp } from "../../lib/reassign";
import { ProgressBar } from "../sparkJobs/ProgressBar";

/** Time left while it runs: the busiest new-replica broker's bytes at the throttle (unknown without one). */
function timeLeft(r: Pick<Reassignment, "seconds_left" | "throttle_bytes_per_s">): string {
  if (r.seconds_left !== null) return `about ${formatDuration(r.seconds_left)} left`;
  return r.throttle_bytes_per_s === null ? "time left unknown: no throttle" : "time left unknown";
}

/** The bytes the new replicas copied of all they must (a bar), "X of Y copied", and the time left while it runs. */
export function ReassignmentProgress({ reassignment: r }: { reassignment: Reassignment }) {
  return (
    <div className="job-progress-row">
      <ProgressBar
        value={reassignmentFraction(r)}
        state={reassignmentBarState(r.state)}
        label="Bytes copied"
        data-testid="reassign-progress"
      />
      <span data-testid="reassign-copied" title={`${formatCount(r.bytes_copied)} of ${formatCount(r.bytes_total)} bytes`}>
        {formatBytes(r.bytes_copied)} of {formatBytes(r.bytes_total)} copied
      </span>
      {r.state === "running" ? (
        <strong data-testid="reassign-time-left" data-seconds={r.seconds_left ?? undefined}>
          {timeLeft(r)}
        </strong>
      ) : (
        <span className="muted job-state-help">{reassignmentStateHelp(r.state)}</span>
      )}
    </div>
  );
}

import type { SparkJobState } from "../../api/types";
import { jobStateHelp, jobStateTone } from "../../lib/sparkJobs";
import { StatusBadge } from "../StatusBadge";

/** The job's state as a pill: queued grey, submitted and running blue, succeeded green, failed
 * and lost red, cancelled amber; "stopping" while a cancel is under way. */
export function JobStateBadge({
  state,
  stopping = false,
  "data-testid": testId,
}: {
  state: SparkJobState;
  stopping?: boolean;
  "data-testid"?: string;
}) {
  return (
    <span className="state-badge" data-testid={testId} data-state={state} data-stopping={stopping ? "true" : undefined}>
      <StatusBadge tone={jobStateTone(state)} title={jobStateHelp(state)}>
        {state}
        {stopping ? " · stopping" : ""}
      </StatusBadge>
    </span>
  );
}

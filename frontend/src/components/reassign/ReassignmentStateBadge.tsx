import type { ReassignmentPartition, ReassignmentState } from "../../api/types";
import { partitionStateHelp, partitionStateTone, reassignmentStateHelp, reassignmentStateTone } from "../../lib/reassign";
import { StatusBadge } from "../StatusBadge";

/** A reassignment's state as a pill (its text is the state): running blue, completed green,
 * cancelled amber, failed red. */
export function ReassignmentStateBadge({ state, "data-testid": testId }: { state: ReassignmentState; "data-testid"?: string }) {
  return (
    <span className="state-badge" data-testid={testId} data-state={state}>
      <StatusBadge tone={reassignmentStateTone(state)} title={reassignmentStateHelp(state)}>
        {state}
      </StatusBadge>
    </span>
  );
}

/** A partition's state in a reassignment: moving blue, done green, reverted amber, changed red. */
export function PartitionStateBadge({ state }: { state: ReassignmentPartition["state"] }) {
  return (
    <StatusBadge tone={partitionStateTone(state)} title={partitionStateHelp(state)}>
      {state}
    </StatusBadge>
  );
}

import type { GroupState } from "../api/types";
import { groupStateHelp, groupStateTone } from "../lib/groupStates";
import { StatusBadge } from "./StatusBadge";

/** The group state as a pill: Stable green, Empty grey, rebalancing amber, Dead red. */
export function GroupStateBadge({ state, "data-testid": testId }: { state: GroupState; "data-testid"?: string }) {
  return (
    <span className="state-badge" data-testid={testId} data-state={state}>
      <StatusBadge tone={groupStateTone(state)} title={groupStateHelp(state)}>
        {state}
      </StatusBadge>
    </span>
  );
}

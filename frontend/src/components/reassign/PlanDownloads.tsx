import { useMemo } from "react";
import type { PlanDocument } from "../../api/types";
import { jsonDownloadHref, PLAN_FILE, planFileText, ROLLBACK_FILE } from "../../lib/reassign";

/**
 * The plan and its rollback as the files kafka-reassign-partitions.sh reads (each document exactly,
 * pretty JSON), and how to undo the move by hand with the rollback.
 */
export function PlanDownloads({ plan, rollback }: { plan: PlanDocument; rollback: PlanDocument }) {
  const planHref = useMemo(() => jsonDownloadHref(planFileText(plan)), [plan]);
  const rollbackHref = useMemo(() => jsonDownloadHref(planFileText(rollback)), [rollback]);
  return (
    <div className="reassign-downloads" data-testid="reassign-downloads">
      <div className="action-row">
        <a className="button button-small" href={planHref} download={PLAN_FILE} data-testid="reassign-download-plan">
          Download plan
        </a>
        <a className="button button-small" href={rollbackHref} download={ROLLBACK_FILE} data-testid="reassign-download-rollback">
          Download rollback
        </a>
      </div>
      <p className="field-hint">
        The rollback holds the replicas as they were. To undo the move by hand:{" "}
        <code>kafka-reassign-partitions.sh --bootstrap-server … --execute --reassignment-json-file {ROLLBACK_FILE}</code>
      </p>
    </div>
  );
}

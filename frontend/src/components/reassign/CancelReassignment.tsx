import { cancelReassignment } from "../../api/endpoints";
import type { Reassignment } from "../../api/types";
import { useConfirmedCall } from "../../hooks/useConfirmedCall";
import { ROLLBACK_FILE } from "../../lib/reassign";
import { ConfirmDialog } from "../ConfirmDialog";

interface CancelReassignmentProps {
  cluster: string;
  id: number;
  /** The reassignment as the cancel answered it (cancelled). */
  onCancelled: (reassignment: Reassignment) => void;
}

/** "Cancel reassignment…" and its confirmation: the partitions still moving keep their old replicas. */
export function CancelReassignment({ cluster, id, onCancelled }: CancelReassignmentProps) {
  const { open, busy, error, ask, close, confirm } = useConfirmedCall(() => cancelReassignment(cluster, id), onCancelled);

  return (
    <>
      <button type="button" className="button button-danger-outline" onClick={ask} data-testid="reassign-cancel">
        Cancel reassignment…
      </button>
      {open && (
        <ConfirmDialog
          title={`Cancel reassignment #${id}?`}
          confirmLabel="Cancel reassignment"
          dismissLabel="Keep moving"
          busy={busy}
          error={error}
          errorTestId="reassign-cancel-error"
          onConfirm={confirm}
          onCancel={close}
        >
          <p>
            Kafka stops copying: the partitions still moving keep their old replicas (what was copied is dropped), those already
            moved stay moved. The throttles are removed.
          </p>
          <p className="muted">To put the moved ones back as well, execute the rollback plan ({ROLLBACK_FILE}) afterwards.</p>
        </ConfirmDialog>
      )}
    </>
  );
}

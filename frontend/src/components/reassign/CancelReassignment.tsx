import { useState } from "react";
import { cancelReassignment } from "../../api/endpoints";
import type { Reassignment } from "../../api/types";
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
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);

  const close = () => {
    setOpen(false);
    setError(null);
  };

  const onConfirm = async () => {
    setBusy(true);
    setError(null);
    try {
      const answer = await cancelReassignment(cluster, id);
      setOpen(false);
      onCancelled(answer);
    } catch (err) {
      setError(err instanceof Error ? err : new Error(String(err)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" className="button button-danger-outline" onClick={() => setOpen(true)} data-testid="reassign-cancel">
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
          onConfirm={() => void onConfirm()}
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

import { cancelSparkJob } from "../../api/endpoints";
import type { SparkJob } from "../../api/types";
import { useConfirmedCall } from "../../hooks/useConfirmedCall";
import { ConfirmDialog } from "../ConfirmDialog";

interface CancelJobButtonProps {
  job: Pick<SparkJob, "id" | "state" | "job_type" | "cancel_requested">;
  /** The job as the cancel answered it (cancelled, or still running with `cancel_requested`). */
  onCancelled: (job: SparkJob) => void;
}

/**
 * "Cancel job…" and its confirmation. A queued job is cancelled at once; a started one is
 * stopped by its worker within seconds (the button then says so until the job ends).
 */
export function CancelJobButton({ job, onCancelled }: CancelJobButtonProps) {
  const { open, busy, error, ask, close, confirm } = useConfirmedCall(() => cancelSparkJob(job.id), onCancelled);

  if (job.cancel_requested) {
    return (
      <button type="button" className="button button-danger-outline" disabled data-testid="job-cancel">
        Stopping…
      </button>
    );
  }

  return (
    <>
      <button type="button" className="button button-danger-outline" onClick={ask} data-testid="job-cancel">
        Cancel job…
      </button>
      {open && (
        <ConfirmDialog
          title={`Cancel job #${job.id}?`}
          confirmLabel="Cancel job"
          dismissLabel="Keep running"
          busy={busy}
          error={error}
          onConfirm={confirm}
          onCancel={close}
        >
          <p>
            {job.state === "queued"
              ? "The job has not started: it is cancelled at once."
              : "Spark is stopped (its application ends) and the job becomes cancelled within seconds. What it computed so far is lost."}
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

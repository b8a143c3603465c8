// "Mark eq-0007": an operator sets a worklist item's status with a note (POST
// maintenance/worklist/{equipment_id}). On success every worklist of the cluster is fetched again;
// refused, the server's message (with the field it names) shows in the dialog, which stays open.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useMemo, useState } from "react";
import { markWorklistItem, WORKLIST_NOTE_MAX, type WorklistItem, type WorklistStatus, type WorklistTopics } from "../api/maintenance";
import { queryKeys } from "../api/queryKeys";
import { fieldProblems, pathWords } from "../lib/fieldErrors";
import { ConfirmDialog } from "./ConfirmDialog";
import { markedText } from "./WorklistTable";

/** A refused mark's error as shown: "Note: Ensure this field has no more than 1000 characters."
 * when the answer names its field, else as it is. */
export function markErrorOf(error: Error | null): Error | null {
  const problem = fieldProblems(error)[0];
  if (!error || !problem?.path) return error;
  return new Error(`${pathWords(problem.path)}: ${problem.message}`);
}

/** In the order a crew goes through them; "open" last: it undoes a mark. */
const MARK_CHOICES: readonly WorklistStatus[] = ["acknowledged", "inspected", "dismissed", "open"];

/** What the crew most likely does next: an open item gets acknowledged; otherwise its status stays. */
function nextStatus(status: WorklistStatus): WorklistStatus {
  return status === "open" ? "acknowledged" : status;
}

interface WorklistMarkDialogProps {
  cluster: string;
  item: WorklistItem;
  /** The topics the page reads (the mark's answer is read from the same). */
  topics?: WorklistTopics;
  onClose: () => void;
}

export function WorklistMarkDialog({ cluster, item, topics = {}, onClose }: WorklistMarkDialogProps) {
  const [status, setStatus] = useState<WorklistStatus>(nextStatus(item.status));
  const [note, setNote] = useState("");
  const statusId = useId();
  const noteId = useId();
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => markWorklistItem(cluster, item.equipment_id, { status, note: note.trim() }, topics),
    onSuccess: async () => {
      // Every limit's list of the cluster: the item's row (and the filter's counts) changed.
      await client.invalidateQueries({ queryKey: queryKeys.maintenanceWorklists(cluster) });
      onClose();
    },
  });
  const error = useMemo(() => markErrorOf(mutation.error), [mutation.error]);
  const marked = markedText(item);
  return (
    <ConfirmDialog
      title={`Mark ${item.equipment_id}`}
      confirmLabel="Save the mark"
      tone="primary"
      busy={mutation.isPending}
      error={error}
      confirmTestId="worklist-mark-confirm"
      errorTestId="worklist-mark-error"
      onConfirm={() => mutation.mutate()}
      onCancel={onClose}
    >
      <p>
        Now <strong>{item.status}</strong>
        {marked ? ` (${marked})` : ""}
        {item.note && `: “${item.note}”`}.
      </p>
      <label htmlFor={statusId} className="field-label">
        Status
      </label>
      <select
        id={statusId}
        className="input"
        value={status}
        onChange={(event) => setStatus(event.target.value as WorklistStatus)}
        // The status is what this dialog asks for first (the dialog leaves it the focus).
        autoFocus
        disabled={mutation.isPending}
        data-testid="worklist-mark-status"
      >
        {MARK_CHOICES.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
      <label htmlFor={noteId} className="field-label wl-note-label">
        Note <span className="muted">(optional, {note.length} / {WORKLIST_NOTE_MAX})</span>
      </label>
      <textarea
        id={noteId}
        className="input input-wide"
        rows={3}
        value={note}
        onChange={(event) => setNote(event.target.value)}
        maxLength={WORKLIST_NOTE_MAX}
        placeholder="What the crew found or will do, e.g. bearing replaced"
        disabled={mutation.isPending}
        data-testid="worklist-mark-note"
      />
    </ConfirmDialog>
  );
}

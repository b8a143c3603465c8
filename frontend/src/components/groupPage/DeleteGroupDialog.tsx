import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { deleteGroup } from "../../api/endpoints";
import { queryKeys } from "../../api/queryKeys";
import { clusterPath } from "../../navigation";
import { ConfirmDialog } from "../ConfirmDialog";

interface DeleteGroupDialogProps {
  cluster: string;
  group: string;
  /** After a refusal (e.g. 409 group_active): the group changed, fetch it again. */
  onRefused: () => void;
  onClose: () => void;
}

/**
 * "Delete consumer group …": type the group id, then DELETE it. Done: the group list opens with
 * the flash "… was deleted."; refused: the server's message in the dialog.
 */
export function DeleteGroupDialog({ cluster, group, onRefused, onClose }: DeleteGroupDialogProps) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);

  const onDelete = async () => {
    setBusy(true);
    setError(null);
    try {
      await deleteGroup(cluster, group);
      // The group lists cached earlier still have it: the list opens empty and loads afresh.
      client.removeQueries({ queryKey: queryKeys.groupList(cluster) });
      navigate(clusterPath(cluster, "groups"), { state: { deletedGroup: group } });
    } catch (err) {
      setError(err instanceof Error ? err : new Error(String(err)));
      setBusy(false);
      onRefused();
    }
  };

  return (
    <ConfirmDialog
      title={`Delete consumer group ${group}`}
      expected={group}
      confirmLabel="Delete group"
      busy={busy}
      error={error}
      onConfirm={() => void onDelete()}
      onCancel={() => {
        onClose();
        setError(null);
      }}
    >
      <p>
        The group&apos;s committed offsets on cluster <strong>{cluster}</strong> are deleted. A consumer that joins
        with this group id later starts from its <code>auto.offset.reset</code> position. Export the offsets first
        if you may need them.
      </p>
    </ConfirmDialog>
  );
}

import { useState } from "react";
import type { BrokerConfigWrite } from "../../hooks/useBrokerConfigWrite";
import { afterRevertWords, heldForApprovalMessage, refusalMessages, revertSentence, type ConfigLevel } from "../../lib/brokerConfigs";
import { ConfirmDialog } from "../ConfirmDialog";

interface ConfigRevertDialogProps {
  name: string;
  /** Where the value to delete is set: this broker, or cluster-wide. */
  level: ConfigLevel;
  brokerId: number;
  write: BrokerConfigWrite;
  onDone: (message: string) => void;
  onCancel: () => void;
}

/** Confirms, then deletes a dynamic value at its level (`{"delete": [name]}`); a refusal is said in the dialog. */
export function ConfigRevertDialog({ name, level, brokerId, write, onDone, onCancel }: ConfigRevertDialogProps) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Error | null>(null);
  const sentence = revertSentence(name, level, brokerId);

  const onConfirm = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await write(level, { delete: [name] });
      onDone(`${sentence}.`);
    } catch (err) {
      const held = heldForApprovalMessage(err);
      if (held) {
        onDone(held);
        return;
      }
      const refused = refusalMessages(err);
      setFailure(refused ? new Error(refused.join(" ")) : err instanceof Error ? err : new Error(String(err)));
      setBusy(false);
    }
  };

  return (
    <ConfirmDialog
      title={`Revert ${name}`}
      confirmLabel="Revert"
      busy={busy}
      error={failure}
      errorTestId="broker-config-revert-error"
      onConfirm={() => void onConfirm()}
      onCancel={onCancel}
    >
      <p data-testid="broker-config-revert-change">{sentence}</p>
      <p className="field-hint">{afterRevertWords(level)}</p>
    </ConfirmDialog>
  );
}

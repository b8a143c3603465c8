import { useCallback, useState } from "react";
import type { ConfigEntry } from "../../api/types";
import type { BrokerConfigWrite } from "../../hooks/useBrokerConfigWrite";
import {
  heldForApprovalMessage,
  initialLevel,
  initialValue,
  refusalMessages,
  setSentence,
  shadowedNote,
  type ConfigLevel,
} from "../../lib/brokerConfigs";
import { ConfirmDialog } from "../ConfirmDialog";
import { BrokerConfigEditor } from "./BrokerConfigEditor";

interface BrokerConfigChangeProps {
  entry: ConfigEntry;
  brokerId: number;
  write: BrokerConfigWrite;
  /** After the change: what was done, in a sentence. */
  onDone: (message: string) => void;
  onCancel: () => void;
}

/**
 * Changing one broker config: the editor, then a confirmation that says exactly what will be set
 * where, then the PATCH (`{"set": {name: value}}`) at that level. A refusal (400) goes back to the
 * editor with the server's message beside the value; another failure stays in the confirmation.
 */
export function BrokerConfigChange({ entry, brokerId, write, onDone, onCancel }: BrokerConfigChangeProps) {
  const [value, setValue] = useState(() => initialValue(entry));
  const [level, setLevel] = useState<ConfigLevel>(() => initialLevel(entry));
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[] | null>(null);
  const [failure, setFailure] = useState<Error | null>(null);
  const sentence = setSentence(entry.name, value, entry.sensitive, level, brokerId);
  const note = shadowedNote(entry, level, brokerId);

  const onSave = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await write(level, { set: { [entry.name]: value } });
      onDone(`${sentence}.`);
    } catch (err) {
      const held = heldForApprovalMessage(err);
      if (held) {
        onDone(held);
        return;
      }
      const refused = refusalMessages(err);
      if (refused) {
        setErrors(refused);
        setConfirming(false);
      } else {
        setFailure(err instanceof Error ? err : new Error(String(err)));
      }
      setBusy(false);
    }
  };
  const backToEditor = useCallback(() => {
    setConfirming(false);
    setFailure(null);
  }, []);

  if (confirming) {
    return (
      <ConfirmDialog
        title={`Change ${entry.name}`}
        confirmLabel="Set"
        dismissLabel="Back"
        tone={level === "cluster" ? "danger" : "primary"}
        busy={busy}
        error={failure}
        errorTestId="broker-config-confirm-error"
        onConfirm={() => void onSave()}
        onCancel={backToEditor}
      >
        <p data-testid="broker-config-change">{sentence}</p>
        {note && (
          <p className="field-hint" data-testid="broker-config-shadowed">
            {note}
          </p>
        )}
      </ConfirmDialog>
    );
  }
  return (
    <BrokerConfigEditor
      entry={entry}
      brokerId={brokerId}
      value={value}
      level={level}
      errors={errors}
      onValue={(next) => {
        setValue(next);
        setErrors(null);
      }}
      onLevel={(next) => {
        setLevel(next);
        setErrors(null);
      }}
      onSave={() => setConfirming(true)}
      onCancel={onCancel}
    />
  );
}

import { useRef, useState } from "react";
import type { PlanMove } from "../../api/types";
import { parseReplicaList, replicaText } from "../../lib/reassign";

interface TargetReplicasInputProps {
  move: PlanMove;
  onEdit: (topic: string, partition: number, replicas: number[]) => void;
  /** What was typed is no broker list (said above the table). */
  onInvalid: (message: string) => void;
}

/**
 * A partition's new replicas as comma-separated broker ids (the first is the preferred leader),
 * applied with Enter or on leaving the field; a new preview's replicas replace what was typed.
 */
export function TargetReplicasInput({ move, onEdit, onInvalid }: TargetReplicasInputProps) {
  const shown = replicaText(move.to);
  const [draft, setDraft] = useState(shown);
  const [invalid, setInvalid] = useState(false);
  const [previewed, setPreviewed] = useState(shown);
  // The list last sent: leaving the field after Enter does not send it again.
  const sent = useRef<string | null>(null);
  if (previewed !== shown) {
    setPreviewed(shown);
    setDraft(shown);
    setInvalid(false);
    sent.current = null;
  }
  const name = `${move.topic}-${move.partition}`;

  const apply = () => {
    const parsed = parseReplicaList(draft);
    if (!parsed.ok) {
      setInvalid(true);
      onInvalid(`${name}: ${parsed.error}`);
      return;
    }
    setInvalid(false);
    const text = replicaText(parsed.value);
    if (text === shown || text === sent.current) return;
    sent.current = text;
    onEdit(move.topic, move.partition, parsed.value);
  };

  return (
    <form
      className="inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        apply();
      }}
    >
      <input
        className="input mono reassign-target-input"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={apply}
        spellCheck={false}
        autoComplete="off"
        aria-label={`New replicas of ${name}`}
        aria-invalid={invalid}
        title="Broker ids, comma-separated; the first is the preferred leader. Enter applies."
        data-testid={`reassign-target-${name}`}
      />
    </form>
  );
}

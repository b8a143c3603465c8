import type { BrokerDisk } from "../../api/types";
import { FieldErrors } from "../FieldErrors";

interface BrokerPickerProps {
  /** The live brokers, by id; undefined while loading. */
  brokers: BrokerDisk[] | undefined;
  selected: ReadonlySet<number>;
  onToggle: (id: number, checked: boolean) => void;
  errors: string[] | undefined;
}

/** The live brokers to spread the topics over (kafka-reassign-partitions.sh's --broker-list), with their racks. */
export function BrokerPicker({ brokers, selected, onToggle, errors }: BrokerPickerProps) {
  const racks = brokers !== undefined && brokers.length > 0 && brokers.every((b) => b.rack !== null);
  return (
    <fieldset className="field" data-testid="reassign-brokers">
      <legend className="field-label">Brokers to spread them over</legend>
      {brokers === undefined ? (
        <p className="muted">Loading brokers…</p>
      ) : (
        <div className="reassign-brokers">
          {brokers.map((b) => (
            <label key={b.id} className="checkbox">
              <input
                type="checkbox"
                checked={selected.has(b.id)}
                onChange={(event) => onToggle(b.id, event.target.checked)}
                data-testid={`reassign-broker-${b.id}`}
              />
              Broker {b.id}
              {b.rack !== null && <span className="muted">· rack {b.rack}</span>}
            </label>
          ))}
        </div>
      )}
      <p className="field-hint">
        {racks
          ? "Every broker has a rack: the replicas of a partition go to different racks where they can."
          : "Rack-aware only when every chosen broker has a rack."}{" "}
        Leave out a broker to move its replicas off it.
      </p>
      <FieldErrors messages={errors} testId="reassign-error-brokers" />
    </fieldset>
  );
}

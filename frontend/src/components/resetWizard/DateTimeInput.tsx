import { useId } from "react";
import {
  browserTimeZone,
  COMMON_ZONES,
  FIXED_OFFSETS,
  formatAgo,
  formatLocal,
  formatOffset,
  formatUtc,
  UTC_ZONE,
  wallTimeIn,
  zonedToInstant,
  zoneOffsetMinutes,
} from "../../lib/time";
import type { StrategyInputProps } from "./StrategyInput";

function zoneLabel(zone: string, now: number): string {
  const offset = formatOffset(zoneOffsetMinutes(zone, now), false);
  return `${zone.replace(/_/g, " ")} (UTC${offset})`;
}

/**
 * The to_datetime input: a datetime-local (milliseconds) plus an explicit zone (UTC, this
 * browser's, common zones, fixed offsets), quick choices, and the ISO-8601 sent with its UTC instant.
 */
export function DateTimeInput({ form, set, invalid }: StrategyInputProps) {
  const id = useId();
  const zoneId = useId();
  const now = Date.now();
  const browser = browserTimeZone();
  const named = [UTC_ZONE, ...(browser !== UTC_ZONE ? [browser] : []), ...COMMON_ZONES.filter((z) => z !== browser)];
  const known = named.includes(form.zone) || FIXED_OFFSETS.includes(form.zone);
  const at = zonedToInstant(form.datetime, form.zone);
  const setWall = (ms: number) => set({ datetime: wallTimeIn(ms, form.zone) });
  const startOfToday = () => {
    const today = wallTimeIn(now, form.zone).slice(0, 10);
    set({ datetime: `${today}T00:00:00.000` });
  };

  return (
    <div className="field">
      <div className="field-row datetime-row">
        <div className="field">
          <label htmlFor={id} className="field-label">
            Date and time
          </label>
          <input
            id={id}
            type="datetime-local"
            step={0.001}
            className="input mono"
            value={form.datetime}
            onChange={(event) => set({ datetime: event.target.value })}
            aria-invalid={invalid}
            data-testid="strategy-datetime"
          />
        </div>
        <div className="field">
          <label htmlFor={zoneId} className="field-label">
            in time zone
          </label>
          <select
            id={zoneId}
            className="input"
            value={form.zone}
            onChange={(event) => set({ zone: event.target.value })}
            data-testid="strategy-tz"
          >
            {!known && <option value={form.zone}>{form.zone}</option>}
            <optgroup label="Zones">
              {named.map((zone) => (
                <option key={zone} value={zone}>
                  {zone === UTC_ZONE ? "UTC" : zone === browser ? `${zoneLabel(zone, now)} — this browser` : zoneLabel(zone, now)}
                </option>
              ))}
            </optgroup>
            <optgroup label="Fixed UTC offset">
              {FIXED_OFFSETS.map((offset) => (
                <option key={offset} value={offset}>
                  UTC{offset}
                </option>
              ))}
            </optgroup>
          </select>
        </div>
      </div>
      <div className="action-row">
        <button type="button" className="button button-small" onClick={() => setWall(now)} data-testid="datetime-now">
          Now
        </button>
        <button type="button" className="button button-small" onClick={() => setWall(now - 15 * 60_000)}>
          15 min ago
        </button>
        <button type="button" className="button button-small" onClick={() => setWall(now - 3_600_000)}>
          1 h ago
        </button>
        <button type="button" className="button button-small" onClick={startOfToday}>
          Today 00:00
        </button>
      </div>
      {at ? (
        <p className="strategy-meaning" data-testid="strategy-utc" data-iso={at.iso} data-ms={at.ms}>
          Sends <code data-testid="strategy-iso">{at.iso}</code> = <strong>{formatUtc(at.ms)}</strong> ({formatLocal(at.ms)}{" "}
          local, {formatAgo(at.ms, now)})
          {at.nonexistent && (
            <span className="field-error" data-testid="strategy-tz-gap">
              {" "}
              This wall-clock time does not exist in {form.zone} (the clocks jumped over it).
            </span>
          )}
          {at.ms > now && <span className="move-forward"> — in the future: every partition will go to the log end.</span>}
        </p>
      ) : (
        <p className="field-hint">
          Milliseconds count; with no record at or after this time a partition goes to the log end.
        </p>
      )}
    </div>
  );
}

import { useId } from "react";
import { formatCount, plural } from "../../lib/format";
import { DURATION_PRESETS, type ResetForm } from "../../lib/groups";
import {
  browserTimeZone,
  COMMON_ZONES,
  describeDuration,
  FIXED_OFFSETS,
  formatAgo,
  formatLocal,
  formatOffset,
  formatUtc,
  parseDuration,
  UTC_ZONE,
  wallTimeIn,
  zonedToInstant,
  zoneOffsetMinutes,
} from "../../lib/time";

interface StrategyInputProps {
  form: ResetForm;
  set: (change: Partial<ResetForm>) => void;
  invalid: boolean;
}

function zoneLabel(zone: string, now: number): string {
  const offset = formatOffset(zoneOffsetMinutes(zone, now), false);
  return `${zone.replace(/_/g, " ")} (UTC${offset})`;
}

export function StrategyInput({ form, set, invalid }: StrategyInputProps) {
  const id = useId();
  switch (form.strategy) {
    case "to_offset":
      return (
        <div className="field">
          <label htmlFor={id} className="field-label">
            Offset
          </label>
          <input
            id={id}
            type="number"
            step={1}
            className="input input-offset"
            value={form.offset}
            onChange={(event) => set({ offset: event.target.value })}
            aria-invalid={invalid}
            data-testid="strategy-offset"
          />
          <p className="field-hint">The same offset on every partition in scope; below log start or above log end it is clamped.</p>
        </div>
      );
    case "shift_by": {
      const n = Number(form.shift);
      return (
        <div className="field">
          <label htmlFor={id} className="field-label">
            Shift by N records
          </label>
          <input
            id={id}
            type="number"
            step={1}
            className="input input-offset"
            value={form.shift}
            onChange={(event) => set({ shift: event.target.value })}
            aria-invalid={invalid}
            data-testid="strategy-shift"
          />
          <p className="field-hint" data-testid="strategy-shift-meaning">
            {form.shift.trim() && Number.isInteger(n) && n !== 0
              ? n < 0
                ? `Goes back ${formatCount(-n)} ${plural(-n, "record")} on each partition: they are read again.`
                : `Goes forward ${formatCount(n)} ${plural(n, "record")} on each partition: they are skipped.`
              : "Negative goes back (re-read), positive goes forward (skip)."}
          </p>
        </div>
      );
    }
    case "to_datetime":
      return <DateTimeInput form={form} set={set} invalid={invalid} />;
    case "by_duration": {
      const ms = parseDuration(form.duration.trim().toUpperCase());
      return (
        <div className="field">
          <label htmlFor={id} className="field-label">
            Duration back from now (ISO-8601)
          </label>
          <div className="action-row">
            <input
              id={id}
              className="input mono input-duration"
              placeholder="PT15M"
              value={form.duration}
              onChange={(event) => set({ duration: event.target.value })}
              aria-invalid={invalid}
              data-testid="strategy-duration"
            />
            {DURATION_PRESETS.map(([iso, label]) => (
              <button
                key={iso}
                type="button"
                className={form.duration.trim().toUpperCase() === iso ? "button button-small active-choice" : "button button-small"}
                onClick={() => set({ duration: iso })}
                data-testid={`duration-${iso}`}
              >
                {label}
              </button>
            ))}
          </div>
          <p className="field-hint">
            <code>PT15M</code> = 15 minutes, <code>PT6H</code> = 6 hours, <code>P1D</code> = 1 day,{" "}
            <code>P2DT3H30M</code> = 2 days 3 hours 30 minutes. Weeks and months are not accepted.
          </p>
          {ms !== null && (
            <p className="strategy-meaning" data-testid="strategy-duration-meaning">
              = {describeDuration(ms)}
              {ms >= 0 ? (
                <>
                  : back to about <strong>{formatUtc(Date.now() - ms)}</strong> ({formatLocal(Date.now() - ms)} local). The
                  server takes “now” when it plans and again when it executes.
                </>
              ) : (
                <>: a negative duration points to the future, so every partition goes to the log end.</>
              )}
            </p>
          )}
        </div>
      );
    }
    case "from_file":
      return (
        <div className="field">
          <label htmlFor={id} className="field-label">
            CSV: topic,partition,offset per line (no header)
          </label>
          <textarea
            id={id}
            className="input input-wide mono"
            rows={6}
            placeholder={"orders,0,1200\norders,1,1187"}
            value={form.csv}
            onChange={(event) => set({ csv: event.target.value })}
            aria-invalid={invalid}
            spellCheck={false}
            data-testid="strategy-csv"
          />
          <div className="action-row">
            <label className="button button-small file-button">
              Load a file…
              <input
                type="file"
                accept=".csv,text/csv,text/plain"
                className="visually-hidden"
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  if (file) void file.text().then((text) => set({ csv: text }));
                  event.target.value = "";
                }}
                data-testid="strategy-csv-file"
              />
            </label>
            <span className="field-hint">
              The format of “Export offsets.csv”; <code>group,topic,partition,offset</code> lines work too (other groups&apos;
              rows are skipped).
            </span>
          </div>
        </div>
      );
    default:
      return null;
  }
}

function DateTimeInput({ form, set, invalid }: StrategyInputProps) {
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

import { useId, useRef, type ReactNode } from "react";
import {
  browserTimeZone,
  COMMON_ZONES,
  FIXED_OFFSETS,
  formatAgo,
  formatInZone,
  formatWallInput,
  preferredHourCycle,
  UTC_ZONE,
  wallTimeIn,
  wallTimePlaceholder,
  zonedToInstant,
  zoneName,
} from "../../lib/time";
import { Field } from "../Field";

/** A wall-clock date-time as typed and the zone it is read in. */
export interface ZonedDateTime {
  /** As typed (a datetime-local value, or with a space, 12- or 24-hour). */
  datetime: string;
  /** "UTC", an IANA zone or "+HH:MM". */
  zone: string;
}

interface DateTimeInputProps {
  form: ZonedDateTime;
  set: (change: Partial<ZonedDateTime>) => void;
  invalid: boolean;
  /** The first part of its test ids ("strategy": strategy-datetime, strategy-tz, strategy-iso…;
   * its "Now" button is datetime-now). */
  testId?: string;
  /** The input's label, before the clock it reads ("Date and time"). */
  label?: ReactNode;
  /** Said after the format under the empty input (the reset's: where a partition goes). */
  hint?: ReactNode;
  /** Said after the meaning of a time in the future (the reset's: every partition to the end). */
  future?: ReactNode;
  /** The quick choices: back from now (the reset's default) or ahead of it. */
  quick?: "past" | "future";
}

const RESET_HINT = "with no record at or after this time a partition goes to the log end.";
const RESET_FUTURE = "in the future: every partition will go to the log end.";

/**
 * A date-time input (the reset's to_datetime by default): a wall-clock date-time typed as text
 * (24-hour, or 12-hour with AM/PM where the browser's locale asks for it; the other clock is read
 * too) in an explicit zone shown beside it and chosen below (UTC, this browser's, common zones,
 * fixed offsets), quick choices, and the ISO-8601 sent with its UTC instant.
 */
export function DateTimeInput({
  form,
  set,
  invalid,
  testId = "strategy",
  label = "Date and time",
  hint = RESET_HINT,
  future = RESET_FUTURE,
  quick = "past",
}: DateTimeInputProps) {
  const id = useId();
  const zoneId = useId();
  const hintId = useId();
  const now = Date.now();
  const cycle = preferredHourCycle();
  const browser = browserTimeZone();
  const named = [UTC_ZONE, ...(browser !== UTC_ZONE ? [browser] : []), ...COMMON_ZONES.filter((z) => z !== browser)];
  const known = named.includes(form.zone) || FIXED_OFFSETS.includes(form.zone);
  const at = zonedToInstant(form.datetime, form.zone);
  const setWall = (ms: number) => set({ datetime: formatWallInput(wallTimeIn(ms, form.zone), cycle) });
  // The calendar: the browser's own date-time picker on a hidden input, whose choice lands in
  // the text field (which keeps the 24-hour clock whatever the picker displays).
  const picker = useRef<HTMLInputElement>(null);
  const openPicker = () => {
    const input = picker.current;
    if (!input) return;
    input.value = form.datetime && at ? wallTimeIn(at.ms, form.zone).slice(0, 19) : "";
    try {
      input.showPicker();
    } catch {
      input.focus(); // no showPicker (older browsers): the focused input opens on a key press
    }
  };
  const picked = (value: string) => {
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return;
    const wall = value.length === 16 ? `${value}:00.000` : value.length === 19 ? `${value}.000` : value;
    set({ datetime: formatWallInput(wall, cycle) });
  };
  const startOfToday = () => {
    const today = wallTimeIn(now, form.zone).slice(0, 10);
    set({ datetime: formatWallInput(`${today}T00:00:00.000`, cycle) });
  };
  const shortcuts: [label: string, ms: number][] =
    quick === "past"
      ? [
          ["15 min ago", now - 15 * 60_000],
          ["1 h ago", now - 3_600_000],
        ]
      : [
          ["In 1 h", now + 3_600_000],
          ["In 1 day", now + 86_400_000],
        ];

  return (
    <div className="field">
      <div className="field-row datetime-row">
        <Field label={<>{label} ({cycle === "h12" ? "12-hour clock" : "24-hour clock"})</>} htmlFor={id}>
          <span className="input-with-zone">
            <input
              id={id}
              type="text"
              inputMode="text"
              autoComplete="off"
              spellCheck={false}
              className="input mono input-datetime"
              placeholder={wallTimePlaceholder(cycle)}
              value={form.datetime}
              onChange={(event) => set({ datetime: event.target.value })}
              aria-invalid={invalid}
              aria-describedby={hintId}
              data-testid={`${testId}-datetime`}
              data-hour-cycle={cycle}
            />
            <button
              type="button"
              className="button button-small"
              onClick={openPicker}
              title="Pick a date and time"
              aria-label="Pick a date and time"
              data-testid={`${testId}-datetime-pick`}
            >
              Pick…
            </button>
            <input
              ref={picker}
              type="datetime-local"
              step={1}
              tabIndex={-1}
              aria-hidden="true"
              className="visually-hidden-picker"
              onChange={(event) => picked(event.target.value)}
              data-testid={`${testId}-datetime-picker`}
            />
            <span className="zone-tag" title="The zone this date and time is read in" data-testid={`${testId}-datetime-zone`}>
              {form.zone === UTC_ZONE ? "UTC" : zoneName(form.zone, at?.ms ?? now)}
            </span>
          </span>
        </Field>
        <Field label="in time zone" htmlFor={zoneId}>
          <select
            id={zoneId}
            className="input"
            value={form.zone}
            onChange={(event) => set({ zone: event.target.value })}
            data-testid={`${testId}-tz`}
          >
            {!known && <option value={form.zone}>{form.zone}</option>}
            <optgroup label="Zones">
              {named.map((zone) => (
                <option key={zone} value={zone}>
                  {zone === UTC_ZONE ? "UTC" : zone === browser ? `${zoneName(zone, now)} — this browser` : zoneName(zone, now)}
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
        </Field>
      </div>
      <div className="action-row">
        <button
          type="button"
          className="button button-small"
          onClick={() => setWall(now)}
          data-testid={testId === "strategy" ? "datetime-now" : `${testId}-now`}
        >
          Now
        </button>
        {shortcuts.map(([text, ms]) => (
          <button key={text} type="button" className="button button-small" onClick={() => setWall(ms)}>
            {text}
          </button>
        ))}
        <button type="button" className="button button-small" onClick={startOfToday}>
          Today 00:00
        </button>
      </div>
      {at ? (
        <p className="strategy-meaning" id={hintId} data-testid={`${testId}-utc`} data-iso={at.iso} data-ms={at.ms}>
          Sends <code data-testid={`${testId}-iso`}>{at.iso}</code> ={" "}
          <strong className="nowrap">{formatInZone(at.ms, UTC_ZONE, cycle, true)} UTC</strong>{" "}
          <span className="nowrap">
            ({formatInZone(at.ms, browser, cycle, true)} {browser === UTC_ZONE ? "UTC" : browser.replace(/_/g, " ")}, this browser,{" "}
            {formatAgo(at.ms, now)})
          </span>
          {at.nonexistent && (
            <span className="field-error" data-testid={`${testId}-tz-gap`}>
              {" "}
              This wall-clock time does not exist in {form.zone} (the clocks jumped over it).
            </span>
          )}
          {at.ms > now && future && <span className="move-forward"> — {future}</span>}
        </p>
      ) : (
        <p className="field-hint" id={hintId}>
          As {wallTimePlaceholder(cycle)} (milliseconds count: “.250”){hint ? <>; {hint}</> : "."}
        </p>
      )}
    </div>
  );
}

// Date-times and durations for the offset reset wizard: a wall-clock time in an
// explicit zone turned into an ISO-8601 instant with its UTC offset, and the
// ISO-8601 durations Kafka accepts (java.time.Duration.parse: PnDTnHnMn.nS).

export const UTC_ZONE = "UTC";

const pad2 = (n: number) => String(n).padStart(2, "0");
const pad3 = (n: number) => String(n).padStart(3, "0");

/** The browser's IANA zone ("Europe/Paris"), UTC when unknown. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || UTC_ZONE;
  } catch {
    return UTC_ZONE;
  }
}

/** A few zones on-call engineers are likely to think in. */
export const COMMON_ZONES = [
  "America/Los_Angeles",
  "America/Denver",
  "America/Chicago",
  "America/New_York",
  "America/Sao_Paulo",
  "Europe/London",
  "Europe/Paris",
  "Europe/Berlin",
  "Europe/Helsinki",
  "Asia/Dubai",
  "Asia/Kolkata",
  "Asia/Singapore",
  "Asia/Shanghai",
  "Asia/Tokyo",
  "Australia/Sydney",
];

/** Every UTC offset in use somewhere, as "+HH:MM" (fixed-offset choices of the zone select). */
export const FIXED_OFFSETS: string[] = [
  -720, -660, -600, -570, -540, -480, -420, -360, -300, -240, -210, -180, -120, -60, 0, 60, 120, 180, 210,
  240, 270, 300, 330, 345, 360, 390, 420, 480, 525, 540, 570, 600, 630, 660, 720, 765, 780, 840,
].map((m) => formatOffset(m, false));

const FIXED_OFFSET = /^([+-])(\d{2}):?(\d{2})$/;

/** True for "UTC", a "+HH:MM" offset or an IANA zone the browser knows. */
export function isValidZone(zone: string): boolean {
  if (zone === UTC_ZONE || FIXED_OFFSET.test(zone)) return true;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** "+01:00" for 60, "-09:30" for -570; "Z" for 0 unless `zulu` is false. */
export function formatOffset(minutes: number, zulu = true): string {
  if (minutes === 0 && zulu) return "Z";
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let dtf = formatters.get(zone);
  if (!dtf) {
    dtf = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(zone, dtf);
  }
  return dtf;
}

/** Minutes east of UTC of `zone` ("UTC", "+05:30" or an IANA name) at the instant `ms`. */
export function zoneOffsetMinutes(zone: string, ms: number): number {
  if (zone === UTC_ZONE) return 0;
  const fixed = FIXED_OFFSET.exec(zone);
  if (fixed) {
    const minutes = Number(fixed[2]) * 60 + Number(fixed[3]);
    return fixed[1] === "-" ? -minutes : minutes;
  }
  const parts: Record<string, number> = {};
  for (const part of formatterFor(zone).formatToParts(new Date(ms))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  const wall = Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    (parts.hour ?? 0) % 24,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  const whole = Math.floor(ms / 1000) * 1000;
  return Math.round((wall - whole) / 60_000);
}

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millis: number;
}

const WALL =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ]|\s+)(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:\s*([ap])\.?\s*m\.?)?$/i;

/**
 * The fields of a wall-clock date-time, or null: a datetime-local value ("2026-11-21T10:03",
 * "...:12", "...:12.25") or the same with a space ("2026-11-21 10:03:12"), 24-hour, or 12-hour
 * with AM/PM ("2026-11-21 10:03 PM", "2026-11-21 12:00:00.250 am").
 */
export function parseWallTime(value: string): WallTime | null {
  const m = WALL.exec(value.trim());
  if (!m) return null;
  let hour = Number(m[4]);
  const meridiem = m[8]?.toLowerCase();
  if (meridiem) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (meridiem === "p" ? 12 : 0);
  }
  const wall: WallTime = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour,
    minute: Number(m[5]),
    second: Number(m[6] ?? 0),
    millis: Number((m[7] ?? "0").padEnd(3, "0").slice(0, 3)),
  };
  // Reject 2026-02-30, 25:00 and the like (Date.UTC would roll them over).
  const d = new Date(Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second));
  if (
    d.getUTCFullYear() !== wall.year ||
    d.getUTCMonth() !== wall.month - 1 ||
    d.getUTCDate() !== wall.day ||
    d.getUTCHours() !== wall.hour ||
    d.getUTCMinutes() !== wall.minute ||
    d.getUTCSeconds() !== wall.second
  ) {
    return null;
  }
  return wall;
}

function wallString(w: WallTime): string {
  return (
    `${String(w.year).padStart(4, "0")}-${pad2(w.month)}-${pad2(w.day)}` +
    `T${pad2(w.hour)}:${pad2(w.minute)}:${pad2(w.second)}.${pad3(w.millis)}`
  );
}

export interface ZonedInstant {
  /** ISO-8601 with milliseconds and the zone's offset at that time, e.g. 2026-07-01T09:30:00.000-04:00. */
  iso: string;
  /** Epoch milliseconds. */
  ms: number;
  /** Minutes east of UTC used. */
  offsetMinutes: number;
  /** The wall time does not exist in the zone (the clock jumped over it); iso uses the offset before the jump. */
  nonexistent: boolean;
}

/**
 * The instant at wall-clock time `value` (a datetime-local value) in `zone`:
 * "2026-07-01T09:30" in America/New_York is 2026-07-01T09:30:00.000-04:00 (daylight
 * time), in January -05:00. Milliseconds are always written (Kafka's tool needs them).
 * null when `value` is not a valid date-time.
 */
export function zonedToInstant(value: string, zone: string): ZonedInstant | null {
  const wall = parseWallTime(value);
  if (!wall || !isValidZone(zone)) return null;
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second, wall.millis);
  let offset = zoneOffsetMinutes(zone, asUtc);
  let ms = asUtc - offset * 60_000;
  const second = zoneOffsetMinutes(zone, ms);
  if (second !== offset) {
    offset = second;
    ms = asUtc - offset * 60_000;
  }
  const nonexistent = zoneOffsetMinutes(zone, ms) !== offset;
  return { iso: `${wallString(wall)}${formatOffset(offset)}`, ms, offsetMinutes: offset, nonexistent };
}

/** The wall-clock time of instant `ms` in `zone`, as a datetime-local value with milliseconds. */
export function wallTimeIn(ms: number, zone: string): string {
  const shifted = new Date(ms + zoneOffsetMinutes(zone, ms) * 60_000);
  return shifted.toISOString().slice(0, 23);
}

/** "2026-11-21 09:03:12.250 UTC". */
export function formatUtc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 23).replace("T", " ")} UTC`;
}

/** "2026-11-21 10:03:12.250" in the browser's zone. */
export function formatLocal(ms: number): string {
  const d = new Date(ms);
  return (
    `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ` +
    `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}.${pad3(d.getMilliseconds())}`
  );
}

/** "2 h 5 min ago", "in 3 min", "just now" relative to `now`. */
export function formatAgo(ms: number, now: number = Date.now()): string {
  const diff = now - ms;
  const abs = Math.abs(diff);
  if (abs < 5_000) return "just now";
  const text = formatSpan(abs);
  return diff >= 0 ? `${text} ago` : `in ${text}`;
}

/** "3 d 4 h", "2 h 5 min", "15 min", "42 s" for a span in milliseconds. */
export function formatSpan(ms: number): string {
  const abs = Math.abs(ms);
  const s = Math.floor(abs / 1000);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const parts: string[] = [];
  if (d) parts.push(`${d} d`);
  if (h) parts.push(`${h} h`);
  if (m && !d) parts.push(`${m} min`);
  if (!d && !h && (sec || parts.length === 0)) {
    parts.push(abs < 1000 ? `${abs} ms` : `${sec} s`);
  }
  return parts.join(" ");
}

const DURATION =
  /^([-+]?)P(?:([-+]?\d+)D)?(T(?:([-+]?\d+)H)?(?:([-+]?\d+)M)?(?:([-+]?\d+)(?:[.,](\d{0,9}))?S)?)?$/i;

/**
 * Milliseconds of an ISO-8601 duration in the form Kafka's tool accepts
 * (java.time.Duration.parse: PnDTnHnMn.nS, signs allowed, no weeks/months/years),
 * or null when it does not parse. PT15M is 900000.
 */
export function parseDuration(text: string): number | null {
  const m = DURATION.exec(text.trim());
  if (!m) return null;
  const [, sign, days, time, hours, minutes, seconds, fraction] = m;
  const timeParts = hours !== undefined || minutes !== undefined || seconds !== undefined;
  if ((days === undefined && !timeParts) || (time !== undefined && !timeParts)) return null;
  const secs = Number(seconds ?? 0);
  let frac = Number((fraction ?? "").padEnd(3, "0").slice(0, 3) || 0);
  if (secs < 0 || (seconds ?? "").startsWith("-")) frac = -frac;
  const total =
    Number(days ?? 0) * 86_400_000 +
    Number(hours ?? 0) * 3_600_000 +
    Number(minutes ?? 0) * 60_000 +
    secs * 1000 +
    frac;
  return sign === "-" ? -total : total;
}

/** "15 minutes", "1 day 3 hours 30 minutes" for a duration in milliseconds. */
export function describeDuration(ms: number): string {
  const neg = ms < 0;
  let rest = Math.abs(ms);
  const units: [number, string][] = [
    [86_400_000, "day"],
    [3_600_000, "hour"],
    [60_000, "minute"],
    [1000, "second"],
    [1, "millisecond"],
  ];
  const parts: string[] = [];
  for (const [size, name] of units) {
    const n = Math.floor(rest / size);
    if (n) parts.push(`${n} ${name}${n === 1 ? "" : "s"}`);
    rest -= n * size;
  }
  const text = parts.length ? parts.join(" ") : "0 seconds";
  return neg ? `minus ${text}` : text;
}

/** 24-hour ("h23") or 12-hour with AM/PM ("h12") clock. */
export type HourCycle = "h12" | "h23";

/**
 * The clock this browser's locale (or `locale`) writes times in: 12-hour where it asks for it
 * (en-US: Intl's hourCycle h11/h12), 24-hour everywhere else.
 */
export function preferredHourCycle(locale?: string): HourCycle {
  try {
    const cycle = new Intl.DateTimeFormat(locale, { hour: "numeric" }).resolvedOptions().hourCycle;
    return cycle === "h11" || cycle === "h12" ? "h12" : "h23";
  } catch {
    return "h23";
  }
}

/** "2026-11-21 14:03:12" (24-hour) or "2026-11-21 2:03:12 PM" (12-hour); ".250" when there are
 * milliseconds, or always with `millis`. */
export function formatWallTime(wall: WallTime, cycle: HourCycle, millis = false): string {
  const date = `${String(wall.year).padStart(4, "0")}-${pad2(wall.month)}-${pad2(wall.day)}`;
  const fraction = millis || wall.millis ? `.${pad3(wall.millis)}` : "";
  const rest = `${pad2(wall.minute)}:${pad2(wall.second)}${fraction}`;
  if (cycle === "h23") return `${date} ${pad2(wall.hour)}:${rest}`;
  const hour12 = wall.hour % 12 === 0 ? 12 : wall.hour % 12;
  return `${date} ${hour12}:${rest} ${wall.hour < 12 ? "AM" : "PM"}`;
}

/** The instant `ms` as wall-clock time in `zone` ("UTC", IANA, "+05:30"), in the `cycle` clock. */
export function formatInZone(ms: number, zone: string, cycle: HourCycle, millis = false): string {
  const wall = parseWallTime(wallTimeIn(ms, zone));
  return wall ? formatWallTime(wall, cycle, millis) : wallTimeIn(ms, zone);
}

/** A wall-clock date-time in the `cycle` clock as typed into an input: "2026-11-21 14:03:12". */
export function formatWallInput(value: string, cycle: HourCycle): string {
  const wall = parseWallTime(value);
  return wall ? formatWallTime(wall, cycle) : value;
}

/** The format a date-time input asks for, in the `cycle` clock. */
export function wallTimePlaceholder(cycle: HourCycle): string {
  return cycle === "h12" ? "YYYY-MM-DD hh:mm:ss AM" : "YYYY-MM-DD HH:mm:ss";
}

const EXPLICIT_ZONE = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;

/** Whether an ISO-8601 date-time names its zone itself ("...Z", "...+01:00"). */
export function hasExplicitZone(text: string): boolean {
  const trimmed = text.trim();
  return /\d[T ]\d/.test(trimmed) && EXPLICIT_ZONE.test(trimmed);
}

/** A zone's name as an operator reads it: "UTC", "Europe/Paris (UTC+01:00)", "UTC+05:30". */
export function zoneName(zone: string, at: number = Date.now()): string {
  if (zone === UTC_ZONE) return "UTC";
  if (FIXED_OFFSET.test(zone)) return `UTC${zone}`;
  return `${zone.replace(/_/g, " ")} (UTC${formatOffset(zoneOffsetMinutes(zone, at), false)})`;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** "hh:mm:ss" in local time, 24-hour. */
export function formatClock(date: Date): string {
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** A count with thousands separators, or an em dash when unknown. */
export function formatCount(value: number | null | undefined): string {
  return value === null || value === undefined ? "—" : value.toLocaleString("en-US");
}

/** A share (0..1: of all records, of a model's importance) as a percentage: "31.7 %". */
export function formatShare(share: number): string {
  return `${(share * 100).toFixed(1)} %`;
}

/** The word for `count` things: plural(1, "broker") is "broker", plural(3, "broker") "brokers". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return count === 1 ? one : many;
}

/**
 * A duration in seconds, human-sized: "0 s", "45 s", "1 m 05 s", "2 h 03 m", "3 d 04 h"; an em dash
 * when unknown. Whole seconds (rounded); negative values count as 0.
 */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "—";
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} m ${pad(s % 60)} s`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ${pad(Math.floor((s % 3600) / 60))} m`;
  return `${Math.floor(s / 86_400).toLocaleString("en-US")} d ${pad(Math.floor((s % 86_400) / 3600))} h`;
}

/** Records per second: "0/s", "0.4/s", "12.5/s", "1,234/s"; an em dash when unknown. */
export function formatRate(perSecond: number | null | undefined): string {
  if (perSecond === null || perSecond === undefined || !Number.isFinite(perSecond)) return "—";
  const digits = Math.abs(perSecond) >= 100 ? 0 : 1;
  return `${perSecond.toLocaleString("en-US", { maximumFractionDigits: digits })}/s`;
}

/** A size in bytes: "512 B", "1.5 KiB", "12.3 MiB", "2.00 GiB"; an em dash when unknown. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return "—";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${value.toLocaleString("en-US")} B`;
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${units[unit]}`;
}

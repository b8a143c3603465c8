const pad = (n: number) => String(n).padStart(2, "0");

/** "hh:mm:ss" in local time, 24-hour. */
export function formatClock(date: Date): string {
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** A count with thousands separators, or an em dash when unknown. */
export function formatCount(value: number | null | undefined): string {
  return value === null || value === undefined ? "—" : value.toLocaleString("en-US");
}

/** The word for `count` things: plural(1, "broker") is "broker", plural(3, "broker") "brokers". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return count === 1 ? one : many;
}

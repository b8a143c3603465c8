// A topic's size, message count and readers (GET .../topics and .../topics/{topic}): the words
// the topics list and the topic page show for them.
import { formatBytes, formatCount, plural } from "./format";

/** The tooltip of a compacted topic's message count. */
export const UPPER_BOUND_TITLE = "compacted: an upper bound";

/** The tooltip of an unknown number of reading groups. */
export const READERS_UNKNOWN_TITLE = "unknown: no lag sampler pass";

/** A message count with thousands separators, "≤ 1,234" when it is only an upper bound (a
 * compacted topic); an em dash when unknown. */
export function formatMessageCount(count: number | null | undefined, upperBound: boolean): string {
  if (count === null || count === undefined) return "—";
  return upperBound ? `≤ ${formatCount(count)}` : formatCount(count);
}

/** "3 groups", "1 group", "0 groups"; an em dash when unknown. */
export function formatReaderGroups(groups: number | null | undefined): string {
  return groups === null || groups === undefined ? "—" : `${formatCount(groups)} ${plural(groups, "group")}`;
}

/** "4.50 MiB on all replicas" (the tooltip of a leader-replicas size). */
export function replicasSizeTitle(bytes: number | null | undefined): string {
  return bytes === null || bytes === undefined ? "size on all replicas unknown" : `${formatBytes(bytes)} on all replicas`;
}

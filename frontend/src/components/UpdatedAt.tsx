import { formatClock } from "../lib/format";

/** "updated hh:mm:ss" for polled views. */
export function UpdatedAt({ at }: { at: Date | null }) {
  if (!at) return null;
  return (
    <span className="updated-at" data-testid="updated-at">
      updated <time dateTime={at.toISOString()}>{formatClock(at)}</time>
    </span>
  );
}

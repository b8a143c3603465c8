import { formatAgo, formatLocal } from "../lib/time";

/** A `<dt>`/`<dd>` pair of a facts list: a server time in the local zone to the second, how long
 * ago under it, the raw value as its tooltip; "—" for none, the raw text if it does not parse. */
export function FactTimestamp({ label, at, testId }: { label: string; at: string | null; testId: string }) {
  const ms = at ? Date.parse(at) : NaN;
  return (
    <div>
      <dt>{label}</dt>
      <dd data-testid={testId} title={at ?? undefined}>
        {at === null ? (
          <span className="muted">—</span>
        ) : Number.isNaN(ms) ? (
          at
        ) : (
          <>
            <time dateTime={at}>{formatLocal(ms).slice(0, 19)}</time>
            <span className="muted small-line">{formatAgo(ms)}</span>
          </>
        )}
      </dd>
    </div>
  );
}

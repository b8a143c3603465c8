import { useMemo, useState } from "react";
import { electLeaders } from "../../api/endpoints";
import type { ElectionResult, Reassignment } from "../../api/types";
import { formatCount, plural } from "../../lib/format";
import { electionCounts, notPreferredLeaders } from "../../lib/reassign";
import { ErrorOrApprovalNotice } from "../ApprovalNotice";

interface PreferredLeadersProps {
  cluster: string;
  reassignment: Pick<Reassignment, "state" | "partitions">;
  /** After an election: fetch the reassignment again (its leaders). */
  onElected: () => void;
}

/**
 * Once completed: the moved partitions whose leader is not their preferred one (the first of the
 * new replicas) and a preferred election of exactly those, with its outcome; or that every leader
 * is the preferred one. (Kafka elects them by itself only every leader.imbalance.check.interval.seconds,
 * and only above its imbalance threshold.)
 */
export function PreferredLeaders({ cluster, reassignment: r, onElected }: PreferredLeadersProps) {
  const refs = useMemo(() => notPreferredLeaders(r.partitions), [r.partitions]);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ElectionResult[] | null>(null);
  const [error, setError] = useState<Error | null>(null);
  if (r.state !== "completed") return null;

  const onElect = async () => {
    setBusy(true);
    setError(null);
    try {
      setResult(await electLeaders(cluster, "preferred", refs));
      onElected();
    } catch (err) {
      setError(err instanceof Error ? err : new Error(String(err)));
    } finally {
      setBusy(false);
    }
  };

  const n = refs.length;
  return (
    <section data-testid="reassign-leaders">
      {n > 0 ? (
        <div className="notice notice-warn action-row" data-testid="reassign-leaders-callout" data-count={n}>
          <span>
            {formatCount(n)} moved {plural(n, "partition")} {n === 1 ? "is not led by its" : "are not led by their"} preferred
            leader (the first of the new replicas).
          </span>
          <button
            type="button"
            className="button button-small"
            onClick={() => void onElect()}
            disabled={busy}
            data-testid="reassign-elect-leaders"
          >
            {busy ? "Electing…" : "Elect preferred leaders"}
          </button>
        </div>
      ) : (
        <p className="notice notice-ok" data-testid="reassign-leaders-ok">
          Every moved partition is led by its preferred leader.
        </p>
      )}
      {error && <ErrorOrApprovalNotice error={error} title="Preferred leader election failed" />}
      {result && <ElectionOutcome rows={result} />}
    </section>
  );
}

function ElectionOutcome({ rows }: { rows: ElectionResult[] }) {
  const counts = electionCounts(rows);
  const failed = rows.filter((r) => r.outcome === "failed");
  return (
    <div role="status" data-testid="reassign-election-result" data-elected={counts.elected} data-failed={counts.failed}>
      <p>
        Preferred election: {formatCount(counts.elected)} elected, {formatCount(counts.not_needed)} not needed,{" "}
        {formatCount(counts.failed)} failed.
      </p>
      {failed.length > 0 && (
        <ul className="field-error">
          {failed.map((r) => (
            <li key={`${r.topic}-${r.partition}`}>
              <span className="mono">
                {r.topic}-{r.partition}
              </span>
              : {r.error ?? "failed"}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { addPartitions, deleteTopic, electLeaders } from "../api/endpoints";
import { queryKeys } from "../api/queryKeys";
import type { ElectionResult, ElectionType, TopicDetail } from "../api/types";
import { clusterPath, reassignNewPath } from "../navigation";
import { isApprovalRequested } from "../lib/approvals";
import { plural } from "../lib/format";
import { ErrorOrApprovalNotice } from "./ApprovalNotice";
import { ConfirmDialog } from "./ConfirmDialog";
import { StatusBadge, type Tone } from "./StatusBadge";
import { type HeaderColumn, numeric, Table } from "./TableParts";

const ELECTION_COLUMNS: HeaderColumn[] = ["Topic", numeric("Partition"), "Outcome", "Error"];

interface TopicActionsProps {
  cluster: string;
  topic: TopicDetail;
  /** After a change: show `fresh` (the write's answer) or, without one, poll again. */
  onChanged: (fresh?: TopicDetail) => void;
}

type Dialog = "unclean" | "delete" | null;

const OUTCOME_TONE: Record<ElectionResult["outcome"], Tone> = {
  elected: "ok",
  not_needed: "neutral",
  failed: "error",
};

/**
 * Admin actions on one topic: add partitions, preferred and unclean leader
 * election (all of the topic's partitions), links to the Reassign tab (its
 * partitions moved, its replication factor changed), delete. Unclean election
 * and delete are destructive and ask for the topic name to be typed.
 */
export function TopicActions({ cluster, topic, onChanged }: TopicActionsProps) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const current = topic.partition_count;
  const [count, setCount] = useState(String(current + 1));
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<{ title: string; error: Error } | null>(null);
  const [dialogError, setDialogError] = useState<Error | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [results, setResults] = useState<{ election: ElectionType; rows: ElectionResult[] } | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);

  const wanted = Number(count);
  const countValid = count.trim() !== "" && Number.isInteger(wanted) && wanted > current;
  const refs = topic.partitions.map((p) => ({ topic: topic.name, partition: p.partition }));

  const start = (name: string) => {
    setBusy(name);
    setError(null);
    setMessage(null);
  };
  const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));

  const onAddPartitions = async () => {
    if (!countValid) return;
    start("partitions");
    try {
      const detail = await addPartitions(cluster, topic.name, wanted);
      setMessage(`${topic.name} now has ${detail.partition_count} partitions.`);
      setCount(String(detail.partition_count + 1));
      onChanged(detail);
    } catch (err) {
      setError({ title: "Could not add partitions", error: asError(err) });
    } finally {
      setBusy(null);
    }
  };

  const elect = async (election: ElectionType) => {
    start(election);
    setDialogError(null);
    try {
      const rows = await electLeaders(cluster, election, refs);
      setResults({ election, rows: [...rows].sort((a, b) => a.partition - b.partition) });
      setDialog(null);
      onChanged();
    } catch (err) {
      if (isApprovalRequested(err)) {
        // A protected cluster: held for a second admin (its notice above the actions).
        setDialog(null);
        setError({ title: "", error: err });
      } else if (election === "unclean") setDialogError(asError(err));
      else setError({ title: "Preferred leader election failed", error: asError(err) });
    } finally {
      setBusy(null);
    }
  };

  const onDelete = async () => {
    start("delete");
    setDialogError(null);
    try {
      await deleteTopic(cluster, topic.name);
      // The topic lists cached earlier still have it: the list opens empty and loads afresh.
      client.removeQueries({ queryKey: queryKeys.topicLists(cluster) });
      navigate(clusterPath(cluster, "topics"), { state: { deleted: topic.name } });
    } catch (err) {
      if (isApprovalRequested(err)) {
        setDialog(null);
        setError({ title: "", error: err });
      } else setDialogError(asError(err));
      setBusy(null);
    }
  };

  const closeDialog = () => {
    setDialog(null);
    setDialogError(null);
  };

  return (
    <div className="actions-panel" data-testid="topic-actions">
      {error && <ErrorOrApprovalNotice error={error.error} title={error.title} />}
      {message && (
        <p className="notice notice-ok" role="status" data-testid="action-message">
          {message}
        </p>
      )}
      <div className="action-grid">
        <form
          className="action"
          onSubmit={(event) => {
            event.preventDefault();
            void onAddPartitions();
          }}
        >
          <h3>Add partitions</h3>
          <p className="muted">
            Now {current}. Partitions cannot be removed later, and keyed messages will map to other partitions.
          </p>
          <div className="action-row">
            <label className="visually-hidden" htmlFor="add-partitions-count">
              New partition count
            </label>
            <input
              id="add-partitions-count"
              type="number"
              className="input input-number"
              min={current + 1}
              step={1}
              value={count}
              onChange={(event) => setCount(event.target.value)}
              disabled={busy !== null}
              data-testid="add-partitions-count"
            />
            <button
              type="submit"
              className="button"
              disabled={!countValid || busy !== null}
              data-testid="add-partitions"
            >
              {busy === "partitions" ? "Adding…" : "Add partitions"}
            </button>
          </div>
          {!countValid && (
            <p className="field-hint" data-testid="add-partitions-hint">
              Must be a whole number above {current}.
            </p>
          )}
        </form>

        <div className="action">
          <h3>Leader election</h3>
          <p className="muted">
            Preferred: move leadership back to each partition's first replica. Unclean: let an out-of-sync replica lead
            an offline partition (may lose messages).
          </p>
          <div className="action-row">
            <button
              type="button"
              className="button"
              onClick={() => void elect("preferred")}
              disabled={busy !== null}
              data-testid="elect-preferred"
            >
              {busy === "preferred" ? "Electing…" : "Preferred leader election"}
            </button>
            <button
              type="button"
              className="button button-danger-outline"
              onClick={() => setDialog("unclean")}
              disabled={busy !== null}
              data-testid="elect-unclean"
            >
              Unclean election…
            </button>
          </div>
        </div>

        <ReassignAction cluster={cluster} topic={topic.name} />

        <div className="action">
          <h3>Delete topic</h3>
          <p className="muted">Deletes the topic and every message in it. This cannot be undone.</p>
          <div className="action-row">
            <button
              type="button"
              className="button button-danger-outline"
              onClick={() => setDialog("delete")}
              disabled={busy !== null || topic.internal}
              title={topic.internal ? "Internal Kafka topics cannot be deleted" : undefined}
              data-testid="delete-topic"
            >
              Delete topic…
            </button>
          </div>
        </div>
      </div>

      {results && <ElectionResults election={results.election} rows={results.rows} />}

      {dialog === "unclean" && (
        <ConfirmDialog
          title={`Unclean leader election on ${topic.name}`}
          expected={topic.name}
          confirmLabel="Run unclean election"
          busy={busy === "unclean"}
          error={dialogError}
          onConfirm={() => void elect("unclean")}
          onCancel={closeDialog}
        >
          <p>
            Kafka will give each of the topic&apos;s {refs.length} {plural(refs.length, "partition")} that has no leader
            a leader among its live replicas, even one that is <strong>not in sync</strong>. Messages that replica had
            not yet copied are <strong>lost</strong>.
          </p>
        </ConfirmDialog>
      )}
      {dialog === "delete" && (
        <ConfirmDialog
          title={`Delete topic ${topic.name}`}
          expected={topic.name}
          confirmLabel="Delete topic"
          busy={busy === "delete"}
          error={dialogError}
          onConfirm={() => void onDelete()}
          onCancel={closeDialog}
        >
          <p>
            The topic, its {topic.partition_count} {plural(topic.partition_count, "partition")} and all their messages
            will be deleted from cluster <strong>{cluster}</strong>. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}

/** To the Reassign tab with this topic chosen: its partitions spread over brokers, or its replication factor. */
function ReassignAction({ cluster, topic }: { cluster: string; topic: string }) {
  return (
    <div className="action">
      <h3>Move replicas</h3>
      <p className="muted">
        Planned on the Reassign tab, with a preview of what moves, its size and time, before anything changes.
      </p>
      <div className="action-row">
        <Link to={reassignNewPath(cluster, { topics: [topic] })} className="button" data-testid="topic-reassign">
          Reassign partitions…
        </Link>
        <Link to={reassignNewPath(cluster, { rfTopic: topic })} className="button" data-testid="topic-change-rf">
          Change replication factor…
        </Link>
      </div>
    </div>
  );
}

function ElectionResults({ election, rows }: { election: ElectionType; rows: ElectionResult[] }) {
  const counts = { elected: 0, not_needed: 0, failed: 0 };
  for (const r of rows) counts[r.outcome] += 1;
  return (
    <div className="election-results" data-testid="election-results" data-election={election}>
      <h3>
        {election === "preferred" ? "Preferred" : "Unclean"} election: {counts.elected} elected, {counts.not_needed} not
        needed, {counts.failed} failed
      </h3>
      <Table columns={ELECTION_COLUMNS}>
        {rows.map((r) => (
          <tr key={`${r.topic}-${r.partition}`} data-testid={`election-row-${r.partition}`} data-outcome={r.outcome}>
            <td className="mono">{r.topic}</td>
            <td className="num">{r.partition}</td>
            <td>
              <StatusBadge tone={OUTCOME_TONE[r.outcome]}>{r.outcome.replace("_", " ")}</StatusBadge>
            </td>
            <td className={r.error ? "wrap" : "muted"}>{r.error ?? "—"}</td>
          </tr>
        ))}
      </Table>
    </div>
  );
}

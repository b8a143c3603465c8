import { Fragment } from "react";

/** Broker ids separated by commas; those in `marked` as `<del>` (losing their replica) or `<ins>` (gaining one). */
function ReplicaList({ ids, marked, kind }: { ids: readonly number[]; marked: ReadonlySet<number>; kind: "added" | "removed" }) {
  return (
    <span className="replica-list">
      {ids.map((id, index) => (
        <Fragment key={id}>
          {index > 0 && ", "}
          {!marked.has(id) ? (
            <span>{id}</span>
          ) : kind === "added" ? (
            <ins className="replica-added" title={`Broker ${id} gains a replica`} data-broker={id}>
              {id}
            </ins>
          ) : (
            <del className="replica-removed" title={`Broker ${id} loses its replica`} data-broker={id}>
              {id}
            </del>
          )}
        </Fragment>
      ))}
    </span>
  );
}

/**
 * "1, 2 → 2, 3": the old replicas (those removed struck through), then the new ones (those added
 * highlighted); the first of each is the preferred leader. Unchanged: the replicas once, greyed.
 */
export function ReplicaMove({ from, to }: { from: readonly number[]; to: readonly number[] }) {
  const unchanged = from.length === to.length && from.every((id, i) => id === to[i]);
  if (unchanged) {
    return (
      <span className="replica-move muted" title="Unchanged">
        {to.join(", ")}
      </span>
    );
  }
  const removed = new Set(from.filter((id) => !to.includes(id)));
  const added = new Set(to.filter((id) => !from.includes(id)));
  return (
    <span className="replica-move mono">
      <ReplicaList ids={from} marked={removed} kind="removed" />
      <span className="arrow">{" → "}</span>
      <ReplicaList ids={to} marked={added} kind="added" />
    </span>
  );
}

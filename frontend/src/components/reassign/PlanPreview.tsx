import { memo } from "react";
import type { Plan, PlanMove } from "../../api/types";
import { formatBytes, formatCount, formatDuration, plural } from "../../lib/format";
import { formatThrottle, isUnchanged, moveSeconds, planCounts } from "../../lib/reassign";
import { virtualRowProps, VirtualTable } from "../SortableTable";
import { HeaderCells, numeric, type HeaderColumn } from "../TableParts";
import { ReplicaMove } from "./ReplicaMove";
import { TargetReplicasInput } from "./TargetReplicasInput";

/** Height of one row in px (fixed in styles.css: .vtable td). */
export const MOVE_ROW_HEIGHT = 36;

const COLUMNS: HeaderColumn[] = [
  "Topic",
  numeric("Partition"),
  { label: "Replicas", title: "Now → planned; struck through: removed, highlighted: added. The first is the preferred leader." },
  { label: "Edit new replicas", title: "Broker ids, comma-separated; Enter previews the plan again" },
  numeric("To copy", "The leader replica's size, once per broker gaining a replica"),
  numeric("Est. time", "At the throttle (the leader sends the new replicas' bytes at most that fast)"),
];

interface PlanPreviewProps {
  /** The preview (its estimate is at its own throttle). */
  plan: Plan;
  onEditRow: (topic: string, partition: number, replicas: number[]) => void;
  onInvalidEdit: (message: string) => void;
  editError: string | null;
  /** A preview again is on its way (an edit or a new throttle). */
  updating: boolean;
}

/**
 * The preview of a plan: the total (partitions that move, bytes to copy, time at the throttle)
 * and one row per partition (virtualized: a plan may hold thousands), each with its replicas now
 * and planned, what it copies and how long that takes; each row's new replicas can be edited.
 */
export function PlanPreview({ plan, onEditRow, onInvalidEdit, editError, updating }: PlanPreviewProps) {
  const counts = planCounts(plan.moves);
  const throttle = plan.throttle_bytes_per_s;
  return (
    <div className="preview" data-testid="reassign-preview">
      <p
        className="plan-totals"
        data-testid="reassign-total"
        data-bytes={plan.total_bytes ?? undefined}
        data-seconds={plan.estimated_seconds ?? undefined}
      >
        <span>
          <strong>{formatCount(counts.moving)}</strong> {plural(counts.moving, "partition")} of {formatCount(counts.topics)}{" "}
          {plural(counts.topics, "topic")} move
          {counts.unchanged > 0 && `, ${formatCount(counts.unchanged)} unchanged`}
        </span>
        <span title={plan.total_bytes === null ? "A replica's size is not known" : `${formatCount(plan.total_bytes)} bytes`}>
          <strong>{formatBytes(plan.total_bytes)}</strong> to copy
        </span>
        <span>
          {throttle === null ? (
            "no throttle: time unknown"
          ) : (
            <>
              about <strong>{formatDuration(plan.estimated_seconds)}</strong> at {formatThrottle(throttle)}
            </>
          )}
        </span>
        {updating && <span className="muted">updating…</span>}
      </p>
      {editError && (
        <p className="field-error" role="alert" data-testid="reassign-edit-error">
          {editError}
        </p>
      )}
      <VirtualTable
        testId="reassign-preview"
        rows={plan.moves}
        rowKey={(m) => `${m.topic}-${m.partition}`}
        rowHeight={MOVE_ROW_HEIGHT}
        scrollWhenVirtualized
        head={<HeaderCells columns={COLUMNS} />}
        span={COLUMNS.length}
        empty="The plan has no partition."
        renderRow={(move, index) => (
          <MoveRow
            key={`${move.topic}-${move.partition}`}
            move={move}
            throttle={throttle}
            index={index}
            onEdit={onEditRow}
            onInvalid={onInvalidEdit}
          />
        )}
      />
    </div>
  );
}

interface MoveRowProps {
  move: PlanMove;
  throttle: number | null;
  index: number;
  onEdit: (topic: string, partition: number, replicas: number[]) => void;
  onInvalid: (message: string) => void;
}

/** One partition of the plan; memoized: a scroll or another row's edit does not re-render it. */
const MoveRow = memo(function MoveRow({ move, throttle, index, onEdit, onInvalid }: MoveRowProps) {
  const unchanged = isUnchanged(move);
  const seconds = moveSeconds(move, throttle);
  return (
    <tr
      data-testid={`reassign-move-${move.topic}-${move.partition}`}
      data-unchanged={unchanged ? "true" : undefined}
      {...virtualRowProps(index)}
    >
      <td className="mono name-cell" title={move.topic}>
        {move.topic}
      </td>
      <td className="num">{move.partition}</td>
      <td className="nowrap">
        <ReplicaMove from={move.from} to={move.to} />
      </td>
      <td>
        <TargetReplicasInput move={move} onEdit={onEdit} onInvalid={onInvalid} />
      </td>
      <td
        className={move.bytes === null ? "num muted" : "num"}
        title={move.bytes === null ? "Unknown" : `${formatCount(move.bytes)} bytes`}
      >
        {formatBytes(move.bytes)}
      </td>
      <td className={seconds === null ? "num nowrap muted" : "num nowrap"}>{formatDuration(seconds)}</td>
    </tr>
  );
});

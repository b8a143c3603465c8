import { memo, useDeferredValue, useMemo, useState } from "react";
import type { ReassignmentPartition } from "../../api/types";
import { formatBytes, formatCount } from "../../lib/format";
import { filterPartitions, partitionBarState, partitionFraction } from "../../lib/reassign";
import { FilterBox, RowCount, ToolbarCheckbox } from "../ListToolbar";
import { virtualRowProps, VirtualTable } from "../SortableTable";
import { ProgressBar } from "../sparkJobs/ProgressBar";
import { HeaderCells, numeric, type HeaderColumn } from "../TableParts";
import { PartitionStateBadge } from "./ReassignmentStateBadge";
import { ReplicaMove } from "./ReplicaMove";

/** Height of one row in px (fixed in styles.css: .vtable td). */
export const PARTITION_ROW_HEIGHT = 36;

const COLUMNS: HeaderColumn[] = [
  "Topic",
  numeric("Partition"),
  { label: "Replicas", title: "Before → planned; struck through: removed, highlighted: added. The first is the preferred leader." },
  { label: "Adding", title: "The replicas Kafka is adding now" },
  { label: "Removing", title: "The replicas Kafka will remove once the new ones are in sync" },
  { label: "ISR", title: "In-sync replicas now" },
  { label: "Leader", title: "⚠: not the preferred leader (the first planned replica)" },
  { label: "Copied", title: "The new replicas' bytes copied of what they must copy" },
  "State",
];

const partitionName = (p: Pick<ReassignmentPartition, "topic" | "partition">) => `${p.topic}-${p.partition}`;

/** Every partition of the reassignment (virtualized: thousands stay smooth), filtered by topic or to those still moving. */
export function PartitionProgressTable({ partitions }: { partitions: ReassignmentPartition[] }) {
  const [filter, setFilter] = useState("");
  const [movingOnly, setMovingOnly] = useState(false);
  const deferred = useDeferredValue(filter);
  const rows = useMemo(() => filterPartitions(partitions, deferred, movingOnly), [partitions, deferred, movingOnly]);

  return (
    <section data-testid="reassign-partitions">
      <h2>Partitions</h2>
      <div className="toolbar">
        <FilterBox
          value={filter}
          onChange={setFilter}
          placeholder="Filter by topic…"
          label="Filter partitions by topic name"
          testId="reassign-partitions-filter"
        />
        <ToolbarCheckbox checked={movingOnly} onChange={setMovingOnly} testId="reassign-partitions-moving">
          only those still moving
        </ToolbarCheckbox>
        <span className="toolbar-spacer" />
        <RowCount shown={rows.length} total={partitions.length} noun="partition" testId="reassign-partitions-count" />
      </div>
      <VirtualTable
        testId="reassign-partitions"
        rows={rows}
        rowKey={partitionName}
        rowHeight={PARTITION_ROW_HEIGHT}
        scrollWhenVirtualized
        head={<HeaderCells columns={COLUMNS} />}
        span={COLUMNS.length}
        empty={partitions.length === 0 ? "The reassignment has no partition." : "No partition matches."}
        renderRow={(p, index) => <PartitionRow key={partitionName(p)} partition={p} index={index} />}
      />
    </section>
  );
}

const ids = (list: readonly number[] | null) =>
  list === null ? <span className="muted">unknown</span> : list.length === 0 ? <span className="muted">—</span> : list.join(", ");

/** One partition; memoized: each push re-renders only the rows on screen. */
const PartitionRow = memo(function PartitionRow({ partition: p, index }: { partition: ReassignmentPartition; index: number }) {
  const name = partitionName(p);
  const preferred = p.to[0];
  const notPreferred = p.leader !== null && preferred !== undefined && p.leader !== preferred;
  return (
    <tr
      data-testid={`reassign-row-${name}`}
      data-state={p.state}
      data-leader={p.leader ?? undefined}
      data-preferred={notPreferred ? "false" : "true"}
      {...virtualRowProps(index)}
    >
      <td className="mono name-cell" title={p.topic}>
        {p.topic}
      </td>
      <td className="num">{p.partition}</td>
      <td className="nowrap">
        <ReplicaMove from={p.from} to={p.to} />
      </td>
      <td className="mono">{ids(p.adding)}</td>
      <td className="mono">{ids(p.removing)}</td>
      <td className="mono">{ids(p.isr)}</td>
      <td className={notPreferred ? "mono cell-warn" : "mono"}>
        {p.leader === null ? (
          <span className="muted" title="No leader, or Kafka did not answer">
            none
          </span>
        ) : (
          p.leader
        )}
        {notPreferred && (
          <span className="marker marker-warn" title={`Not the preferred leader (${preferred})`}>
            {" "}
            ⚠
          </span>
        )}
      </td>
      <td
        className="progress-cell"
        title={`${formatBytes(p.bytes_copied)} of ${formatBytes(p.bytes_total)} (${formatCount(p.bytes_copied)} bytes)`}
      >
        <ProgressBar value={partitionFraction(p)} state={partitionBarState(p.state)} compact label={`${name} copied`} />
      </td>
      <td>
        <PartitionStateBadge state={p.state} />
      </td>
    </tr>
  );
});

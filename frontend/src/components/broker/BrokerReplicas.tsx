import { memo, useDeferredValue, useMemo, useState } from "react";
import { Link } from "react-router-dom";
import type { LogDir } from "../../api/types";
import { filterReplicas, replicaRows, sortReplicas, totalSize, type ReplicaRow, type ReplicaSortKey } from "../../lib/brokers";
import { formatBytes, formatCount, plural } from "../../lib/format";
import { topicPath } from "../../navigation";
import { FilterBox } from "../ListToolbar";
import { SortHeaders, sortsDescFirst, virtualRowProps, VirtualTable, type SortColumn } from "../SortableTable";
import { StatusBadge } from "../StatusBadge";
import { HeaderCells, numeric } from "../TableParts";

/** Height of one replica row in px (fixed in styles.css: .vtable td). */
export const REPLICA_ROW_HEIGHT = 36;

type Column = SortColumn<ReplicaSortKey>;

const TOPIC_COLUMN: Column = { key: "topic", label: "Topic", numeric: false };
const SIZE_COLUMN: Column = { key: "size", label: "Size", numeric: true, title: "The replica's size on disk" };
const SPAN = 6;

interface Sort {
  sortKey: ReplicaSortKey;
  desc: boolean;
}

/** The biggest first. */
const DEFAULT_SORT: Sort = { sortKey: "size", desc: true };

/**
 * Every replica in the broker's log directories (tens of thousands on a big broker: virtualized),
 * biggest first; sortable by size and topic, filtered by topic name, with their number and size.
 */
export function BrokerReplicas({ cluster, dirs, unavailable }: { cluster: string; dirs: LogDir[]; unavailable: boolean }) {
  const [filter, setFilter] = useState("");
  const [sort, setSort] = useState<Sort>(DEFAULT_SORT);
  const { sortKey, desc } = sort;
  // A click on the sorted column reverses it; another column: sizes biggest first, names A to Z.
  const onSort = (column: Column) =>
    setSort((prev) => (column.key === prev.sortKey ? { ...prev, desc: !prev.desc } : { sortKey: column.key, desc: sortsDescFirst(column) }));

  const all = useMemo(() => replicaRows(dirs), [dirs]);
  const allSize = useMemo(() => totalSize(all), [all]);
  const deferredFilter = useDeferredValue(filter);
  const shown = useMemo(() => filterReplicas(all, deferredFilter), [all, deferredFilter]);
  const rows = useMemo(() => sortReplicas(shown, sortKey, desc), [shown, sortKey, desc]);
  const shownSize = shown === all ? allSize : totalSize(shown);
  const headers = { sortKey, desc, onSort };

  return (
    <section data-testid="broker-replicas">
      <h2>Replicas</h2>
      <div className="toolbar">
        <FilterBox
          value={filter}
          onChange={setFilter}
          placeholder="Filter by topic…"
          label="Filter replicas by topic name"
          testId="broker-replicas-filter"
        />
        <span className="toolbar-spacer" />
        <span
          className="muted"
          data-testid="broker-replicas-total"
          data-count={shown.length}
          data-size={shownSize}
        >
          {shown.length === all.length
            ? `${formatCount(all.length)} ${plural(all.length, "replica")}`
            : `${formatCount(shown.length)} of ${formatCount(all.length)} ${plural(all.length, "replica")}`}
          , {formatBytes(shownSize)}
          {shown.length !== all.length && ` of ${formatBytes(allSize)}`}
        </span>
      </div>
      <VirtualTable
        testId="broker-replicas"
        rows={rows}
        rowKey={(row) => row.key}
        rowHeight={REPLICA_ROW_HEIGHT}
        scrollWhenVirtualized
        head={
          <>
            <SortHeaders columns={[TOPIC_COLUMN]} {...headers} />
            <HeaderCells columns={[numeric("Partition"), "Log dir"]} />
            <SortHeaders columns={[SIZE_COLUMN]} {...headers} />
            <HeaderCells
              columns={[
                numeric("Offset lag", "How far this replica is behind its leader's end (0 on the leader)"),
                { label: "Future", title: "Being moved into this directory from another one of the same broker" },
              ]}
            />
          </>
        }
        span={SPAN}
        empty={
          unavailable
            ? "Unknown: the log directories could not be read."
            : all.length === 0
              ? "This broker holds no replica."
              : "No replica of a topic matching the filter."
        }
        renderRow={(row, index) => <ReplicaLine key={row.key} cluster={cluster} row={row} index={index} />}
      />
    </section>
  );
}

/** One replica; memoized: sorting or filtering re-renders only the rows that move. */
const ReplicaLine = memo(function ReplicaLine({ cluster, row, index }: { cluster: string; row: ReplicaRow; index: number }) {
  return (
    <tr
      data-testid={`replica-${row.topic}-${row.partition}`}
      data-size={row.size_bytes}
      data-future={row.is_future ? "true" : "false"}
      {...virtualRowProps(index)}
    >
      <td className="name-cell">
        <Link to={topicPath(cluster, row.topic)}>{row.topic}</Link>
      </td>
      <td className="num">{row.partition}</td>
      <td className="mono name-cell" title={row.logDir}>
        {row.logDir}
      </td>
      <td className="num" title={`${formatCount(row.size_bytes)} bytes`}>
        {formatBytes(row.size_bytes)}
      </td>
      <td className={row.offset_lag > 0 ? "num lag-cell" : "num muted"}>{formatCount(row.offset_lag)}</td>
      <td>
        {row.is_future && (
          <StatusBadge tone="info" title="Being moved into this directory from another one of the same broker">
            future
          </StatusBadge>
        )}
      </td>
    </tr>
  );
});

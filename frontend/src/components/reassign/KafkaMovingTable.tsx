import type { KafkaReassigning } from "../../api/types";
import { formatCount, plural } from "../../lib/format";
import { virtualRowProps, VirtualTable } from "../SortableTable";
import { HeaderCells, numeric } from "../TableParts";

/** Height of one row in px (fixed in styles.css: .vtable td). */
const ROW_HEIGHT = 36;
const COLUMNS = ["Topic", numeric("Partition"), "Replicas", "Adding", "Removing"];

/** Every partition Kafka is moving now, whoever started it (kafka-reassign-partitions.sh or this
 * console): while any moves, no new reassignment can start. Shown only when there is one. */
export function KafkaMovingTable({ rows }: { rows: KafkaReassigning[] }) {
  if (rows.length === 0) return null;
  return (
    <section data-testid="reassign-in-kafka">
      <h2>Moving in Kafka now</h2>
      <p className="notice notice-warn">
        Kafka is moving {formatCount(rows.length)} {plural(rows.length, "partition")}: a new reassignment cannot start until
        they are done or cancelled.
      </p>
      <VirtualTable
        testId="reassign-in-kafka"
        rows={rows}
        rowKey={(r) => `${r.topic}-${r.partition}`}
        rowHeight={ROW_HEIGHT}
        scrollWhenVirtualized
        head={<HeaderCells columns={COLUMNS} />}
        span={COLUMNS.length}
        empty=""
        renderRow={(r, index) => (
          <tr key={`${r.topic}-${r.partition}`} data-testid={`in-kafka-${r.topic}-${r.partition}`} {...virtualRowProps(index)}>
            <td className="mono name-cell">{r.topic}</td>
            <td className="num">{r.partition}</td>
            <td className="mono">{r.replicas.join(", ")}</td>
            <td className="mono">{r.adding.join(", ") || <span className="muted">—</span>}</td>
            <td className="mono">{r.removing.join(", ") || <span className="muted">—</span>}</td>
          </tr>
        )}
      />
    </section>
  );
}

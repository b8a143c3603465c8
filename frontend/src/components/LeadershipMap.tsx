import type { TopicDetail } from "../api/types";
import { CELL_LABELS, brokerColumns, cellState, isPreferredCell, type CellState } from "../lib/leadership";

const LEGEND: { state: CellState; label: string }[] = [
  { state: "leader", label: "Leader" },
  { state: "isr", label: "In-sync follower" },
  { state: "out_of_sync", label: "Out-of-sync replica" },
  { state: "offline", label: "Offline replica" },
  { state: "none", label: "No replica" },
];

function Chip({ state, preferred }: { state: CellState; preferred: boolean }) {
  if (state === "none") return null;
  return (
    <span className={`lm-chip lm-${state}`}>
      {state === "leader" ? "L" : state === "offline" ? "×" : ""}
      {preferred && (
        <span className="lm-star" aria-hidden="true">
          ★
        </span>
      )}
    </span>
  );
}

/**
 * Partitions as rows, brokers as columns: where each replica lives and in
 * what state. Columns are the live brokers plus any broker a replica points
 * at; a broker that is not live is marked "down". The star marks the
 * preferred leader (the first replica in assignment order).
 */
export function LeadershipMap({ detail }: { detail: Pick<TopicDetail, "live_brokers" | "partitions"> }) {
  const columns = brokerColumns(detail);
  const partitions = [...detail.partitions].sort((a, b) => a.partition - b.partition);

  return (
    <div className="lm">
      <div className="table-wrap lm-scroll">
        <table className="table lm-table" data-testid="leadership-map">
          <thead>
            <tr>
              <th scope="col" className="num">
                Partition
              </th>
              {columns.map((col) => (
                <th
                  key={col.id}
                  scope="col"
                  className={col.down ? "lm-col lm-col-down" : "lm-col"}
                  data-testid={`lm-broker-${col.id}`}
                  data-down={col.down ? "true" : "false"}
                >
                  broker {col.id}
                  {col.down && <span className="badge badge-error badge-inline">down</span>}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {partitions.map((p) => (
              <tr key={p.partition} data-testid={`lm-row-${p.partition}`}>
                <th scope="row" className="num lm-partition">
                  {p.partition}
                </th>
                {columns.map((col) => {
                  const state = cellState(p, col.id, col.down);
                  const preferred = isPreferredCell(p, col.id);
                  const label = `partition ${p.partition}, broker ${col.id}: ${CELL_LABELS[state]}${
                    preferred ? " (preferred leader)" : ""
                  }`;
                  return (
                    <td
                      key={col.id}
                      className={col.down ? "lm-cell lm-cell-down" : "lm-cell"}
                      data-testid={`lm-cell-${p.partition}-${col.id}`}
                      data-state={state}
                      data-preferred={preferred ? "true" : undefined}
                      title={label}
                      aria-label={label}
                    >
                      <Chip state={state} preferred={preferred} />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="lm-legend" aria-label="Legend">
        {LEGEND.map((item) => (
          <li key={item.state}>
            <span className={`lm-chip lm-${item.state} lm-chip-small`}>
              {item.state === "leader" ? "L" : item.state === "offline" ? "×" : ""}
            </span>
            {item.label}
          </li>
        ))}
        <li>
          <span className="lm-star lm-star-legend" aria-hidden="true">
            ★
          </span>
          Preferred leader (first replica)
        </li>
        <li>
          <span className="badge badge-error badge-inline">down</span> Broker not live
        </li>
      </ul>
    </div>
  );
}

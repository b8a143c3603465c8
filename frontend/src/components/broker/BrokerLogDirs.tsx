import type { LogDir } from "../../api/types";
import { logDirUsage, totalSize } from "../../lib/brokers";
import { formatBytes, formatCount } from "../../lib/format";
import { StatusBadge } from "../StatusBadge";
import { EmptyRow, numeric, Table, type HeaderColumn } from "../TableParts";
import { UsageBar } from "./UsageBar";

const COLUMNS: HeaderColumn[] = [
  "Path",
  numeric("Used", "Total − usable"),
  numeric("Total"),
  numeric("Usable"),
  { label: "Usage", title: "Amber above 80 %, red above 90 %" },
  numeric("Replicas size", "The summed size of the replicas in this directory"),
  numeric("Replicas"),
  "Error",
];

/**
 * The broker's log directories: the volume's use (a bar, amber above 80 %, red above 90 %), the
 * size and number of the replicas in each, and its error (an offline dir). When the broker's log
 * dirs could not be read (`error`), the reason instead of the table.
 */
export function BrokerLogDirs({ dirs, error }: { dirs: LogDir[]; error: string | null }) {
  return (
    <section data-testid="broker-log-dirs">
      <h2>Log directories</h2>
      {error !== null ? (
        <p className="notice notice-error" role="alert" data-testid="log-dirs-error">
          <strong>Could not read the log directories</strong> — {error}
        </p>
      ) : (
        <Table columns={COLUMNS} data-testid="broker-log-dirs-table">
          {dirs.length === 0 && <EmptyRow span={COLUMNS.length}>The broker reports no log directory.</EmptyRow>}
          {dirs.map((dir, index) => (
            <LogDirRow key={dir.path} dir={dir} index={index} />
          ))}
        </Table>
      )}
    </section>
  );
}

function LogDirRow({ dir, index }: { dir: LogDir; index: number }) {
  const { used, fraction } = logDirUsage(dir);
  return (
    <tr data-testid={`log-dir-${index}`} data-path={dir.path}>
      <td className="mono wrap">{dir.path}</td>
      <td className={used === null ? "num muted" : "num"}>{formatBytes(used)}</td>
      <td className={dir.total_bytes === null ? "num muted" : "num"}>{formatBytes(dir.total_bytes)}</td>
      <td className={dir.usable_bytes === null ? "num muted" : "num"}>{formatBytes(dir.usable_bytes)}</td>
      <td>{fraction === null ? <span className="muted">—</span> : <UsageBar fraction={fraction} testId={`log-dir-usage-${index}`} />}</td>
      <td className="num">{formatBytes(totalSize(dir.replicas))}</td>
      <td className="num">{formatCount(dir.replicas.length)}</td>
      <td>
        {dir.error ? (
          <StatusBadge tone="error" data-testid={`log-dir-error-${index}`}>
            {dir.error}
          </StatusBadge>
        ) : (
          <span className="muted">—</span>
        )}
      </td>
    </tr>
  );
}

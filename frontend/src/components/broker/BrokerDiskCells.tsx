import { brokerDiskUsage, type BrokerWithDisk } from "../../lib/brokerBalance";
import { formatBytes, formatCount } from "../../lib/format";
import { UsageBar } from "./UsageBar";

type DiskFields = Pick<BrokerWithDisk, "id" | "disk_total_bytes" | "disk_usable_bytes" | "replicas_size_bytes">;

/**
 * The overview's "Disk" cell of a broker: its log dirs' use (total − usable of the total, summed)
 * as the log dirs' bar (amber above 80 %, red above 90 %) with the sizes under it; "—" when unknown.
 */
export function BrokerDiskCell({ broker: b }: { broker: DiskFields }) {
  const { used, fraction } = brokerDiskUsage(b);
  return (
    <td
      data-testid={`broker-disk-${b.id}`}
      data-used-fraction={fraction ?? undefined}
      title={fraction === null ? "Unknown: the broker's log directories could not be read" : `${formatBytes(b.disk_usable_bytes)} free`}
    >
      {fraction === null ? (
        <span className="muted">—</span>
      ) : (
        <>
          <UsageBar fraction={fraction} />
          <span className="muted nowrap">
            {formatBytes(used)} of {formatBytes(b.disk_total_bytes)}
          </span>
        </>
      )}
    </td>
  );
}

/** The overview's "Data" cell: the bytes of every replica the broker holds; "—" when unknown. */
export function BrokerDataCell({ broker: b }: { broker: DiskFields }) {
  const bytes = b.replicas_size_bytes;
  return (
    <td
      className={bytes === null ? "num muted" : "num"}
      data-testid={`broker-data-${b.id}`}
      data-bytes={bytes ?? undefined}
      title={bytes === null ? undefined : `${formatCount(bytes)} bytes`}
    >
      {formatBytes(bytes)}
    </td>
  );
}

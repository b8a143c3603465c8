import { useMemo, useState } from "react";
import type { ConfigEntry } from "../../api/types";
import type { BrokerConfigWrite } from "../../hooks/useBrokerConfigWrite";
import { EmptyRow, Table, type HeaderColumn } from "../TableParts";
import { ConfigRevertDialog } from "./ConfigRevertDialog";
import { ConfigValueCell } from "./ConfigValue";

const COLUMNS: HeaderColumn[] = ["Name", "Value"];
const EDIT_COLUMNS: HeaderColumn[] = [...COLUMNS, { label: "Actions", hidden: true }];

interface BrokerDefaultsProps {
  /** GET broker-defaults: undefined until it answered. */
  rows: ConfigEntry[] | undefined;
  error: Error | null;
  brokerId: number;
  /** Admins may revert a cluster-wide value. */
  editable: boolean;
  write: BrokerConfigWrite;
}

/**
 * "Cluster-wide dynamic configs": the values set for every broker at run time
 * (`kafka-configs.sh --entity-type brokers --entity-default`), by name; admins revert one (a
 * broker's own value, server.properties or Kafka's default applies again).
 */
export function BrokerDefaults({ rows, error, brokerId, editable, write }: BrokerDefaultsProps) {
  const [reverting, setReverting] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const sorted = useMemo(() => (rows ? [...rows].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) : []), [rows]);
  const columns = editable ? EDIT_COLUMNS : COLUMNS;

  return (
    <section data-testid="broker-defaults">
      <h2>Cluster-wide dynamic configs</h2>
      {saved && (
        <p className="notice notice-ok" role="status" data-testid="broker-default-saved">
          {saved}
        </p>
      )}
      {error && (
        <p className="notice notice-error" role="alert" data-testid="broker-defaults-error">
          <strong>Could not read the cluster-wide configs</strong> — {error.message}
        </p>
      )}
      {rows && (
        <Table columns={columns} data-testid="broker-defaults-table">
          {sorted.length === 0 && (
            <EmptyRow span={columns.length} testId="broker-defaults-empty">
              No cluster-wide dynamic config is set.
            </EmptyRow>
          )}
          {sorted.map((c) => (
            <tr key={c.name} data-testid={`broker-default-${c.name}`} data-sensitive={c.sensitive ? "true" : "false"}>
              <td className="mono">{c.name}</td>
              <ConfigValueCell entry={c} />
              {editable && (
                <td className="row-actions">
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() => {
                      setSaved(null);
                      setReverting(c.name);
                    }}
                    title="Delete the cluster-wide value"
                    data-testid={`broker-default-revert-${c.name}`}
                  >
                    Revert
                  </button>
                </td>
              )}
            </tr>
          ))}
        </Table>
      )}
      {reverting !== null && (
        <ConfigRevertDialog
          name={reverting}
          level="cluster"
          brokerId={brokerId}
          write={write}
          onDone={(message) => {
            setReverting(null);
            setSaved(message);
          }}
          onCancel={() => setReverting(null)}
        />
      )}
    </section>
  );
}

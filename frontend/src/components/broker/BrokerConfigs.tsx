import { useDeferredValue, useMemo, useState } from "react";
import type { ConfigEntry } from "../../api/types";
import type { BrokerConfigWrite } from "../../hooks/useBrokerConfigWrite";
import { isSetOnBroker, READ_ONLY_HINT } from "../../lib/brokerConfigs";
import { brokerSourceLabel, brokerSourceTone, filterBrokerConfigs } from "../../lib/brokers";
import { FilterBox, RowCount, ToolbarCheckbox } from "../ListToolbar";
import { StatusBadge } from "../StatusBadge";
import { EmptyRow, Table, type HeaderColumn } from "../TableParts";
import { BrokerConfigChange } from "./BrokerConfigChange";
import { ConfigRevertDialog } from "./ConfigRevertDialog";
import { ConfigValueCell } from "./ConfigValue";

const COLUMNS: HeaderColumn[] = ["Name", "Value", "Source", { label: "Read-only", title: "Cannot be changed while the broker runs" }];
const EDIT_COLUMNS: HeaderColumn[] = [...COLUMNS, { label: "Actions", hidden: true }];

interface BrokerConfigsProps {
  configs: ConfigEntry[];
  brokerId: number;
  /** Admins may change a value (on this broker or cluster-wide) and revert this broker's own. */
  editable: boolean;
  write: BrokerConfigWrite;
}

type Action = { kind: "edit" | "revert"; entry: ConfigEntry };

/**
 * The broker's configs by name: the value (durations and sizes also in human units, as the topic
 * configs; a sensitive value never shown), where it comes from, whether it is read-only. Filtered
 * by name and, optionally, to the values not at their default. Admins edit a value that is not
 * read-only (on this broker or cluster-wide, after a confirmation) and revert one set on this
 * broker at run time.
 */
export function BrokerConfigs({ configs, brokerId, editable, write }: BrokerConfigsProps) {
  const [filter, setFilter] = useState("");
  const [changedOnly, setChangedOnly] = useState(false);
  const [action, setAction] = useState<Action | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const deferredFilter = useDeferredValue(filter);
  const rows = useMemo(() => filterBrokerConfigs(configs, deferredFilter, changedOnly), [configs, deferredFilter, changedOnly]);
  const columns = editable ? EDIT_COLUMNS : COLUMNS;

  const start = (kind: Action["kind"], entry: ConfigEntry) => {
    setSaved(null);
    setAction({ kind, entry });
  };
  const done = (message: string) => {
    setAction(null);
    setSaved(message);
  };
  const cancel = () => setAction(null);

  return (
    <section data-testid="broker-configs">
      <h2>Configs</h2>
      <div className="toolbar">
        <FilterBox
          value={filter}
          onChange={setFilter}
          placeholder="Filter by name…"
          label="Filter configs by name"
          testId="broker-configs-filter"
        />
        <ToolbarCheckbox checked={changedOnly} onChange={setChangedOnly} testId="broker-configs-changed-only">
          only values not at their default
        </ToolbarCheckbox>
        <span className="toolbar-spacer" />
        {saved && (
          <span className="notice-inline" role="status" data-testid="broker-config-saved">
            {saved}
          </span>
        )}
        <RowCount shown={rows.length} total={configs.length} noun="config" testId="broker-configs-count" />
      </div>
      <Table columns={columns} data-testid="broker-configs-table">
        {rows.length === 0 && (
          <EmptyRow span={columns.length}>
            {configs.length === 0 ? "The broker reported no config." : "No config matches the filter."}
          </EmptyRow>
        )}
        {rows.map((c) => (
          <ConfigRow key={c.name} entry={c} editable={editable} onAction={start} />
        ))}
      </Table>
      {action?.kind === "edit" && (
        <BrokerConfigChange entry={action.entry} brokerId={brokerId} write={write} onDone={done} onCancel={cancel} />
      )}
      {action?.kind === "revert" && (
        <ConfigRevertDialog name={action.entry.name} level="broker" brokerId={brokerId} write={write} onDone={done} onCancel={cancel} />
      )}
    </section>
  );
}

interface ConfigRowProps {
  entry: ConfigEntry;
  editable: boolean;
  onAction: (kind: Action["kind"], entry: ConfigEntry) => void;
}

function ConfigRow({ entry: c, editable, onAction }: ConfigRowProps) {
  return (
    <tr
      data-testid={`broker-config-${c.name}`}
      data-default={c.is_default ? "true" : "false"}
      data-sensitive={c.sensitive ? "true" : "false"}
      className={c.is_default ? undefined : "row-override"}
    >
      <td className="mono">{c.name}</td>
      <ConfigValueCell entry={c} />
      <td data-source={c.source}>
        <StatusBadge tone={brokerSourceTone(c.source)} title={c.source}>
          {brokerSourceLabel(c.source)}
        </StatusBadge>
      </td>
      <td>
        {c.read_only ? (
          <span className="muted" title={READ_ONLY_HINT} data-testid={`broker-config-read-only-${c.name}`}>
            read-only
          </span>
        ) : null}
      </td>
      {editable && (
        <td className="row-actions">
          {!c.read_only && (
            <button
              type="button"
              className="button button-small"
              onClick={() => onAction("edit", c)}
              data-testid={`broker-config-edit-${c.name}`}
            >
              Edit
            </button>
          )}
          {isSetOnBroker(c) && (
            <button
              type="button"
              className="button button-small"
              onClick={() => onAction("revert", c)}
              title="Delete the value set on this broker: the cluster-wide one, server.properties or Kafka's default applies again"
              data-testid={`broker-config-revert-${c.name}`}
            >
              Revert
            </button>
          )}
        </td>
      )}
    </tr>
  );
}

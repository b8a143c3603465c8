import type { KeyboardEvent } from "react";
import type { Decoded, MessageRecord } from "../../api/messages";
import { formatBytes } from "../../lib/format";
import { previewText, showsFormatBadge } from "../../lib/messages";
import { formatLocal, formatUtc } from "../../lib/time";
import { virtualRowProps, VirtualTable } from "../SortableTable";
import { StatusBadge } from "../StatusBadge";
import { HeaderCells, numeric, type HeaderColumn } from "../TableParts";

/** styles.css: .vtable tbody td. */
const ROW_HEIGHT = 36;
/** The longest preview put in a cell (the cell cuts it with an ellipsis anyway). */
const PREVIEW_CHARS = 400;

const COLUMNS: HeaderColumn[] = [
  numeric("Partition"),
  numeric("Offset"),
  { label: "Timestamp", title: "In this browser's time zone; UTC in each cell's tooltip" },
  "Key",
  "Value",
  numeric("Size", "Key, value and headers on the wire"),
];

interface MessageTableProps {
  records: readonly MessageRecord[];
  selected: string | null;
  recordKey: (record: MessageRecord) => string;
  onSelect: (record: MessageRecord) => void;
  filtered: boolean;
  /** What an empty table says (default: about the page). */
  empty?: string;
  /** The table's test ids: `<testId>-table`, `<testId>-scroll` (default "messages"), and each
   * row's `<rowTestId>-<key>` (default "message-row"). */
  testId?: string;
  rowTestId?: string;
}

/** The page's records, one line each, virtualized (a page of 500 scrolls as smoothly as one of 20). */
export function MessageTable({
  records,
  selected,
  recordKey,
  onSelect,
  filtered,
  empty,
  testId = "messages",
  rowTestId = "message-row",
}: MessageTableProps) {
  return (
    <VirtualTable
      testId={testId}
      className="messages-table"
      rows={records}
      rowKey={recordKey}
      rowHeight={ROW_HEIGHT}
      virtual={{ threshold: 60, overscan: 12 }}
      head={<HeaderCells columns={COLUMNS} />}
      span={COLUMNS.length}
      empty={empty ?? (filtered ? "No record on this page matches the filter." : "No records here.")}
      renderRow={(record, index) => {
        const key = recordKey(record);
        const open = () => onSelect(record);
        const onKeyDown = (event: KeyboardEvent) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            open();
          }
        };
        const row = virtualRowProps(index);
        return (
          <tr
            key={key}
            {...row}
            className={[row.className, "messages-row-click", selected === key ? "selected" : ""].filter(Boolean).join(" ")}
            onClick={open}
            onKeyDown={onKeyDown}
            tabIndex={0}
            aria-selected={selected === key}
            data-testid={`${rowTestId}-${key}`}
          >
            <td className="num">{record.partition}</td>
            <td className="num">{record.offset}</td>
            <td className="nowrap">
              <RecordTime ms={record.timestamp_ms} />
            </td>
            <td className="messages-cell mono" data-testid="message-key">
              <DecodedCell decoded={record.key} empty="no key" />
            </td>
            <td className="messages-cell mono" data-testid="message-value">
              {record.aborted && (
                <StatusBadge tone="error" title="Part of an aborted transaction" data-testid="message-aborted">
                  aborted
                </StatusBadge>
              )}
              <DecodedCell decoded={record.value} empty="tombstone" />
            </td>
            <td className="num nowrap">{formatBytes(recordSize(record))}</td>
          </tr>
        );
      }}
    />
  );
}

/** A record's key, value and headers on the wire. */
export function recordSize(record: MessageRecord): number {
  return (
    (record.key?.size ?? 0) +
    (record.value?.size ?? 0) +
    record.headers.reduce((sum, h) => sum + h.key.length + (h.value?.size ?? 0), 0)
  );
}

/** Local time, with UTC in the tooltip. */
export function RecordTime({ ms }: { ms: number | null }) {
  if (ms === null) return <span className="muted">no timestamp</span>;
  return (
    <time dateTime={new Date(ms).toISOString()} title={formatUtc(ms)}>
      {formatLocal(ms)}
    </time>
  );
}

/** The decoder's badge (not for json and text), its note as the tooltip. */
export function FormatBadge({ decoded }: { decoded: Decoded | null }) {
  if (!decoded || (!showsFormatBadge(decoded) && !decoded.note)) return null;
  return (
    <span className="messages-format" title={decoded.note ?? `Decoded as ${decoded.format}`} data-testid="message-format" data-format={decoded.format}>
      {decoded.format}
      {decoded.note ? " ⓘ" : ""}
    </span>
  );
}

function DecodedCell({ decoded, empty }: { decoded: Decoded | null; empty: string }) {
  if (decoded === null) return <span className="muted">{empty}</span>;
  const text = previewText(decoded);
  return (
    <span className="messages-preview">
      <FormatBadge decoded={decoded} />
      <span className="messages-preview-text">{text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text}</span>
    </span>
  );
}

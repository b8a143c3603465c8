import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { Decoded, MessageRecord } from "../../api/messages";
import { clusterDetailQuery } from "../../api/queries";
import { formatBytes, formatCount } from "../../lib/format";
import { base64ToBytes, downloadBody, hexDump, kcatCommand, prettyText } from "../../lib/messages";
import { formatLocal, formatUtc } from "../../lib/time";
import { StatusBadge } from "../StatusBadge";
import { FormatBadge, recordSize } from "./MessageTable";
import { copyText } from "../../lib/clipboard";

interface RecordDrawerProps {
  cluster: string;
  topic: string;
  record: MessageRecord;
  onClose: () => void;
  /** "Copy to producer" (operators): fills the Produce form with this record. */
  onCopyToProducer?: (record: MessageRecord) => void;
}

/** Saves the value: the raw bytes (a bytes value's base64), else the text as decoded. */
function download(name: string, decoded: Decoded | null) {
  const { bytes, text } = downloadBody(decoded);
  const blob = bytes
    ? new Blob([bytes as BlobPart], { type: "application/octet-stream" })
    : new Blob([text], { type: decoded?.format === "json" ? "application/json" : "text/plain" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function extension(decoded: Decoded | null): string {
  if (!decoded) return "txt";
  if (decoded.format === "json" || decoded.format === "msgpack") return "json";
  return decoded.format === "bytes" ? "bin" : "txt";
}

/**
 * A record in a side panel: its value pretty-printed (JSON indented; bytes as hex and base64), its
 * key, every header in order (duplicates kept), where and when it is, sizes, and copy / kcat /
 * download buttons. Escape or "Close" closes it.
 */
export function RecordDrawer({ cluster, topic, record, onClose, onCopyToProducer }: RecordDrawerProps) {
  const detail = useQuery(clusterDetailQuery(cluster));
  const [said, setSaid] = useState<string | null>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  // Focus goes to the panel once, when it opens (not on every re-render of the polled page).
  useEffect(() => closeButton.current?.focus(), []);
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  });
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === "Escape") close.current();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  useEffect(() => setSaid(null), [record]);

  const bootstrap = detail.data?.bootstrap_servers ?? null;
  const kcat = kcatCommand(bootstrap ?? "<bootstrap>", topic, record);
  const copy = async (what: string, text: string) => setSaid((await copyText(text)) ? `Copied ${what}.` : `Could not copy ${what}: select it and copy.`);
  const where = `${record.partition}:${record.offset}`;

  return (
    <aside className="messages-drawer" role="dialog" aria-label={`Record ${where}`} data-testid="record-drawer">
      <header className="messages-drawer-head">
        <h3>
          Record <span className="mono">partition {record.partition} · offset {record.offset}</span>
        </h3>
        <button ref={closeButton} type="button" className="button button-small" onClick={onClose} data-testid="record-close">
          Close
        </button>
      </header>

      <div className="messages-drawer-actions">
        <button
          type="button"
          className="button button-small"
          onClick={() => void copy("the value", prettyText(record.value))}
          disabled={record.value === null}
          data-testid="record-copy-value"
        >
          Copy value
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={() => void copy("the kcat command", kcat)}
          title={kcat}
          data-testid="record-copy-kcat"
        >
          Copy as kcat command
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={() => download(`${topic}-${record.partition}-${record.offset}.${extension(record.value)}`, record.value)}
          disabled={record.value === null}
          data-testid="record-download"
        >
          Download value
        </button>
        {onCopyToProducer && (
          <button
            type="button"
            className="button button-small"
            onClick={() => onCopyToProducer(record)}
            title="Fill the Produce form with this record's key, value and headers"
            data-testid="record-copy-to-producer"
          >
            Copy to producer
          </button>
        )}
        {said && (
          <span className="muted" role="status" data-testid="record-said">
            {said}
          </span>
        )}
      </div>

      <dl className="messages-drawer-facts" data-testid="record-facts">
        <div>
          <dt>Partition</dt>
          <dd data-testid="record-partition">{record.partition}</dd>
        </div>
        <div>
          <dt>Offset</dt>
          <dd className="mono" data-testid="record-offset">
            {record.offset}
          </dd>
        </div>
        <div>
          <dt>Timestamp{record.timestamp_type ? ` (${record.timestamp_type})` : ""}</dt>
          <dd data-testid="record-timestamp">
            {record.timestamp_ms === null ? (
              <span className="muted">none</span>
            ) : (
              <>
                <span className="nowrap">{formatUtc(record.timestamp_ms)}</span>
                <br />
                <span className="muted nowrap">{formatLocal(record.timestamp_ms)} local</span>
              </>
            )}
          </dd>
        </div>
        <div>
          <dt>Size</dt>
          <dd data-testid="record-size">
            {formatBytes(recordSize(record))}{" "}
            <span className="muted">
              (key {formatCount(record.key?.size ?? 0)} B, value {formatCount(record.value?.size ?? 0)} B)
            </span>
          </dd>
        </div>
        {record.aborted !== undefined && (
          <div>
            <dt>Transaction</dt>
            <dd>{record.aborted ? <StatusBadge tone="error">aborted</StatusBadge> : "not aborted"}</dd>
          </div>
        )}
      </dl>

      <DecodedBlock title="Value" decoded={record.value} empty="null (a tombstone)" testId="record-value" />
      <DecodedBlock title="Key" decoded={record.key} empty="null (no key)" testId="record-key" />

      <h4>
        Headers <span className="muted">({record.headers.length})</span>
      </h4>
      {record.headers.length === 0 ? (
        <p className="muted" data-testid="record-no-headers">
          No headers.
        </p>
      ) : (
        <table className="table messages-headers" data-testid="record-headers">
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {record.headers.map((h, i) => (
              <tr key={i} data-testid="record-header">
                <td className="mono">{h.key}</td>
                <td className="mono messages-wrap">
                  {h.value === null ? <span className="muted">null</span> : <>{prettyText(h.value)} <FormatBadge decoded={h.value} /></>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </aside>
  );
}

function DecodedBlock({ title, decoded, empty, testId }: { title: string; decoded: Decoded | null; empty: string; testId: string }) {
  const bytes = decoded && decoded.format === "bytes" && typeof decoded.data === "string" ? base64ToBytes(decoded.data) : null;
  return (
    <section className="messages-decoded" data-testid={testId}>
      <h4>
        {title}{" "}
        {decoded && (
          <span className="muted messages-decoded-meta">
            {decoded.format}, {formatCount(decoded.size)} B{decoded.schema_id !== null ? `, schema id ${decoded.schema_id}` : ""}
          </span>
        )}
      </h4>
      {decoded?.note && (
        <p className="notice notice-warn messages-note" data-testid={`${testId}-note`}>
          {decoded.note}
        </p>
      )}
      {decoded === null ? (
        <p className="muted">{empty}</p>
      ) : bytes ? (
        <>
          <p className="messages-sub">Hex</p>
          <pre className="messages-pre" data-testid={`${testId}-hex`}>
            {hexDump(bytes)}
          </pre>
          <p className="messages-sub">Base64</p>
          <pre className="messages-pre" data-testid={`${testId}-base64`}>
            {String(decoded.data)}
          </pre>
        </>
      ) : (
        <pre className="messages-pre" data-testid={`${testId}-text`}>
          {prettyText(decoded)}
        </pre>
      )}
    </section>
  );
}

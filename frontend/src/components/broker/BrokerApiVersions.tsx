import { useMemo } from "react";
import type { ApiVersion } from "../../api/types";
import { sortApiVersions } from "../../lib/brokers";
import { EmptyRow, numeric, Table, type HeaderColumn } from "../TableParts";

const COLUMNS: HeaderColumn[] = ["API", numeric("Key"), numeric("Min version"), numeric("Max version")];

/** The APIs the broker supports with their version ranges (as kafka-broker-api-versions.sh), by key. */
export function BrokerApiVersions({ versions }: { versions: ApiVersion[] }) {
  const rows = useMemo(() => sortApiVersions(versions), [versions]);
  return (
    <section data-testid="broker-api-versions">
      {/* Ninety rows an operator seldom needs: folded until asked for. */}
      <details>
        <summary className="fold-summary" data-testid="broker-api-versions-toggle">
          <h2>API versions ({rows.length})</h2>
        </summary>
        <Table columns={COLUMNS} data-testid="broker-api-versions-table">
        {rows.length === 0 && <EmptyRow span={COLUMNS.length}>The broker reported no API versions.</EmptyRow>}
        {rows.map((v) => (
          <tr key={v.key} data-testid={`api-version-${v.key}`}>
            <td>{v.api}</td>
            <td className="num">{v.key}</td>
            <td className="num">{v.min}</td>
            <td className="num">{v.max}</td>
          </tr>
        ))}
        </Table>
      </details>
    </section>
  );
}

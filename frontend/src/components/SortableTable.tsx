import type { ReactNode } from "react";

/** One sortable column of a table: its sort key, header label and tooltip. */
export interface SortColumn<K extends string> {
  key: K;
  label: string;
  numeric: boolean;
  title?: string;
}

interface SortHeadersProps<K extends string, C extends SortColumn<K>> {
  columns: C[];
  sortKey: K;
  desc: boolean;
  onSort: (column: C) => void;
}

/** The `<th>` cells of sortable columns, each a button (data-testid `sort-<key>`) with an arrow. */
export function SortHeaders<K extends string, C extends SortColumn<K>>({ columns, sortKey, desc, onSort }: SortHeadersProps<K, C>) {
  return (
    <>
      {columns.map((column) => {
        const active = column.key === sortKey;
        return (
          <th
            key={column.key}
            scope="col"
            className={column.numeric ? "num" : undefined}
            aria-sort={active ? (desc ? "descending" : "ascending") : "none"}
            title={column.title}
          >
            <button
              type="button"
              className={active ? "sort-button active" : "sort-button"}
              onClick={() => onSort(column)}
              data-testid={`sort-${column.key}`}
            >
              {column.label}
              <span className="sort-arrow" aria-hidden="true">
                {active ? (desc ? "▼" : "▲") : "↕"}
              </span>
            </button>
          </th>
        );
      })}
    </>
  );
}

interface VirtualBodyProps {
  /** Number of columns, for the full-width cells. */
  span: number;
  /** Shown in one full-width row when `isEmpty`. */
  empty: ReactNode;
  isEmpty: boolean;
  /** Heights of the spacer rows (useVirtualRows); 0 renders none. */
  padTop: number;
  padBottom: number;
  /** The rendered rows. */
  children: ReactNode;
}

/** A `<tbody>` for useVirtualRows: the empty message, the spacer rows and the rows between them. */
export function VirtualBody({ span, empty, isEmpty, padTop, padBottom, children }: VirtualBodyProps) {
  return (
    <tbody>
      {isEmpty && (
        <tr>
          <td colSpan={span} className="empty-cell">
            {empty}
          </td>
        </tr>
      )}
      {padTop > 0 && (
        <tr className="vpad" aria-hidden="true">
          <td colSpan={span} style={{ height: padTop }} />
        </tr>
      )}
      {children}
      {padBottom > 0 && (
        <tr className="vpad" aria-hidden="true">
          <td colSpan={span} style={{ height: padBottom }} />
        </tr>
      )}
    </tbody>
  );
}

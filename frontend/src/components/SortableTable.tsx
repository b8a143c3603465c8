import { useEffect, useRef, type ReactNode } from "react";
import { useVirtualRows, type RowHeight } from "../hooks/useVirtualRows";
import { EmptyRow } from "./TableParts";

/** One sortable column of a table: its sort key, header label and tooltip. */
export interface SortColumn<K extends string> {
  key: K;
  label: string;
  /** Right-aligned, and sorted biggest first on its first click. */
  numeric: boolean;
  /** Sorted descending on its first click (default: `numeric`): a column of badges ordered by
   * severity is aligned like text but shows the worst first. */
  descFirst?: boolean;
  title?: string;
}

/** Whether a click on `column`, not yet sorted by, sorts it descending. */
export function sortsDescFirst<K extends string>(column: SortColumn<K>): boolean {
  return column.descFirst ?? column.numeric;
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
      {isEmpty && <EmptyRow span={span}>{empty}</EmptyRow>}
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

/** The attributes of a VirtualTable row at `index`: its place for screen readers (the header row is
 * row 1) and the zebra stripe (fixed by index, not by what is rendered). */
export function virtualRowProps(index: number) {
  return { "aria-rowindex": index + 2, className: index % 2 ? "zebra" : undefined };
}

interface VirtualTableProps<R> {
  /** The scroll box is `<testId>-scroll`, the table `<testId>-table`. */
  testId: string;
  /** A class of the table besides "table vtable". */
  className?: string;
  rows: readonly R[];
  rowKey: (row: R) => string | number;
  /** Fixed row height in px (styles.css: .vtable td), or each row's (by index: a row opened to
   * show more under it, all of its `<tr>`s together). */
  rowHeight: RowHeight;
  /** useVirtualRows' options: above how many rows to virtualize, rows rendered beyond the view. */
  virtual?: { threshold?: number; overscan?: number };
  /** The box scrolls only while the rows are virtualized (a short table shows whole); default always. */
  scrollWhenVirtualized?: boolean;
  /** The header row's cells. */
  head: ReactNode;
  /** Number of columns. */
  span: number;
  /** Shown in one full-width row when there are no rows. */
  empty: ReactNode;
  /** One `<tr>` (give it virtualRowProps(index)). */
  renderRow: (row: R, index: number) => ReactNode;
  /** Told the indexes of the first and last rows rendered (the view and its overscan) whenever
   * they change; (-1, -1) when there are none. */
  onRange?: (first: number, last: number) => void;
}

/** A table in a scroll box whose long lists render only the visible rows (useVirtualRows). */
export function VirtualTable<R>({
  testId,
  className,
  rows,
  rowKey,
  rowHeight,
  virtual,
  scrollWhenVirtualized = false,
  head,
  span,
  empty,
  renderRow,
  onRange,
}: VirtualTableProps<R>) {
  const scroller = useRef<HTMLDivElement>(null);
  const { indexes, padTop, padBottom, virtualized } = useVirtualRows(
    rows.length,
    scroller,
    rowHeight,
    (index) => {
      const row = rows[index];
      return row === undefined ? index : rowKey(row);
    },
    virtual,
  );
  const first = indexes.length > 0 ? indexes[0]! : -1;
  const last = indexes.length > 0 ? indexes[indexes.length - 1]! : -1;
  useEffect(() => {
    onRange?.(first, last);
  }, [onRange, first, last]);
  return (
    <div className={virtualized || !scrollWhenVirtualized ? "table-wrap vscroll" : "table-wrap"} ref={scroller} data-testid={`${testId}-scroll`}>
      <table className={className ? `table vtable ${className}` : "table vtable"} data-testid={`${testId}-table`} aria-rowcount={rows.length + 1}>
        <thead>
          <tr>{head}</tr>
        </thead>
        <VirtualBody span={span} empty={empty} isEmpty={rows.length === 0} padTop={padTop} padBottom={padBottom}>
          {indexes.map((index) => renderRow(rows[index]!, index))}
        </VirtualBody>
      </table>
    </div>
  );
}

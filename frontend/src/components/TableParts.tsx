// The parts every plain table here repeats: the scroll box and table (Table), the header cells
// (numbers right-aligned) and the row that stands in for no rows. Sortable and virtualized
// tables: SortableTable.tsx.
import type { ComponentProps, ReactNode } from "react";

/** One header cell: a plain label, or with its alignment, tooltip or a label for screen readers only. */
export type HeaderColumn =
  | string
  | {
      label: ReactNode;
      /** Right-aligned, as the numbers under it. */
      numeric?: boolean;
      title?: string;
      /** Read out, not shown (e.g. the actions column). */
      hidden?: boolean;
    };

/** The `<th scope="col">` cells of `columns`. */
export function HeaderCells({ columns }: { columns: readonly HeaderColumn[] }) {
  return (
    <>
      {columns.map((column, index) => {
        const { label, numeric = false, title, hidden = false }: Exclude<HeaderColumn, string> =
          typeof column === "string" ? { label: column } : column;
        return (
          <th key={index} scope="col" className={numeric ? "num" : undefined} title={title}>
            {hidden ? <span className="visually-hidden">{label}</span> : label}
          </th>
        );
      })}
    </>
  );
}

/** A table's `<thead>`: one row of `columns`. */
export function TableHead({ columns }: { columns: readonly HeaderColumn[] }) {
  return (
    <thead>
      <tr>
        <HeaderCells columns={columns} />
      </tr>
    </thead>
  );
}

/** The one full-width row a table body shows instead of rows when it has none. */
export function EmptyRow({ span, testId, children }: { span: number; testId?: string; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={span} className="empty-cell" data-testid={testId}>
        {children}
      </td>
    </tr>
  );
}

/** A right-aligned column (numbers under it), with an optional tooltip. */
export function numeric(label: string, title?: string): HeaderColumn {
  return { label, numeric: true, title };
}

interface TableProps extends ComponentProps<"table"> {
  columns: readonly HeaderColumn[];
  /** A class of the scroll box besides "table-wrap". */
  wrapClassName?: string;
}

/** A table in its scroll box: the header row of `columns`, and `children` as the body's rows. The
 * other props (a class besides "table", data-testid, ...) are the table's. */
export function Table({ columns, wrapClassName, className, children, ...props }: TableProps) {
  return (
    <div className={wrapClassName ? `table-wrap ${wrapClassName}` : "table-wrap"}>
      <table className={className ? `table ${className}` : "table"} {...props}>
        <TableHead columns={columns} />
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

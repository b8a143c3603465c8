import { sortsDescFirst, type SortColumn } from "../components/SortableTable";
import { useQueryUpdate } from "./useQueryUpdate";

/**
 * A list page's sort, kept in the URL query: `sort` (one of `columns`' keys; absent or unknown:
 * `defaultKey`) and `order=desc`. `onSort` is a click on a column's header: the sorted column
 * reverses its order; another is sorted by, numbers biggest first
 * (and columns marked `descFirst`, such as a status, worst first).
 */
export function useSortQuery<K extends string>(columns: readonly SortColumn<K>[], defaultKey: K) {
  const [params, update] = useQueryUpdate();
  const sortParam = params.get("sort");
  const sortKey = columns.find((c) => c.key === sortParam)?.key ?? defaultKey;
  const desc = params.get("order") === "desc";
  const onSort = (column: SortColumn<K>) => {
    if (column.key === sortKey) {
      update({ order: desc ? null : "desc" });
    } else {
      update({ sort: column.key === defaultKey ? null : column.key, order: sortsDescFirst(column) ? "desc" : null });
    }
  };
  return { sortKey, desc, onSort };
}

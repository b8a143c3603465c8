import { useVirtualizer } from "@tanstack/react-virtual";
import type { RefObject } from "react";

/** Lists up to this many rows render every row; longer ones only the visible window. */
export const VIRTUALIZE_OVER = 200;

export interface VirtualRows {
  /** Indexes of the rows to render, in order. */
  indexes: number[];
  /** Heights of the spacer rows above and below them (0 when not virtualized). */
  padTop: number;
  padBottom: number;
  virtualized: boolean;
}

/** A row's height in px: one for every row, or each row's own (a row opened to show more below
 * it: the audit log's entries). */
export type RowHeight = number | ((index: number) => number);

/**
 * The TopicsPage pattern for any table in a scroll box: with more than
 * `threshold` rows, only the visible ones (plus `overscan`) are rendered and
 * two spacer rows keep the scroll height; with fewer, every row is.
 * Rows must have the fixed height `rowHeight` (styles.css: .vtable td), or the
 * height `rowHeight(index)` gives each (known before it renders, not measured).
 */
export function useVirtualRows(
  count: number,
  scroller: RefObject<HTMLElement | null>,
  rowHeight: RowHeight,
  getKey: (index: number) => string | number,
  { threshold = VIRTUALIZE_OVER, overscan = 12 }: { threshold?: number; overscan?: number } = {},
): VirtualRows {
  const virtualized = count > threshold;
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: typeof rowHeight === "number" ? () => rowHeight : rowHeight,
    overscan,
    getItemKey: getKey,
    enabled: virtualized,
  });
  if (!virtualized) {
    return { indexes: Array.from({ length: count }, (_, i) => i), padTop: 0, padBottom: 0, virtualized };
  }
  const items = virtualizer.getVirtualItems();
  const total = virtualizer.getTotalSize();
  const padTop = items.length > 0 ? items[0]!.start : 0;
  const padBottom = items.length > 0 ? total - items[items.length - 1]!.end : 0;
  return { indexes: items.map((i) => i.index), padTop, padBottom, virtualized };
}

// What the tests of a virtualized list (components/SortableTable.tsx: VirtualTable) share.
import { act, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, expect } from "vitest";

/** The scroll box's height the tests give it, and a row's (styles.css: .vtable td). */
const BOX_HEIGHT = 600;
const ROW_HEIGHT = 36;

/**
 * jsdom lays nothing out: give the scroll box `<testId>-scroll` a height of 600 px in every test
 * of the file, so that the virtualizer shows one screenful (600 px / 36 px rows + overscan).
 */
export function giveScrollBoxHeight(testId: string) {
  const clientHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, "clientHeight");
  beforeEach(() => {
    Object.defineProperty(HTMLElement.prototype, "clientHeight", {
      configurable: true,
      get(this: HTMLElement) {
        return this.dataset.testid === `${testId}-scroll` ? BOX_HEIGHT : 0;
      },
    });
  });
  afterEach(() => {
    if (clientHeight) Object.defineProperty(HTMLElement.prototype, "clientHeight", clientHeight);
  });
}

/** The rows rendered in table `<testId>-table`, in order, by their test id's tail after `rowPrefix`. */
export function renderedRowIds(testId: string, rowPrefix: string): string[] {
  return within(screen.getByTestId(`${testId}-table`))
    .getAllByRole("row")
    .map((r) => r.getAttribute("data-testid"))
    .filter((id): id is string => !!id?.startsWith(rowPrefix))
    .map((id) => id.slice(rowPrefix.length));
}

/** Only about a screenful of the rows is rendered: more than 10, fewer than 60. */
export function expectScreenful(rowIds: readonly unknown[]) {
  expect(rowIds.length).toBeGreaterThan(10);
  expect(rowIds.length).toBeLessThan(60);
}

/** Scrolls the box `<testId>-scroll` of a list of `rows` rows to its end. */
export async function scrollToEnd(testId: string, rows: number) {
  const scroller = screen.getByTestId(`${testId}-scroll`);
  await act(async () => {
    scroller.scrollTop = rows * ROW_HEIGHT - BOX_HEIGHT;
    fireEvent.scroll(scroller);
  });
}

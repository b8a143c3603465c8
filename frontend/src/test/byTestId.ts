// What page tests do to and read from the element with a test id: type into it, click it, read
// a table row's cells.
import { fireEvent, screen, within } from "@testing-library/react";

/** Sets the value of the input, select or textarea with this test id (a change event). */
export function change(testId: string, value: string) {
  fireEvent.change(screen.getByTestId(testId), { target: { value } });
}

export function click(testId: string) {
  fireEvent.click(screen.getByTestId(testId));
}

/** The text of every cell of the row (or table) with this test id, in order. */
export function cells(testId: string): string[] {
  return within(screen.getByTestId(testId))
    .getAllByRole("cell")
    .map((c) => c.textContent ?? "");
}

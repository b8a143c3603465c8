import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ProgressBar } from "./ProgressBar";

function bar(value: number, state: Parameters<typeof ProgressBar>[0]["state"] = "running") {
  const { unmount } = render(<ProgressBar value={value} state={state} data-testid="bar" />);
  const el = screen.getByTestId("bar");
  const fill = el.querySelector<HTMLElement>(".progress-fill")!;
  const seen = {
    now: el.getAttribute("aria-valuenow"),
    text: el.textContent,
    width: fill.style.width,
    className: el.className,
    exact: el.getAttribute("data-progress"),
  };
  unmount();
  return seen;
}

describe("ProgressBar", () => {
  it("shows 0..1 as a whole percentage, the bar as wide as it, and the exact value in data-progress", () => {
    expect(bar(0.426)).toEqual({ now: "42", text: "42 %", width: "42%", className: "progress progress-running", exact: "0.426" });
    expect(bar(0)).toMatchObject({ now: "0", text: "0 %", width: "0%" });
    // Not 100 % until it is done.
    expect(bar(0.999)).toMatchObject({ now: "99", text: "99 %" });
    expect(bar(1, "succeeded")).toMatchObject({ now: "100", text: "100 %", width: "100%", className: "progress progress-succeeded" });
  });

  it("clamps values outside 0..1 and treats a missing one as 0", () => {
    expect(bar(1.7)).toMatchObject({ now: "100", width: "100%" });
    expect(bar(-0.2)).toMatchObject({ now: "0", width: "0%" });
    expect(bar(Number.NaN)).toMatchObject({ now: "0", text: "0 %" });
  });

  it("is a labelled progressbar for assistive technology", () => {
    render(<ProgressBar value={0.5} state="cancelled" label="Job progress" compact />);
    const el = screen.getByRole("progressbar", { name: "Job progress" });
    expect(el).toHaveAttribute("aria-valuemin", "0");
    expect(el).toHaveAttribute("aria-valuemax", "100");
    expect(el).toHaveAttribute("aria-valuetext", "50 %");
    expect(el).toHaveClass("progress-compact", "progress-cancelled");
  });
});

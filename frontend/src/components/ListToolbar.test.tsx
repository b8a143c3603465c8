import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { FilterSelect, LAZY_OPTIONS_ABOVE } from "./ListToolbar";

const MANY = Array.from({ length: LAZY_OPTIONS_ABOVE + 1 }, (_, i) => `topic-${String(i).padStart(5, "0")}`);

function Filter({ options, initial = "" }: { options: readonly string[]; initial?: string }) {
  const [value, setValue] = useState(initial);
  return <FilterSelect label="Topic" value={value} onChange={setValue} testId="filter" anyLabel="Any topic" options={options} />;
}

const optionValues = () => [...(screen.getByTestId("filter") as HTMLSelectElement).options].map((o) => o.value);

describe("FilterSelect", () => {
  it("renders a few options at once", () => {
    render(<Filter options={["a", "b"]} />);
    expect(optionValues()).toEqual(["", "a", "b"]);
    expect(screen.getByTestId("filter")).toHaveAttribute("data-options", "all");
  });

  it("renders many options only once focused, showing the chosen one meanwhile", () => {
    render(<Filter options={MANY} initial="topic-00300" />);
    const select = screen.getByTestId("filter") as HTMLSelectElement;
    expect(optionValues()).toEqual(["", "topic-00300"]);
    expect(select.value).toBe("topic-00300");
    expect(select).toHaveAttribute("data-options", "lazy");

    fireEvent.focus(select);
    expect(optionValues()).toEqual(["", ...MANY]);
    expect(select.value).toBe("topic-00300");
    fireEvent.change(select, { target: { value: "topic-00500" } });
    expect(select.value).toBe("topic-00500");
  });

  it("renders them on a press too, and none but 'any' when nothing is chosen", () => {
    render(<Filter options={MANY} />);
    expect(optionValues()).toEqual([""]);
    fireEvent.pointerDown(screen.getByTestId("filter"));
    expect(optionValues()).toHaveLength(MANY.length + 1);
  });
});

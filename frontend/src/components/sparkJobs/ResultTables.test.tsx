import { render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { EXPORT_RESULT, LAG_REPORT_RESULT, PROFILE_RESULT, REPLAY_RESULT } from "../../test/sparkFixtures";
import { ResultTables, utcText } from "./ResultTables";

/** A table's header cells and body rows as text. */
function tableText(testId: string) {
  const table = screen.getByTestId(testId);
  const head = within(table).getAllByRole("columnheader").map((c) => c.textContent);
  const rows = within(table)
    .getAllByRole("row")
    .slice(1)
    .map((row) => within(row).getAllByRole("cell").map((c) => c.textContent));
  return { head, rows };
}

/** Each fact shown (test id `result-fact-<key>`) has the text given. */
function expectFacts(facts: Record<string, string>) {
  for (const [key, text] of Object.entries(facts)) expect(screen.getByTestId(`result-fact-${key}`)).toHaveTextContent(text);
}

const partitionsBlock = () => screen.getByTestId("result-table-partitions").closest(".result-block");

describe("ResultTables", () => {
  it("shows a profile's summary and each of its tables, never JSON", () => {
    const { container } = render(<ResultTables job={{ job_type: "topic-profile", result: PROFILE_RESULT }} />);
    expectFacts({ records: "60", duplicate_records: "8", sequence_missing: "2" });

    expect(tableText("result-table-partitions")).toEqual({
      head: ["Partition", "Records", "Null keys", "First ts", "Last ts"],
      rows: [
        ["0", "30", "4", "2026-07-01 13:00:00 UTC", "2026-07-01 13:59:00 UTC"],
        ["1", "30", "4", "2026-07-01 13:00:01 UTC", "2026-07-01 13:59:01 UTC"],
      ],
    });
    expect(tableText("result-table-value_sizes").rows).toContainEqual(["mean", "18.2"]);
    // Tables of 4 columns and more take two grid columns; times stay on one line.
    expect(partitionsBlock()).toHaveClass("result-block-wide");
    expect(screen.getByTestId("result-table-hours").closest(".result-block")).not.toHaveClass("result-block-wide");
    expect(within(screen.getByTestId("result-table-partitions")).getAllByRole("cell")[3]).not.toHaveClass("wrap-soft");
    expect(within(screen.getByTestId("result-table-duplicates")).getAllByRole("cell")[0]).toHaveClass("wrap-soft");
    // A null key is shown as a dash, not "null".
    expect(tableText("result-table-duplicates").rows).toEqual([
      ["k0", "18", "2"],
      ["—", "18", "2"],
    ]);
    expect(tableText("result-table-sequence").head).toEqual(["Scope", "Checked", "Gaps", "Missing", "Out of order", "No field"]);
    expect(tableText("result-table-ranges")).toEqual({
      head: ["partition", "first offset", "end offset", "records in range"],
      rows: [
        ["0", "0", "30", "30"],
        ["1", "0", "30", "30"],
      ],
    });
    // Numbers are right-aligned, text is not.
    const partitions = screen.getByTestId("result-table-partitions");
    expect(within(partitions).getAllByRole("cell")[1]).toHaveClass("num");
    expect(within(partitions).getAllByRole("cell")[3]).not.toHaveClass("num");
    expect(container.textContent).not.toContain("{");
  });

  it("shows the scripts' UTC times readably, and other text as it is", () => {
    expect(utcText("2026-07-01T13:00:00.000Z")).toBe("2026-07-01 13:00:00 UTC");
    expect(utcText("2026-07-01T13:00:00.250Z")).toBe("2026-07-01 13:00:00.250 UTC");
    expect(utcText("2026-07-01T13:00:00+02:00")).toBeNull();
    expect(utcText("k7")).toBeNull();
  });

  it("shows an export's size and its rows per partition next to the range read", () => {
    render(<ResultTables job={{ job_type: "topic-export", result: EXPORT_RESULT }} />);
    expectFacts({ rows: "57", bytes: "5.20 KiB", files: "2", output_path: "/data/spark/output/export-7" });
    expect(tableText("result-table-ranges")).toEqual({
      head: ["partition", "first offset", "end offset", "records in range", "rows written"],
      rows: [
        ["0", "3", "30", "27", "27"],
        ["1", "0", "30", "30", "30"],
      ],
    });
  });

  it("shows a replay's records per target partition (in partition order) and the range read", () => {
    render(<ResultTables job={{ job_type: "topic-replay", result: REPLAY_RESULT }} />);
    expectFacts({ records: "60", target_topic: "orders-copy" });
    expect(tableText("result-table-partitions")).toEqual({
      head: ["target partition", "records"],
      rows: [
        ["0", "30"],
        ["1", "30"],
      ],
    });
    expect(tableText("result-table-ranges").rows).toHaveLength(2);
  });

  it("shows a lag report as facts and its table, a column per name its script writes", () => {
    render(<ResultTables job={{ job_type: "lag-report", result: LAG_REPORT_RESULT }} />);
    expectFacts({ groups_total: "2", export_topic: "kafka-console-lag-samples" });
    const { head, rows } = tableText("result-table-table");
    expect(head).toHaveLength(15);
    expect(head.slice(0, 3)).toEqual(["Group", "Samples", "Lag p50"]);
    expect(head.at(-1)).toBe("Seconds unknown");
    expect(rows.map((row) => row[0])).toEqual(["orders-app", "billing"]);
  });

  it("shows a result of another shape as facts and tables too, and says when there is none", () => {
    const { unmount } = render(
      <ResultTables
        job={{
          job_type: "topic-count",
          result: { records: 12, note: "ok", per_key: { a: 7, b: 5 }, sample: { columns: ["k"], rows: [["a"]] } },
        }}
      />,
    );
    expectFacts({ records: "12", note: "ok" });
    expect(tableText("result-table-per_key").rows).toEqual([
      ["a", "7"],
      ["b", "5"],
    ]);
    expect(tableText("result-table-sample").rows).toEqual([["a"]]);
    unmount();
    render(<ResultTables job={{ job_type: "topic-profile", result: null }} />);
    expect(screen.getByText("The job left no result.")).toBeInTheDocument();
  });
});

describe("ResultTables, nested results", () => {
  it("shows the profile's top keys with bytes, shares and partitions, to explain a skewed partition", () => {
    render(<ResultTables job={{ job_type: "topic-profile", result: PROFILE_RESULT }} />);
    const { head, rows } = tableText("result-table-top_keys");
    expect(head).toEqual(["Key", "Records", "Bytes", "Share", "Partitions"]);
    expect(rows[0]).toEqual(["k0", "19", "380 B", "31.7 %", "0"]);
    // The null key as a dash; a key in two partitions lists both, as a list (not "[0,1]").
    expect(rows[3]).toEqual(["—", "8", "144 B", "13.3 %", "0, 1"]);
    const block = screen.getByTestId("result-table-top_keys").closest(".result-block")!;
    expect(within(block as HTMLElement).getByRole("heading")).toHaveTextContent("Top keys (records, bytes, partitions)");
    expect(block).toHaveTextContent("the partitions they are in");
    const cells = within(screen.getByTestId("result-table-top_keys")).getAllByRole("cell");
    expect(cells[2]).toHaveClass("num");
    expect(cells[4]!.querySelector(".nested-list")).toHaveAttribute("data-items", "1");
    // Listed right after the partitions it explains.
    const order = screen.getAllByRole("table").map((t) => t.getAttribute("data-testid"));
    expect(order.indexOf("result-table-top_keys")).toBe(order.indexOf("result-table-partitions") + 1);
  });

  it("charts the profile's records per partition, with how far the fullest is above the mean", async () => {
    render(<ResultTables job={{ job_type: "topic-profile", result: PROFILE_RESULT }} />);
    const chart = screen.getByTestId("result-chart-partitions");
    expect(chart).toHaveAttribute("data-bars", "2");
    expect(screen.getByTestId("result-chart-partitions-skew")).toHaveTextContent("largest 30 · mean 30 · 1.00× the mean");
    await waitFor(() => expect(chart.querySelector(".recharts-wrapper")).not.toBeNull());
    await waitFor(() => expect(chart.querySelectorAll(".recharts-bar-rectangle")).toHaveLength(2));
  });

  it("shows no partition chart for a profile whose partitions table is missing", () => {
    const { summary, ranges } = PROFILE_RESULT;
    render(<ResultTables job={{ job_type: "topic-profile", result: { summary, ranges, tables: {} } }} />);
    expect(screen.queryByTestId("result-chart-partitions")).toBeNull();
  });

  it("shows nested objects and arrays as nested tables and lists, never as JSON text", () => {
    const { container } = render(
      <ResultTables
        job={{
          job_type: "topic-count",
          result: {
            records: 1200,
            feature_columns: ["count_e101_overheat_7d", "max_vibration_7d"],
            // An object of objects: a row per key, a column per field.
            per_partition: { "1": { records: 500, bytes: 61440 }, "0": { records: 700, bytes: 86016, hot_key: "eq-0007" } },
            // An array of objects: a column per field any of them has.
            stages: [
              { name: "read", tasks: 4, seconds: 1.5 },
              { name: "aggregate", tasks: 2, seconds: 0.25, skew: { max_task_records: 900, median_task_records: 150 } },
            ],
            // An object with nested values: a key/value table, its values nested in their cells.
            histogram: { bounds: [0, 10, 100, 1000], counts: [12, 480, 700, 8], note: "value sizes in bytes" },
          },
        }}
      />,
    );
    expectFacts({ records: "1,200", feature_columns: "count_e101_overheat_7d, max_vibration_7d" });

    expect(tableText("result-table-per_partition").head).toEqual(["key", "Records", "Bytes", "Hot key"]);
    expect(tableText("result-table-per_partition").rows).toEqual([
      ["0", "700", "86,016", "eq-0007"],
      ["1", "500", "61,440", "—"],
    ]);

    const stages = screen.getByTestId("result-table-stages");
    expect(within(stages).getAllByRole("columnheader").map((c) => c.textContent)).toEqual(["Name", "Tasks", "Seconds", "Skew"]);
    expect(screen.getByTestId("result-table-stages").closest(".result-block")).toHaveClass("result-block-wide");
    // The second stage's skew is a key/value table inside its cell.
    const skewCell = stages.querySelectorAll("tbody > tr")[1]!.querySelectorAll(":scope > td")[3]!;
    expect(skewCell).toHaveClass("nested-cell");
    const nested = skewCell.querySelector("table.nested-kv")!;
    expect([...nested.querySelectorAll("th")].map((th) => th.textContent)).toEqual(["Max task records", "Median task records"]);
    expect([...nested.querySelectorAll("td")].map((td) => td.textContent)).toEqual(["900", "150"]);
    expect(nested.querySelector("td")).toHaveClass("num");

    // Arrays of numbers: an inline list whose numbers stay whole.
    const histogram = tableText("result-table-histogram");
    expect(histogram.rows).toContainEqual(["bounds", "0, 10, 100, 1,000"]);
    expect(histogram.rows).toContainEqual(["counts", "12, 480, 700, 8"]);
    const lists = screen.getByTestId("result-table-histogram").querySelectorAll(".nested-list .nested-item .nowrap");
    expect([...lists].map((n) => n.textContent)).toContain("1,000");

    expect(container.textContent).not.toMatch(/[{}[\]"]/);
  });

  it("shows an array of arrays or of mixed items one item a line", () => {
    render(<ResultTables job={{ job_type: "topic-count", result: { samples: [[1, 2], "x", { a: 1 }] } }} />);
    const cells = [...screen.getByTestId("result-table-samples").querySelectorAll("tbody > tr > td:not(table table td)")];
    expect(cells.map((c) => c.textContent)).toEqual(["1, 2", "x", "A1"]);
    expect(cells[2]!.querySelector("table.nested-kv")).not.toBeNull();
  });
});

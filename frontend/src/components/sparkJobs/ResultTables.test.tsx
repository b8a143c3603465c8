import { render, screen, within } from "@testing-library/react";
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

import { describe, expect, it } from "vitest";
import css from "./styles.css?raw";

/** The declarations of the last rule whose selector list has `selector`. */
function rule(selector: string): string {
  const plain = css.replace(/\/\*[\s\S]*?\*\//g, "");
  const rules = [...plain.matchAll(/([^{}]+)\{([^}]*)\}/g)].filter(([, selectors]) =>
    selectors!.split(",").some((s) => s.trim() === selector),
  );
  return rules.length ? rules[rules.length - 1]![2]! : "";
}

describe("styles.css", () => {
  it("keeps dates, times and durations whole: the formatters' cells and <time> never wrap", () => {
    for (const selector of [".nowrap", ".table td.nowrap", "time"]) {
      expect(rule(selector)).toMatch(/white-space:\s*nowrap/);
    }
    // After the wrapping cells, so that a .nowrap cell wins over .table td.wrap.
    expect(css.lastIndexOf(".table td.nowrap")).toBeGreaterThan(css.lastIndexOf(".table td.wrap-soft"));
    expect(css.lastIndexOf(".table td.nowrap")).toBeGreaterThan(css.lastIndexOf(".table td.wrap {"));
  });
});

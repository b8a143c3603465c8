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

  it("wraps a result's text between words, never inside a word or a number", () => {
    // overflow-wrap: anywhere let a narrow cell break its text letter by letter.
    for (const selector of [".table td.wrap-soft", ".nested-table td", ".result-facts dd.mono"]) {
      expect(rule(selector)).toMatch(/word-break:\s*normal/);
      expect(rule(selector)).toMatch(/overflow-wrap:\s*break-word/);
      expect(rule(selector)).not.toMatch(/anywhere|break-all/);
    }
    for (const selector of [".table .num", ".nested-table td.num", ".nested-list .nested-item"]) {
      expect(rule(selector)).toMatch(/white-space:\s*nowrap/);
    }
  });
});

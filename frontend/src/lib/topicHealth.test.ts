import { describe, expect, it } from "vitest";
import { INVOICES, LEDGER, MISCONFIGURED_TOPICS, ORDERS, TOPICS } from "../test/fixtures";
import { HEALTH_KINDS, MISCONFIGURED, configTotals, countTone, misconfiguredText, partitionFlags, topicSeverity } from "./topicHealth";

const UNDER_MIN_ISR = HEALTH_KINDS.find((k) => k.filter === "under_min_isr")!;
const [ledger, invoices] = MISCONFIGURED_TOPICS as [(typeof MISCONFIGURED_TOPICS)[number], (typeof MISCONFIGURED_TOPICS)[number]];

describe("topic health with misconfigured topics (RF < min ISR)", () => {
  it("is amber when every partition under min ISR is misconfigured, red when one lost replicas", () => {
    expect(topicSeverity(ledger)).toBe("warn");
    expect(countTone(ledger, UNDER_MIN_ISR)).toBe("warn");
    expect(topicSeverity(invoices)).toBe("error");
    expect(countTone(invoices, UNDER_MIN_ISR)).toBe("error");
    const payments = TOPICS.find((t) => t.name === "payments")!;
    expect(topicSeverity(payments)).toBe("error");
    expect(countTone(payments, UNDER_MIN_ISR)).toBe("error");
    expect(countTone(TOPICS.find((t) => t.name === "audit")!, UNDER_MIN_ISR)).toBeNull();
    // A misconfigured topic is never "ok", even with no partition under min ISR counted.
    expect(topicSeverity({ ...ledger, under_min_isr_count: 0, min_isr_unreachable_count: 0 })).toBe("warn");
  });

  it("replaces a misconfigured partition's under min ISR badge, keeps the others", () => {
    const flags = (p: (typeof INVOICES.partitions)[number]) =>
      partitionFlags(p).map(({ kind, misconfigured }) => (misconfigured ? MISCONFIGURED.code : kind.filter));
    expect(flags(INVOICES.partitions[0]!)).toEqual(["min_isr_unreachable"]);
    expect(flags(INVOICES.partitions[1]!)).toEqual([]);
    expect(flags(INVOICES.partitions[2]!)).toEqual(["under_replicated", "under_min_isr"]);
    expect(flags(ORDERS.partitions[2]!)).toEqual(["under_replicated", "under_min_isr"]);
  });

  it("sums misconfigured and lost-replica partitions apart, and explains with the server's message", () => {
    expect(configTotals([...TOPICS, ...MISCONFIGURED_TOPICS])).toEqual({
      misconfigured: { partitions: 5, topics: 2 },
      outage: { partitions: 2, topics: 2 },
    });
    expect(misconfiguredText(LEDGER.config_warnings)).toBe(LEDGER.config_warnings[0]!.message);
    expect(misconfiguredText([])).toBe(MISCONFIGURED.help);
  });
});

import { describe, expect, it } from "vitest";
import { formatMessageCount, formatReaderGroups, replicasSizeTitle } from "./topicUsage";

describe("topic usage words", () => {
  it("writes message counts with separators, ≤ for an upper bound, a dash when unknown", () => {
    expect(formatMessageCount(1_234_567, false)).toBe("1,234,567");
    expect(formatMessageCount(42, true)).toBe("≤ 42");
    expect(formatMessageCount(0, false)).toBe("0");
    expect(formatMessageCount(null, true)).toBe("—");
  });

  it("counts reading groups in words", () => {
    expect(formatReaderGroups(1)).toBe("1 group");
    expect(formatReaderGroups(0)).toBe("0 groups");
    expect(formatReaderGroups(1200)).toBe("1,200 groups");
    expect(formatReaderGroups(null)).toBe("—");
  });

  it("says the size on all replicas", () => {
    expect(replicasSizeTitle(4_718_592)).toBe("4.50 MiB on all replicas");
    expect(replicasSizeTitle(null)).toBe("size on all replicas unknown");
  });
});

import { describe, expect, it } from "vitest";
import { formatBytes } from "./format";

describe("formatBytes", () => {
  it("writes sizes in binary units with three significant digits", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1023)).toBe("1,023 B");
    expect(formatBytes(1024)).toBe("1.00 KiB");
    expect(formatBytes(1536)).toBe("1.50 KiB");
    expect(formatBytes(52_428_800)).toBe("50.0 MiB");
    expect(formatBytes(7_000_000_000)).toBe("6.52 GiB");
    expect(formatBytes(150_000_000_000)).toBe("140 GiB");
    expect(formatBytes(5 * 1024 ** 4)).toBe("5.00 TiB");
    // Beyond TiB, still in TiB.
    expect(formatBytes(2048 * 1024 ** 4)).toBe("2048 TiB");
  });

  it("is an em dash when unknown, and never negative", () => {
    expect(formatBytes(null)).toBe("—");
    expect(formatBytes(undefined)).toBe("—");
    expect(formatBytes(Number.NaN)).toBe("—");
    expect(formatBytes(-5)).toBe("0 B");
  });
});

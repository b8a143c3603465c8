import { vi } from "vitest";

/** This browser's locale asks for a 24-hour (h23) or 12-hour (h12) clock. */
export function hourCycle(cycle: "h12" | "h23") {
  const resolved = Intl.DateTimeFormat.prototype.resolvedOptions;
  vi.spyOn(Intl.DateTimeFormat.prototype, "resolvedOptions").mockImplementation(function (this: Intl.DateTimeFormat) {
    return { ...resolved.call(this), hourCycle: cycle };
  });
}

import { act, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { usePolling } from "./usePolling";

afterEach(() => {
  vi.useRealTimers();
});

describe("usePolling", () => {
  it("replace() shows data at once and drops the answer of a poll already in flight", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    let answer = "first";
    let release: (() => void) | null = null;
    const fetcher = vi.fn(
      () =>
        new Promise<string>((resolve) => {
          const value = answer;
          release = () => resolve(value);
        }),
    );
    const { result } = renderHook(() => usePolling(fetcher, 1000));
    await act(async () => release?.());
    expect(result.current.data).toBe("first");

    // The next poll starts and is still waiting when a write answers.
    answer = "stale";
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(fetcher).toHaveBeenCalledTimes(2);
    act(() => result.current.replace("written"));
    expect(result.current.data).toBe("written");
    await act(async () => release?.());
    expect(result.current.data).toBe("written");

    // Later polls show again.
    answer = "later";
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await act(async () => release?.());
    expect(result.current.data).toBe("later");
  });
});

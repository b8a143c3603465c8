import { useCallback } from "react";
import { useSearchParams } from "react-router-dom";

/**
 * The URL query and a function that changes some of its keys in place
 * (history replace): a null or "" value removes the key.
 */
export function useQueryUpdate() {
  const [params, setParams] = useSearchParams();
  const update = useCallback(
    (changes: Record<string, string | null>) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(changes)) {
            if (v === null || v === "") next.delete(k);
            else next.set(k, v);
          }
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );
  return [params, update] as const;
}

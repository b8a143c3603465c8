import type { ReactNode } from "react";

export type Tone = "ok" | "error" | "warn" | "info" | "neutral";

interface StatusBadgeProps {
  tone: Tone;
  children: ReactNode;
  title?: string;
  "data-testid"?: string;
}

/** A small coloured pill: green ok, red error, amber warn, blue info, grey neutral. */
export function StatusBadge({ tone, children, title, "data-testid": testId }: StatusBadgeProps) {
  return (
    <span className={`badge badge-${tone}`} title={title} data-testid={testId} data-tone={tone}>
      {children}
    </span>
  );
}

/** Green "reachable" / red "unreachable". */
export function ReachableBadge({ reachable }: { reachable: boolean }) {
  return reachable ? (
    <StatusBadge tone="ok">reachable</StatusBadge>
  ) : (
    <StatusBadge tone="error">unreachable</StatusBadge>
  );
}

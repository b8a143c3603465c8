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

/** Amber "protected" on a cluster whose changes wait for a second person's approval (the
 * registry's `protected`, docs/clusters.md); nothing on the others. */
export function ProtectedBadge({ protected: isProtected, testId = "protected-badge" }: { protected?: boolean; testId?: string }) {
  if (!isProtected) return null;
  return (
    <StatusBadge
      tone="warn"
      title="A protected cluster: offset resets, topic deletes and changes, leader elections and ACL deletes wait for a second person's approval (Approvals)"
      data-testid={testId}
    >
      protected
    </StatusBadge>
  );
}

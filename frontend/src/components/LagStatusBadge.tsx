import type { LagStatus, RetentionRisk } from "../api/types";
import { asLagStatus, LAG_STATUS_HELP, RISK_LABEL, riskTitle } from "../lib/lagStatus";

/**
 * A lag status as a pill, one colour each: OK green, WARN amber, STALL orange, STOP purple,
 * ERR red, REWIND blue, UNKNOWN grey (styles.css: .lag-status-*). The tooltip says what it means.
 */
export function LagStatusBadge({
  status,
  "data-testid": testId,
}: {
  status: LagStatus | string | null | undefined;
  "data-testid"?: string;
}) {
  const s = asLagStatus(status);
  return (
    <span
      className={`badge lag-status lag-status-${s.toLowerCase()}`}
      title={LAG_STATUS_HELP[s]}
      data-testid={testId}
      data-status={s}
    >
      {s}
    </span>
  );
}

/** "near deletion" (amber) or "records lost" (red) with the explanation as tooltip: the server's
 * `reason` when given, else what the risk means; nothing for "none". `compact` (table rows):
 * "near" / "lost". */
export function RetentionRiskBadge({
  risk,
  reason,
  compact = false,
  "data-testid": testId,
}: {
  risk: RetentionRisk | null | undefined;
  /** Why, in words (`retention_reason`); null or absent: the generic help. */
  reason?: string | null;
  compact?: boolean;
  "data-testid"?: string;
}) {
  if (risk !== "near" && risk !== "lost") return null;
  return (
    <span
      className={`badge badge-inline ${risk === "lost" ? "badge-error" : "badge-warn"} retention-risk`}
      title={riskTitle(risk, reason)}
      data-testid={testId}
      data-risk={risk}
    >
      ⚠ {compact ? risk : RISK_LABEL[risk]}
    </span>
  );
}

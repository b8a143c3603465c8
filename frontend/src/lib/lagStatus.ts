// Lag statuses (docs/live-lag.md, "Status rules"), retention risk and catch-up time: labels, help,
// severity, and the words the pages show.
import type { LagStatus, Rates, RetentionRisk } from "../api/types";
import { formatDuration } from "./format";

export const LAG_STATUSES: readonly LagStatus[] = ["OK", "WARN", "STALL", "STOP", "ERR", "REWIND", "UNKNOWN"];

/** Worse is higher (the server's SEVERITY); UNKNOWN counts only when nothing else is known. */
export const LAG_SEVERITY: Record<LagStatus, number> = {
  UNKNOWN: -1,
  OK: 0,
  WARN: 1,
  STALL: 2,
  STOP: 3,
  ERR: 4,
  REWIND: 5,
};

/** A status the server may add later counts as UNKNOWN. */
export function asLagStatus(value: unknown): LagStatus {
  return typeof value === "string" && value in LAG_SEVERITY ? (value as LagStatus) : "UNKNOWN";
}

/** The worst of some statuses (UNKNOWN only if all are, or there are none), as the server's group_status. */
export function worstStatus(statuses: Iterable<unknown>): LagStatus {
  let worst: LagStatus = "UNKNOWN";
  for (const value of statuses) {
    const status = asLagStatus(value);
    if (LAG_SEVERITY[status] > LAG_SEVERITY[worst]) worst = status;
  }
  return worst;
}

/** What a status means, for its badge's tooltip. */
export const LAG_STATUS_HELP: Record<LagStatus, string> = {
  OK: "Caught up, or the lag is not growing.",
  WARN: "Consuming, but slower than the producers: the lag grows at every sample.",
  STALL: "A live member owns the partition but its committed offset does not move.",
  STOP: "The group has members, but none owns the partition and its offset does not move.",
  ERR: "Lagging and nobody consumes: the group has no members.",
  REWIND: "The committed offset went back (a reset to an earlier offset) within the window.",
  UNKNOWN: "Not enough samples yet to judge (fewer than 3), or the lag is unknown.",
};

/** Worse is higher. */
export const RISK_SEVERITY: Record<RetentionRisk, number> = { none: 0, near: 1, lost: 2 };

export function worstRisk(risks: Iterable<unknown>): RetentionRisk {
  let worst: RetentionRisk = "none";
  for (const value of risks) {
    const risk = typeof value === "string" && value in RISK_SEVERITY ? (value as RetentionRisk) : "none";
    if (RISK_SEVERITY[risk] > RISK_SEVERITY[worst]) worst = risk;
  }
  return worst;
}

export const RISK_LABEL: Record<RetentionRisk, string> = {
  none: "",
  near: "near deletion",
  lost: "records lost",
};

export const RISK_HELP: Record<RetentionRisk, string> = {
  none: "",
  near: "Records close to deletion: retention can delete records the group has not read yet before it catches up.",
  lost: "Records lost: retention deleted records before the group consumed them.",
};

/** A risk's tooltip: the server's reason (`retention_reason`) when it gave one, else what the risk
 * means; undefined at none. */
export function riskTitle(risk: RetentionRisk, reason?: string | null): string | undefined {
  if (risk === "none") return undefined;
  return reason || RISK_HELP[risk];
}

/** Whether both rates are known (the server's catch-up time is null when one is not). */
function ratesKnown(rates: Rates | null | undefined): boolean {
  return !rates || (rates.write_per_s !== null && rates.consume_per_s !== null);
}

/**
 * Time to catch up as words: "caught up" at no lag; "never" when the group does not consume faster
 * than the producers write (null while lagging, both rates known); an em dash when unknown (the
 * lag, or a rate: too few samples, or not sampled at all). Without `rates`, null while lagging is
 * "never".
 */
export function formatCatchUp(
  seconds: number | null | undefined,
  lag: number | null | undefined,
  rates?: Rates | null,
): string {
  if (lag !== null && lag !== undefined && lag <= 0) return "caught up";
  if (seconds === null || seconds === undefined) {
    return lag === null || lag === undefined || !ratesKnown(rates) ? "—" : "never";
  }
  return seconds <= 0 ? "caught up" : formatDuration(seconds);
}

/** Sort value of a catch-up time: "never" after every duration; unknown null (the caller puts it last). */
export function catchUpSortValue(seconds: number | null, lag: number | null, rates?: Rates | null): number | null {
  if (lag !== null && lag <= 0) return 0;
  if (seconds === null) return lag === null || !ratesKnown(rates) ? null : Number.POSITIVE_INFINITY;
  return seconds;
}

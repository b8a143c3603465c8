import type { GroupDetail, RetentionRisk } from "../../api/types";

/** The topics at a risk, worst first. */
function topicsAtRisk(detail: GroupDetail, risk: RetentionRisk): string[] {
  const names = new Set<string>();
  for (const t of detail.topics) if (t.retention_risk === risk) names.add(t.topic);
  for (const o of detail.offsets) if (o.retention_risk === risk) names.add(o.topic);
  return [...names].sort();
}

/** A warning above the facts when retention deleted, or is about to delete, records the group has not read. */
export function RetentionNotice({ detail }: { detail: GroupDetail }) {
  const lost = topicsAtRisk(detail, "lost");
  const near = topicsAtRisk(detail, "near").filter((t) => !lost.includes(t));
  if (lost.length === 0 && near.length === 0 && detail.retention_risk === "none") return null;
  const risk: RetentionRisk = lost.length > 0 || detail.retention_risk === "lost" ? "lost" : "near";
  return (
    <div
      className={`notice ${risk === "lost" ? "notice-error" : "notice-warn"} risk-notice`}
      role="alert"
      data-testid="group-retention-risk"
      data-risk={risk}
    >
      {lost.length > 0 || risk === "lost" ? (
        <p>
          <strong>Records lost:</strong> retention deleted records of{" "}
          {lost.length > 0 ? <span className="mono">{lost.join(", ")}</span> : "a topic"} before this group consumed them.
          The group skips them when it resumes.
        </p>
      ) : null}
      {near.length > 0 || (risk === "near" && lost.length === 0) ? (
        <p>
          <strong>Records close to deletion:</strong> the group reads in the oldest part of the retained log of{" "}
          {near.length > 0 ? <span className="mono">{near.join(", ")}</span> : "a topic"}; the next segment deletion removes
          records it has not read yet.
        </p>
      ) : null}
    </div>
  );
}

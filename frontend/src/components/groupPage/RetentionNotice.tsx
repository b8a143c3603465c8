import type { GroupDetail, RetentionRisk } from "../../api/types";

/** The topics at a risk, by name. */
function topicsAtRisk(detail: GroupDetail, risk: RetentionRisk): string[] {
  const names = new Set<string>();
  for (const t of detail.topics) if (t.retention_risk === risk) names.add(t.topic);
  for (const o of detail.offsets) if (o.retention_risk === risk) names.add(o.topic);
  return [...names].sort();
}

/**
 * The distinct reasons the server gave for some topics at a risk: each topic's own
 * `retention_reason` when its row has that risk, else the group's when the group has it (a topic
 * known at risk only from its partitions, or before the sampler described the topics). In the
 * topics' order; none when the server gave no reason.
 */
function reasonsFor(detail: GroupDetail, topics: string[], risk: RetentionRisk): string[] {
  const byTopic = new Map(detail.topics.map((t) => [t.topic, t]));
  const groupReason = detail.retention_risk === risk ? detail.retention_reason : null;
  const reasons = new Set<string>();
  for (const name of topics) {
    const t = byTopic.get(name);
    const reason = (t && t.retention_risk === risk ? t.retention_reason : null) || groupReason;
    if (reason) reasons.add(reason);
  }
  if (topics.length === 0 && groupReason) reasons.add(groupReason);
  return [...reasons];
}

function Reasons({ reasons, risk }: { reasons: string[]; risk: RetentionRisk }) {
  if (reasons.length === 0) return null;
  return (
    <ul className="risk-reasons" data-testid={`group-retention-reasons-${risk}`}>
      {reasons.map((r) => (
        <li key={r}>{r}</li>
      ))}
    </ul>
  );
}

/** Topic names in monospace, or "a topic" when none is known. */
function TopicNames({ topics }: { topics: string[] }) {
  return topics.length > 0 ? <span className="mono">{topics.join(", ")}</span> : <>a topic</>;
}

/**
 * A warning above the facts when retention deleted, or can delete before the group catches up,
 * records the group has not read: which topics, and the server's reasons (`retention_reason`:
 * retention.ms against the oldest unread record's age, or how many records were deleted).
 */
export function RetentionNotice({ detail }: { detail: GroupDetail }) {
  const lost = topicsAtRisk(detail, "lost");
  const near = topicsAtRisk(detail, "near").filter((t) => !lost.includes(t));
  if (lost.length === 0 && near.length === 0 && detail.retention_risk === "none") return null;
  const risk: RetentionRisk = lost.length > 0 || detail.retention_risk === "lost" ? "lost" : "near";
  const showLost = lost.length > 0 || risk === "lost";
  const showNear = near.length > 0 || (risk === "near" && lost.length === 0);
  const nearReasons = showNear ? reasonsFor(detail, near, "near") : [];
  return (
    <div
      className={`notice ${risk === "lost" ? "notice-error" : "notice-warn"} risk-notice`}
      role="alert"
      data-testid="group-retention-risk"
      data-risk={risk}
    >
      {showLost ? (
        <>
          <p>
            <strong>Records lost:</strong> retention deleted records of <TopicNames topics={lost} /> before this group
            consumed them. The group skips them when it resumes.
          </p>
          <Reasons reasons={reasonsFor(detail, lost, "lost")} risk="lost" />
        </>
      ) : null}
      {showNear ? (
        <>
          {nearReasons.length > 0 ? (
            <p>
              <strong>Records close to deletion:</strong>
            </p>
          ) : (
            <p>
              <strong>Records close to deletion:</strong> retention can delete records of <TopicNames topics={near} /> that
              this group has not read yet.
            </p>
          )}
          <Reasons reasons={nearReasons} risk="near" />
        </>
      ) : null}
    </div>
  );
}

import { useId } from "react";
import {
  actionFilterMeaning,
  AUDIT_OUTCOMES,
  isoToLocalInput,
  localInputToIso,
  OUTCOME_HELP,
  type AuditFilter,
  type AuditFilterKey,
} from "../../lib/audit";
import { browserTimeZone } from "../../lib/time";

/** Action prefixes the console writes (the action input offers them; any text may be typed). */
const ACTION_SUGGESTIONS = [
  "acl.",
  "alert.rule.",
  "broker.",
  "group.delete",
  "leaders.elect",
  "message.produce",
  "offsets.",
  "quota.alter",
  "reassignment.",
  "scram.",
  "spark.job.",
  "spark.schedule.",
  "token.",
  "topic.",
  "user.",
];

interface AuditFiltersProps {
  filter: AuditFilter;
  /** The registered clusters this user may read (the cluster select's choices). */
  clusters: readonly string[];
  onChange: (changes: Partial<Record<AuditFilterKey, string | null>>) => void;
}

/**
 * The audit page's filter bar (kept in the URL query by the page): actor, action (exact, or a
 * prefix ending in "."), cluster, target (contained text), outcome, and a time range whose inputs
 * are this browser's wall time, sent as ISO-8601 with its offset.
 */
export function AuditFilters({ filter, clusters, onChange }: AuditFiltersProps) {
  const id = useId();
  const zone = browserTimeZone();
  const clusterChoices = filter.cluster && !clusters.includes(filter.cluster) ? [...clusters, filter.cluster] : clusters;
  const meaning = actionFilterMeaning(filter.action);
  return (
    <div className="audit-filters" data-testid="audit-filters">
      <div className="audit-filter">
        <label className="field-label" htmlFor={`${id}-actor`}>
          Actor
        </label>
        <input
          id={`${id}-actor`}
          type="search"
          className="input"
          placeholder="exactly this user"
          value={filter.actor}
          onChange={(event) => onChange({ actor: event.target.value })}
          autoComplete="off"
          spellCheck={false}
          data-testid="audit-filter-actor"
        />
      </div>
      <div className="audit-filter">
        <label className="field-label" htmlFor={`${id}-action`}>
          Action
        </label>
        <input
          id={`${id}-action`}
          type="search"
          className="input mono"
          placeholder="topic.delete, offsets."
          value={filter.action}
          list={`${id}-actions`}
          onChange={(event) => onChange({ action: event.target.value })}
          autoComplete="off"
          spellCheck={false}
          title={meaning ?? "Exactly, or a prefix ending in “.”"}
          data-testid="audit-filter-action"
        />
        <datalist id={`${id}-actions`}>
          {ACTION_SUGGESTIONS.map((action) => (
            <option key={action} value={action} />
          ))}
        </datalist>
      </div>
      <div className="audit-filter">
        <label className="field-label" htmlFor={`${id}-cluster`}>
          Cluster
        </label>
        <select
          id={`${id}-cluster`}
          className="input"
          value={filter.cluster}
          onChange={(event) => onChange({ cluster: event.target.value })}
          data-testid="audit-filter-cluster"
        >
          <option value="">Any cluster</option>
          {clusterChoices.map((cluster) => (
            <option key={cluster} value={cluster}>
              {cluster}
            </option>
          ))}
        </select>
      </div>
      <div className="audit-filter">
        <label className="field-label" htmlFor={`${id}-target`}>
          Target
        </label>
        <input
          id={`${id}-target`}
          type="search"
          className="input mono"
          placeholder="contains…"
          value={filter.target}
          onChange={(event) => onChange({ target: event.target.value })}
          autoComplete="off"
          spellCheck={false}
          data-testid="audit-filter-target"
        />
      </div>
      <div className="audit-filter">
        <label className="field-label" htmlFor={`${id}-outcome`}>
          Outcome
        </label>
        <select
          id={`${id}-outcome`}
          className="input"
          value={filter.outcome}
          onChange={(event) => onChange({ outcome: event.target.value })}
          data-testid="audit-filter-outcome"
        >
          <option value="">Any outcome</option>
          {AUDIT_OUTCOMES.map((outcome) => (
            <option key={outcome} value={outcome} title={OUTCOME_HELP[outcome]}>
              {outcome}
            </option>
          ))}
        </select>
      </div>
      <TimeFilter id={`${id}-since`} label="From" value={filter.since} zone={zone} testId="audit-filter-since" onChange={(iso) => onChange({ since: iso })} />
      <TimeFilter id={`${id}-until`} label="Before" value={filter.until} zone={zone} testId="audit-filter-until" onChange={(iso) => onChange({ until: iso })} />
    </div>
  );
}

interface TimeFilterProps {
  id: string;
  label: string;
  /** ISO-8601 with an offset, or "". */
  value: string;
  zone: string;
  testId: string;
  /** The ISO-8601 instant of the wall time typed (null: none). */
  onChange: (iso: string | null) => void;
}

/** A datetime-local input in this browser's zone; the instant it means (the ISO sent) as its tooltip. */
function TimeFilter({ id, label, value, zone, testId, onChange }: TimeFilterProps) {
  return (
    <div className="audit-filter">
      <label className="field-label" htmlFor={id}>
        {label} <span className="audit-zone">({zone})</span>
      </label>
      <input
        id={id}
        type="datetime-local"
        className="input"
        value={isoToLocalInput(value, zone)}
        onChange={(event) => onChange(localInputToIso(event.target.value, zone))}
        title={value || `In ${zone}`}
        data-testid={testId}
        data-iso={value}
      />
    </div>
  );
}

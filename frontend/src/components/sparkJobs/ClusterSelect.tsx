import type { ClusterSummary } from "../../api/types";

interface ClusterSelectProps {
  id: string;
  /** The registered clusters (GET clusters); undefined while loading. */
  clusters: ClusterSummary[] | undefined;
  value: string;
  onChange: (cluster: string) => void;
  disabled: boolean;
  invalid: boolean;
  testId: string;
}

/** The cluster a Spark job (or schedule) runs on: the registered ones, an unreachable one said so;
 * disabled while they load. */
export function ClusterSelect({ id, clusters, value, onChange, disabled, invalid, testId }: ClusterSelectProps) {
  return (
    <select
      id={id}
      className="input"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      disabled={disabled || !clusters}
      aria-invalid={invalid}
      data-testid={testId}
    >
      {!clusters && <option value={value}>{value || "Loading clusters…"}</option>}
      {clusters?.map((c) => (
        <option key={c.name} value={c.name}>
          {c.name}
          {c.reachable ? "" : " (unreachable)"}
        </option>
      ))}
    </select>
  );
}

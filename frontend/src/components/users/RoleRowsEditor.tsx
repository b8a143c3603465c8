import { useId } from "react";
import type { Role } from "../../api/types";
import { isRole, newRoleRow, ROLE_HELP, ROLES, type RoleRow, type RolesForm } from "../../lib/users";
import { FieldErrors } from "../FieldErrors";

interface RoleRowsEditorProps {
  value: RolesForm;
  onChange: (value: RolesForm) => void;
  /** The registered clusters (the rows' choices); a row's cluster that is not one stays offered. */
  clusters: readonly string[];
  /** Problems of rows found before sending, by row key. */
  rowErrors?: Record<number, string>;
  /** A refusal's problems, by cluster name (`cluster_roles.<cluster>`). */
  clusterErrors?: Record<string, string[]>;
  /** A refusal's problems with the role on every cluster. */
  roleErrors?: string[];
  disabled?: boolean;
  /** Test ids: `<testId>-role`, `<testId>-row-{i}`, `<testId>-cluster-{i}`, `<testId>-cluster-role-{i}`,
   * `<testId>-remove-{i}`, `<testId>-add`. */
  testId: string;
}

/**
 * A user's roles (docs/roles.md): the role on every cluster (or none), and rows of single clusters
 * with their own role, which replaces it there (higher or lower). Rows are added and removed here;
 * what is sent is the caller's (a create body, or the PATCH to get there).
 */
export function RoleRowsEditor({ value, onChange, clusters, rowErrors = {}, clusterErrors = {}, roleErrors, disabled, testId }: RoleRowsEditorProps) {
  const id = useId();
  const used = new Set(value.rows.map((r) => r.cluster));
  const setRow = (key: number, change: Partial<RoleRow>) =>
    onChange({ ...value, rows: value.rows.map((row) => (row.key === key ? { ...row, ...change } : row)) });
  const removeRow = (key: number) => onChange({ ...value, rows: value.rows.filter((row) => row.key !== key) });
  const addRow = () => {
    // The first cluster without a row yet, so that adding is one click for the usual case.
    const free = clusters.find((c) => !used.has(c)) ?? "";
    onChange({ ...value, rows: [...value.rows, newRoleRow(free, "")] });
  };

  return (
    <div className="role-editor" data-testid={testId}>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-role`}>
          Role on every cluster
        </label>
        <select
          id={`${id}-role`}
          className="input"
          value={value.role}
          disabled={disabled}
          onChange={(event) => onChange({ ...value, role: isRole(event.target.value) ? event.target.value : "" })}
          aria-invalid={!!roleErrors?.length}
          data-testid={`${testId}-role`}
        >
          <option value="">none</option>
          {ROLES.map((role) => (
            <option key={role} value={role} title={ROLE_HELP[role]}>
              {role}
            </option>
          ))}
        </select>
        <p className="field-hint">{value.role ? ROLE_HELP[value.role] : "No access to a cluster without a role of its own below."}</p>
        <FieldErrors messages={roleErrors} testId="field-error-role" />
      </div>

      <div className="field">
        <span className="field-label" id={`${id}-rows`}>
          Roles on single clusters
        </span>
        <p className="field-hint role-rows-hint">On these clusters the role here replaces the one on every cluster, higher or lower.</p>
        {value.rows.length > 0 && (
          <div className="role-rows" role="group" aria-labelledby={`${id}-rows`}>
            {value.rows.map((row, index) => {
              const choices = row.cluster && !clusters.includes(row.cluster) ? [...clusters, row.cluster] : clusters;
              const problems = [...(rowErrors[row.key] ? [rowErrors[row.key]!] : []), ...(row.cluster ? (clusterErrors[row.cluster] ?? []) : [])];
              return (
                <div key={row.key} className="role-row" data-testid={`${testId}-row-${index}`} data-cluster={row.cluster}>
                  <select
                    className="input"
                    aria-label={`Cluster of row ${index + 1}`}
                    value={row.cluster}
                    disabled={disabled}
                    onChange={(event) => setRow(row.key, { cluster: event.target.value })}
                    aria-invalid={problems.length > 0}
                    data-testid={`${testId}-cluster-${index}`}
                  >
                    <option value="">Choose a cluster…</option>
                    {choices.map((cluster) => (
                      <option key={cluster} value={cluster} disabled={cluster !== row.cluster && used.has(cluster)}>
                        {cluster}
                      </option>
                    ))}
                  </select>
                  <select
                    className="input"
                    aria-label={`Role on ${row.cluster || `the cluster of row ${index + 1}`}`}
                    value={row.role}
                    disabled={disabled}
                    onChange={(event) => setRow(row.key, { role: isRole(event.target.value) ? (event.target.value as Role) : "" })}
                    aria-invalid={problems.length > 0}
                    data-testid={`${testId}-cluster-role-${index}`}
                  >
                    <option value="">Choose a role…</option>
                    {ROLES.map((role) => (
                      <option key={role} value={role} title={ROLE_HELP[role]}>
                        {role}
                      </option>
                    ))}
                  </select>
                  <button
                    type="button"
                    className="button button-small"
                    disabled={disabled}
                    onClick={() => removeRow(row.key)}
                    aria-label={`Remove the role on ${row.cluster || `row ${index + 1}`}`}
                    data-testid={`${testId}-remove-${index}`}
                  >
                    Remove
                  </button>
                  <FieldErrors messages={problems.length > 0 ? problems : undefined} testId={`field-error-cluster-${row.cluster || index}`} />
                </div>
              );
            })}
          </div>
        )}
        <button
          type="button"
          className="button button-small"
          disabled={disabled || (clusters.length > 0 && clusters.every((c) => used.has(c)))}
          onClick={addRow}
          data-testid={`${testId}-add`}
        >
          + Add a cluster
        </button>
      </div>
    </div>
  );
}

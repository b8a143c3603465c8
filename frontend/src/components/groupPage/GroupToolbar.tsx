import { groupOffsetsCsvUrl } from "../../api/endpoints";
import { plural } from "../../lib/format";

interface GroupToolbarProps {
  cluster: string;
  group: string;
  /** Operators and admins: "Reset offsets…" and "Delete group…". */
  isOperator: boolean;
  /** Members now (delete needs none). */
  members: number;
  wizardOpen: boolean;
  onOpenWizard: () => void;
  onDelete: () => void;
}

/** The group's actions: open the reset wizard, export the offsets as CSV, delete the group. */
export function GroupToolbar({ cluster, group, isOperator, members, wizardOpen, onOpenWizard, onDelete }: GroupToolbarProps) {
  return (
    <div className="toolbar group-actions">
      {isOperator && (
        <button
          type="button"
          className="button button-primary"
          onClick={onOpenWizard}
          disabled={wizardOpen}
          data-testid="reset-open"
        >
          Reset offsets…
        </button>
      )}
      <a
        className="button"
        href={groupOffsetsCsvUrl(cluster, group)}
        download={`${group}-offsets.csv`}
        data-testid="export-csv"
      >
        Export offsets.csv
      </a>
      <span className="toolbar-spacer" />
      {isOperator && (
        <>
          {members > 0 && (
            <span className="field-hint" data-testid="delete-group-hint">
              Delete needs a group without members: stop its {members} {plural(members, "member")} first.
            </span>
          )}
          <button
            type="button"
            className="button button-danger-outline"
            onClick={onDelete}
            disabled={members > 0}
            title={members > 0 ? "Kafka deletes only groups without members" : undefined}
            data-testid="delete-group"
          >
            Delete group…
          </button>
        </>
      )}
    </div>
  );
}

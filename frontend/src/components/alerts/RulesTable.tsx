import { Fragment, useState } from "react";
import { Link } from "react-router-dom";
import { deleteAlertRule, testAlertRule, type AlertEvent, type AlertRule } from "../../api/alerts";
import { activeSilence, channelLabel, conditionWords, formatAlertTime, repeatWords } from "../../lib/alertRules";
import { formatCount, plural } from "../../lib/format";
import { groupPath } from "../../navigation";
import { ConfirmDialog } from "../ConfirmDialog";
import { StatusBadge } from "../StatusBadge";
import { EmptyRow, Table, type HeaderColumn } from "../TableParts";

/** Firing groups named in the row; the rest are counted. */
const FIRST_GROUPS = 3;

interface RulesTableProps {
  rules: AlertRule[];
  /** Operators and admins: Edit, Send test and Delete on each row. */
  canWrite: boolean;
  onEdit: (rule: AlertRule) => void;
  /** After a test was sent or a rule deleted (the rules and alerts are fetched again). */
  onChanged: (change: { deleted?: AlertRule }) => void;
}

/**
 * The lag alert rules: name, cluster, group pattern, conditions in words, channel and (masked)
 * target, how often it tells again, enabled, and the groups it holds for now (links). Operators
 * have Edit, Send test (its answer under the row) and Delete (after a confirm).
 */
export function RulesTable({ rules, canWrite, onEdit, onChanged }: RulesTableProps) {
  const columns: HeaderColumn[] = [
    "Name",
    "Cluster",
    "Group pattern",
    "Conditions",
    "Channel",
    "Repeat",
    "Enabled",
    "Firing for",
    ...(canWrite ? [{ label: "Actions", hidden: true }] : []),
  ];
  const [deleting, setDeleting] = useState<AlertRule | null>(null);
  return (
    <>
      <Table columns={columns} className="rules-table" data-testid="rules-table" data-count={rules.length}>
        {rules.length === 0 && (
          <EmptyRow span={columns.length} testId="rules-empty">
            No alert rule yet{canWrite ? ": “New rule” adds one." : "."}
          </EmptyRow>
        )}
        {rules.map((rule) => (
          <RuleRow
            key={rule.id}
            rule={rule}
            span={columns.length}
            canWrite={canWrite}
            onEdit={onEdit}
            onDelete={() => setDeleting(rule)}
            onChanged={onChanged}
          />
        ))}
      </Table>
      {deleting && (
        <DeleteRuleDialog
          rule={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            setDeleting(null);
            onChanged({ deleted: deleting });
          }}
        />
      )}
    </>
  );
}

/** "Delete alert rule …" with a confirm; refused: the server's message in the dialog. */
function DeleteRuleDialog({ rule, onClose, onDeleted }: { rule: AlertRule; onClose: () => void; onDeleted: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const onDelete = async () => {
    setBusy(true);
    setError(null);
    try {
      await deleteAlertRule(rule.id);
      onDeleted();
    } catch (err) {
      setError(err instanceof Error ? err : new Error(String(err)));
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog
      title={`Delete alert rule “${rule.name}”`}
      confirmLabel="Delete rule"
      busy={busy}
      error={error}
      onConfirm={() => void onDelete()}
      onCancel={onClose}
    >
      <p>
        The rule stops watching the groups of <strong>{rule.cluster}</strong> matching{" "}
        <code>{rule.group_pattern ?? "*"}</code> at once, and no recovery is sent for the groups it fires for. The alerts
        it sent stay listed below.
      </p>
    </ConfirmDialog>
  );
}

interface RuleRowProps {
  rule: AlertRule;
  span: number;
  canWrite: boolean;
  onEdit: (rule: AlertRule) => void;
  onDelete: () => void;
  onChanged: RulesTableProps["onChanged"];
}

function RuleRow({ rule, span, canWrite, onEdit, onDelete, onChanged }: RuleRowProps) {
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<AlertEvent | Error | null>(null);
  const silence = activeSilence(rule.silences);

  const onTest = async () => {
    setTesting(true);
    setTested(null);
    try {
      setTested(await testAlertRule(rule.id));
      onChanged({});
    } catch (err) {
      setTested(err instanceof Error ? err : new Error(String(err)));
    } finally {
      setTesting(false);
    }
  };

  return (
    <Fragment>
      <tr data-testid={`rule-row-${rule.id}`} data-enabled={rule.enabled === false ? "false" : "true"}>
        <td className="wrap">
          <strong>{rule.name}</strong>
          {rule.created_by && <span className="muted small-line">by {rule.created_by}</span>}
        </td>
        <td>{rule.cluster}</td>
        <td className="mono" data-testid={`rule-pattern-${rule.id}`}>
          {rule.group_pattern ?? "*"}
        </td>
        <td className="wrap">
          <span data-testid={`rule-conditions-${rule.id}`}>{conditionWords(rule)}</span>
          {silence ? (
            <span className="muted small-line" data-testid={`rule-silenced-${rule.id}`}>
              silenced until {formatAlertTime(silence.ends_at)}
            </span>
          ) : (
            rule.silences.length > 0 && (
              <span className="muted small-line">
                {formatCount(rule.silences.length)} silence {plural(rule.silences.length, "window")}
              </span>
            )
          )}
        </td>
        <td className="wrap">
          {channelLabel(rule.channel)}
          <span className="muted small-line mono" data-testid={`rule-target-${rule.id}`}>
            {rule.target}
          </span>
        </td>
        <td className="nowrap" data-testid={`rule-repeat-${rule.id}`}>
          {repeatWords(rule.repeat_interval_s)}
        </td>
        <td>
          {rule.enabled === false ? (
            <StatusBadge tone="neutral">disabled</StatusBadge>
          ) : (
            <StatusBadge tone="ok">enabled</StatusBadge>
          )}
        </td>
        <td className="wrap">
          <FiringGroups rule={rule} />
        </td>
        {canWrite && (
          <td className="row-actions">
            <button type="button" className="button button-small" onClick={() => onEdit(rule)} data-testid={`rule-edit-${rule.id}`}>
              Edit
            </button>
            <button
              type="button"
              className="button button-small"
              onClick={() => void onTest()}
              disabled={testing}
              data-testid={`rule-test-${rule.id}`}
            >
              {testing ? "Sending…" : "Send test"}
            </button>
            <button
              type="button"
              className="button button-small button-danger-outline"
              onClick={onDelete}
              data-testid={`rule-delete-${rule.id}`}
            >
              Delete
            </button>
          </td>
        )}
      </tr>
      {tested && (
        <tr className="rule-test-row">
          <td colSpan={span}>
            <TestOutcome outcome={tested} testId={`rule-test-result-${rule.id}`} onClose={() => setTested(null)} />
          </td>
        </tr>
      )}
    </Fragment>
  );
}

/** The groups the rule holds for now: how many, the first few as links to their pages. */
function FiringGroups({ rule }: { rule: AlertRule }) {
  const groups = rule.firing_groups;
  if (groups.length === 0) {
    return (
      <span className="muted" data-testid={`rule-firing-${rule.id}`} data-count={0}>
        none
      </span>
    );
  }
  const rest = groups.length - FIRST_GROUPS;
  return (
    <span data-testid={`rule-firing-${rule.id}`} data-count={groups.length}>
      <StatusBadge tone="error">
        {formatCount(groups.length)} {plural(groups.length, "group")}
      </StatusBadge>
      <span className="small-line">
        {groups.slice(0, FIRST_GROUPS).map((group, index) => (
          <Fragment key={group}>
            {index > 0 && ", "}
            <Link to={groupPath(rule.cluster, group)} className="mono">
              {group}
            </Link>
          </Fragment>
        ))}
        {rest > 0 && (
          <span className="muted" title={groups.slice(FIRST_GROUPS).join("\n")}>
            {" "}
            and {formatCount(rest)} more
          </span>
        )}
      </span>
    </span>
  );
}

/** What the test alert got: delivered or failed, with the receiver's answer (or why it was not sent). */
function TestOutcome({ outcome, testId, onClose }: { outcome: AlertEvent | Error; testId: string; onClose: () => void }) {
  if (outcome instanceof Error) {
    return (
      <div className="rule-test-outcome" role="alert" data-testid={testId} data-state="error">
        <StatusBadge tone="error">not sent</StatusBadge> <span>Could not send the test: {outcome.message}</span>{" "}
        <button type="button" className="button button-small" onClick={onClose}>
          Dismiss
        </button>
      </div>
    );
  }
  const attempt = outcome.attempts[outcome.attempts.length - 1];
  const delivered = outcome.state === "delivered";
  return (
    <div className="rule-test-outcome" role="status" data-testid={testId} data-state={outcome.state}>
      <StatusBadge tone={delivered ? "ok" : outcome.state === "failed" ? "error" : "info"}>
        test {outcome.state}
      </StatusBadge>{" "}
      {attempt ? (
        <>
          <span className="muted">
            {delivered ? "The receiver answered" : "The try failed"} in {Math.round(attempt.duration_ms)} ms:
          </span>{" "}
          <span className="mono attempt-answer" data-testid={`${testId}-answer`}>
            {attempt.answer || "(no answer)"}
          </span>
        </>
      ) : (
        <span className="muted">No try was recorded yet.</span>
      )}{" "}
      <button type="button" className="button button-small" onClick={onClose}>
        Dismiss
      </button>
    </div>
  );
}

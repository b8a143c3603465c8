import { Fragment, useState } from "react";
import { Link } from "react-router-dom";
import type { AlertAttempt, AlertDeliveryState, AlertEvent, AlertKind } from "../../api/alerts";
import { formatAlertTime } from "../../lib/alertRules";
import { formatCount, plural } from "../../lib/format";
import { groupPath } from "../../navigation";
import { StatusBadge, type Tone } from "../StatusBadge";
import { EmptyRow, Table, type HeaderColumn } from "../TableParts";

/** Firing and repeat red, resolved green, test grey. */
export const KIND_TONE: Record<AlertKind, Tone> = { firing: "error", repeat: "error", resolved: "ok", test: "neutral" };

export const DELIVERY_TONE: Record<AlertDeliveryState, Tone> = { pending: "info", delivered: "ok", failed: "error" };

const COLUMNS: HeaderColumn[] = ["Time", "Kind", "Rule", "Group", "Reason", "Delivery", { label: "Attempts", hidden: true }];

/**
 * The alerts sent, newest first: when, firing / repeat / resolved / test, the rule, the group
 * (a link to its page), why, and whether it was delivered after how many tries; a row opens to
 * each try with the receiver's answer.
 */
export function AlertEventsTable({ events }: { events: AlertEvent[] }) {
  const [open, setOpen] = useState<Set<number>>(() => new Set());
  const toggle = (id: number) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <Table columns={COLUMNS} className="alert-events-table" data-testid="alert-events-table" data-count={events.length}>
      {events.length === 0 && (
        <EmptyRow span={COLUMNS.length} testId="alert-events-empty">
          No alert has been sent yet.
        </EmptyRow>
      )}
      {events.map((event) => (
        <EventRow key={event.id} event={event} expanded={open.has(event.id)} onToggle={() => toggle(event.id)} />
      ))}
    </Table>
  );
}

function EventRow({ event, expanded, onToggle }: { event: AlertEvent; expanded: boolean; onToggle: () => void }) {
  const tries = event.attempts.length;
  return (
    <Fragment>
      <tr data-testid={`alert-event-${event.id}`} data-kind={event.kind} data-state={event.state}>
        <td className="nowrap">
          <time dateTime={event.at} title={event.at}>
            {formatAlertTime(event.at)}
          </time>
        </td>
        <td>
          <StatusBadge tone={KIND_TONE[event.kind] ?? "neutral"} data-testid={`alert-kind-${event.id}`}>
            {event.kind}
          </StatusBadge>
        </td>
        <td className="wrap">{event.rule_name}</td>
        <td className="wrap">
          {/* A test names no group ("(test)"): nothing to link to. */}
          {event.kind === "test" ? (
            <span className="muted" data-testid={`alert-group-${event.id}`}>
              no group (test)
            </span>
          ) : (
            <Link to={groupPath(event.cluster, event.group_id)} className="mono" data-testid={`alert-group-${event.id}`}>
              {event.group_id}
            </Link>
          )}
          <span className="muted small-line">{event.cluster}</span>
        </td>
        <td className="wrap">{event.reason || <span className="muted">—</span>}</td>
        <td className="nowrap" data-testid={`alert-delivery-${event.id}`}>
          <StatusBadge tone={DELIVERY_TONE[event.state] ?? "neutral"}>{event.state}</StatusBadge>
          <span className="muted small-line">
            {formatCount(tries)} {plural(tries, "attempt")}
          </span>
        </td>
        <td className="row-actions">
          {tries > 0 && (
            <button
              type="button"
              className="button button-small"
              onClick={onToggle}
              aria-expanded={expanded}
              data-testid={`alert-attempts-toggle-${event.id}`}
            >
              {expanded ? "Hide attempts" : "Attempts"}
            </button>
          )}
        </td>
      </tr>
      {expanded && (
        <tr className="alert-attempts-row" data-testid={`alert-attempts-${event.id}`}>
          <td colSpan={COLUMNS.length}>
            <ol className="alert-attempts">
              {event.attempts.map((attempt, index) => (
                <AttemptLine key={index} attempt={attempt} testId={`alert-attempt-${event.id}-${index}`} />
              ))}
            </ol>
          </td>
        </tr>
      )}
    </Fragment>
  );
}

function AttemptLine({ attempt, testId }: { attempt: AlertAttempt; testId: string }) {
  return (
    <li data-testid={testId} data-ok={attempt.ok ? "true" : "false"}>
      <time dateTime={attempt.at} title={attempt.at}>
        {formatAlertTime(attempt.at)}
      </time>{" "}
      <StatusBadge tone={attempt.ok ? "ok" : "error"}>{attempt.ok ? "ok" : "failed"}</StatusBadge>{" "}
      <span className="muted nowrap">{Math.round(attempt.duration_ms)} ms</span>{" "}
      <span className="mono attempt-answer">{attempt.answer || "(no answer)"}</span>
    </li>
  );
}

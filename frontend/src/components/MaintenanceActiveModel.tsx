// The active model of a cluster (GET spark/models/active): what a score job that names no model
// uses. Nothing is active until a model is promoted (by an operator, or by a retraining whose model
// beat the active one): the summary above the models says which one is, how and why, and the
// dialog of a row's "Make active" promotes it; "Roll back" makes the one active before it active
// again (the same promotion, audited as one).
import { useMutation } from "@tanstack/react-query";
import { type ReactNode, useId, useState } from "react";
import { promoteModel, type ActiveModel, type SparkModel } from "../api/maintenance";
import { formatLocal } from "../lib/time";
import { ConfirmDialog } from "./ConfirmDialog";
import { formatScore } from "./MaintenanceSteps";

/** The server's limit on a promotion's reason. */
export const REASON_MAX = 500;

/** An API date-time as the browser's local "YYYY-MM-DD HH:MM" (as given when it does not parse). */
export function localMinute(at: string): string {
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? at : formatLocal(ms).slice(0, 16);
}

/** "gbt, ROC AUC 0.930": what the model is, without the parts it lacks ("" when it lacks both). */
export function modelFacts(model: SparkModel): string {
  const auc = model.metrics?.roc_auc;
  return [model.algorithm, typeof auc === "number" && Number.isFinite(auc) ? `ROC AUC ${formatScore(auc)}` : null]
    .filter(Boolean)
    .join(", ");
}

/** How a model became active: "promoted by alice" (an operator), "promoted automatically, by a
 * retraining" (its model beat the active one), null when the answer does not say. */
function promotedHow(how: ActiveModel["how"], by: string | null): string | null {
  if (how === "manual") return by ? `promoted by ${by}` : "promoted";
  if (how === "auto") return "promoted automatically, by a retraining";
  return null;
}

/** "promoted by alice, 2026-07-01 16:03": how, by whom and when it became active ("" when the
 * answer says none of it). */
function promotedText(state: ActiveModel): string {
  return [promotedHow(state.how, state.promoted_by), state.promoted_at ? localMinute(state.promoted_at) : null].filter(Boolean).join(", ");
}

interface ActiveModelSummaryProps {
  state: ActiveModel;
  /** Operators and admins: the rows below offer "Make active", and this line "Roll back". */
  canPromote: boolean;
  /** Shows the model's curves (its row chosen). */
  onSelect: (id: number) => void;
  /** The models listed below: the one to roll back to is taken from them. */
  models?: SparkModel[];
  /** After a roll-back, with its answer (the cluster's new active model). */
  onPromoted?: (state: ActiveModel) => void;
}

/** The model that was active before the active one (the history is newest first), when it can be
 * made active again: listed, on this cluster, usable and not the active one. */
export function rollBackTarget(state: ActiveModel, models: SparkModel[]): SparkModel | null {
  const current = state.model?.id;
  const previous = state.history.find((entry) => entry.model_id !== current)?.model_id;
  const model = models.find((m) => m.id === previous);
  return model && model.cluster === state.cluster && model.quality === "usable" && !model.active ? model : null;
}

/** One line above the models: the cluster's active model and why, or that it has none yet. */
export function ActiveModelSummary({ state, canPromote, onSelect, models = [], onPromoted }: ActiveModelSummaryProps) {
  const [rollBack, rollBackDialog] = usePromoteDialog(onPromoted);
  const { model } = state;
  if (model === null) {
    // Said as a warning: until a model is promoted, scoring without naming one is refused.
    return (
      <p className="notice notice-warn pm-active" data-testid="pm-active-model" data-model="">
        No active model on {state.cluster} yet: score jobs that name no model are refused.{" "}
        {canPromote ? "Make a usable model active below." : "Operators make a usable model active below."}
      </p>
    );
  }
  const facts = modelFacts(model);
  const promoted = promotedText(state);
  const target = rollBackTarget(state, models);
  return (
    <>
      <p className="notice notice-ok pm-active" data-testid="pm-active-model" data-model={model.id}>
        <strong>
          Active on {state.cluster}:{" "}
          <button type="button" className="pm-link-button" onClick={() => onSelect(model.id)} title="Show its ROC curve">
            model {model.id}
          </button>
        </strong>
        {facts && ` (${facts})`}
        {promoted && ` — ${promoted}`}
        {state.reason && `: “${state.reason}”`}
        <ScoringScheduleText state={state} />
        <PerformanceScheduleText state={state} />
        <RetrainScheduleText state={state} />
        {canPromote && target && (
          <>
            {" "}
            <button
              type="button"
              className="button button-small"
              onClick={() => rollBack(target)}
              title={`Make model ${target.id}, the one active before, active again`}
              data-testid="pm-rollback"
              data-model={target.id}
            >
              Roll back to model {target.id}
            </button>
          </>
        )}
      </p>
      {/* Beside the line, not in it: the dialog is no phrasing content. */}
      {rollBackDialog}
    </>
  );
}

type Schedule = NonNullable<ActiveModel["scoring_schedule"]>;

/** " Scored with it by schedule 3 (30 1 * * * UTC), next 2026-07-03 03:30." — the cluster's daily
 * scoring schedule, created by its first promotion; nothing once an operator deleted it. */
function ScoringScheduleText({ state }: { state: ActiveModel }) {
  return <ScheduleText schedule={state.scoring_schedule} lead="Scored with it by schedule" testId="pm-scoring-schedule" />;
}

/** " Its performance is measured by schedule 4 (30 3 * * * UTC), next …" — the cluster's daily
 * model-performance schedule (created with the scoring one): the active model's past predictions
 * are matched with the failures that followed. */
function PerformanceScheduleText({ state }: { state: ActiveModel }) {
  return (
    <ScheduleText schedule={state.performance_schedule} lead="Its performance is measured by schedule" testId="pm-performance-schedule" />
  );
}

/** " A retraining challenges it by schedule 5 (0 2 * * 1 UTC), next …" — the cluster's weekly
 * retraining schedule (created with the scoring one when the first model came from a pipeline or
 * a retraining): each run trains a challenger, promoted automatically when it beats the active
 * model by the margin. */
function RetrainScheduleText({ state }: { state: ActiveModel }) {
  return <ScheduleText schedule={state.retrain_schedule} lead="A retraining challenges it by schedule" testId="pm-retrain-schedule" />;
}

/** One schedule as " <lead> N (timing), next … ." (or ", disabled."); nothing without one. */
function ScheduleText({ schedule, lead, testId }: { schedule: Schedule | null | undefined; lead: string; testId: string }) {
  if (!schedule) return null;
  const when = schedule.cron ? `${schedule.cron} ${schedule.timezone}` : `every ${schedule.every_minutes} min`;
  return (
    <span className="pm-active-schedule" data-testid={testId} data-schedule={schedule.id}>
      {" "}
      {lead} {schedule.id} ({when})
      {schedule.enabled && schedule.next_run_at ? `, next ${localMinute(schedule.next_run_at)}.` : ", disabled."}
    </span>
  );
}

/** The promotion dialog of one model at a time: `open(model)` shows it, and `dialog` is what to
 * render (null while closed); a promotion closes it and hands its answer to `onPromoted`. */
export function usePromoteDialog(onPromoted?: (state: ActiveModel) => void): [open: (model: SparkModel) => void, dialog: ReactNode] {
  const [model, setModel] = useState<SparkModel | null>(null);
  const dialog = model && (
    <PromoteModelDialog
      model={model}
      onPromoted={(state) => {
        setModel(null);
        onPromoted?.(state);
      }}
      onClose={() => setModel(null)}
    />
  );
  return [setModel, dialog];
}

interface PromoteModelDialogProps {
  model: SparkModel;
  /** The promotion's answer: the cluster's new active model. */
  onPromoted: (state: ActiveModel) => void;
  onClose: () => void;
}

/** "Make model N active": an optional reason, then POST spark/models/{id}/promote. Refused
 * (e.g. 409 model_not_usable, already_active): the server's message, the dialog stays open. */
export function PromoteModelDialog({ model, onPromoted, onClose }: PromoteModelDialogProps) {
  const [reason, setReason] = useState("");
  const reasonId = useId();
  const mutation = useMutation({ mutationFn: () => promoteModel(model.id, reason.trim()), onSuccess: onPromoted });
  const facts = modelFacts(model);
  return (
    <ConfirmDialog
      title={`Make model ${model.id} active on ${model.cluster}?`}
      confirmLabel={`Make model ${model.id} active`}
      tone="primary"
      busy={mutation.isPending}
      error={mutation.error}
      confirmTestId="pm-promote-confirm"
      errorTestId="pm-promote-error"
      onConfirm={() => mutation.mutate()}
      onCancel={onClose}
    >
      <p>
        Score jobs on <strong>{model.cluster}</strong> that name no model will use model {model.id}
        {facts && ` (${facts})`}. The model active now stays in the history: making it active again rolls back.
      </p>
      <label htmlFor={reasonId} className="field-label">
        Reason <span className="muted">(optional, shown with the active model)</span>
      </label>
      <input
        id={reasonId}
        className="input input-wide"
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        maxLength={REASON_MAX}
        // The reason is what this dialog asks for: typed at once (the dialog leaves it the focus).
        autoFocus
        autoComplete="off"
        disabled={mutation.isPending}
        data-testid="pm-promote-reason"
      />
    </ConfirmDialog>
  );
}

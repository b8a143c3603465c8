// A retraining's model (a `maintenance-retrain` job's) and how it fared against the cluster's
// active model on the same recent labelled days: promoted by the server when its ROC AUC beat the
// active one's by the margin, else kept as a candidate, with the server's reason either way.
import type { SparkModel } from "../api/maintenance";
import type { components } from "../api/schema.gen";
import { formatScore } from "./MaintenanceSteps";

/** GET spark/models' `challenge`: null (or absent, from an older server) for a model that no
 * retraining made. */
export type Challenge = components["schemas"]["Challenge"];

/** The model's challenge, or null: none, or not one this page can read. */
export function modelChallenge(model: SparkModel): Challenge | null {
  const challenge = model.challenge;
  if (!challenge || typeof challenge !== "object") return null;
  if (typeof challenge.promoted !== "boolean" || typeof challenge.reason !== "string") return null;
  return challenge;
}

function score(value: number | null | undefined): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** "AUC 0.955 vs model 57's 0.812", or "AUC 0.955" when there was no active model to beat or it
 * was not measured on those days. */
export function challengeAuc(challenge: Challenge): string {
  const mine = `AUC ${formatScore(score(challenge.challenger_roc_auc))}`;
  const theirs = score(challenge.champion_roc_auc);
  return challenge.champion_id !== null && theirs !== null ? `${mine} vs model ${challenge.champion_id}'s ${formatScore(theirs)}` : mine;
}

/** In the model's row (under its id): "promoted" or "candidate", the reason its tooltip, and the
 * two ROC AUCs it was judged on. Nothing for a model that no retraining made. */
export function ChallengeBadge({ model }: { model: SparkModel }) {
  const challenge = modelChallenge(model);
  if (challenge === null) return null;
  const tone = challenge.promoted ? "ok" : "neutral";
  return (
    <span className="pm-model-tag">
      {/* StatusBadge's markup, with the data-promoted it does not pass on. */}
      <span
        className={`badge badge-${tone}`}
        data-tone={tone}
        title={challenge.reason}
        data-testid={`model-challenge-${model.id}`}
        data-promoted={challenge.promoted ? "true" : "false"}
      >
        {challenge.promoted ? "promoted" : "candidate"}
      </span>
      <span className="small-line muted" data-testid={`model-challenge-auc-${model.id}`}>
        {challengeAuc(challenge)}
      </span>
    </span>
  );
}

/** Above the chosen model's charts: that a retraining made it, and the server's reason for
 * promoting it or keeping it as a candidate. Nothing for a model that no retraining made. */
export function ChallengeNotice({ model }: { model: SparkModel }) {
  const challenge = modelChallenge(model);
  if (challenge === null) return null;
  // Sized as the quality warning it may follow (one notice each above the curves).
  return (
    <p
      className={`notice${challenge.promoted ? " notice-ok" : ""} pm-model-warning`}
      role="note"
      data-testid="pm-model-challenge"
      data-model={model.id}
    >
      <strong>Model #{model.id}: a retraining's challenger.</strong>{" "}
      <span data-testid={`model-challenge-reason-${model.id}`}>{challenge.reason}</span>
    </p>
  );
}

// What an admin's change of a broker config does, in the words the confirmation shows. Levels as
// kafka-configs.sh --entity-type brokers has them: `--entity-name N` (this broker) or
// `--entity-default` (every broker, cluster-wide); a broker's own dynamic value wins over the
// cluster-wide one, which wins over server.properties and Kafka's default.
import { ApiError, ApprovalRequested } from "../api/client";
import type { ConfigEntry } from "../api/types";

/** Where a dynamic value is set: on one broker, or cluster-wide. */
export type ConfigLevel = "broker" | "cluster";

/** Kafka's source of a value set on one broker at run time (what Revert deletes). */
export const BROKER_DYNAMIC_SOURCE = "DYNAMIC_BROKER_CONFIG";
/** Kafka's source of a value set cluster-wide at run time. */
export const CLUSTER_DYNAMIC_SOURCE = "DYNAMIC_DEFAULT_BROKER_CONFIG";

/** Why a read-only config has no Edit button. */
export const READ_ONLY_HINT = "set in server.properties; needs a restart";

/** Shown instead of a sensitive value that is about to be set. */
export const HIDDEN_VALUE = "(hidden)";

/** "on broker 1" / "on all brokers (cluster-wide default)". */
export function levelWords(level: ConfigLevel, brokerId: number): string {
  return level === "broker" ? `on broker ${brokerId}` : "on all brokers (cluster-wide default)";
}

/** "Set log.cleaner.backoff.ms = 20000 on broker 1" (a sensitive value never shown). */
export function setSentence(name: string, value: string, sensitive: boolean, level: ConfigLevel, brokerId: number): string {
  return `Set ${name} = ${sensitive ? HIDDEN_VALUE : value} ${levelWords(level, brokerId)}`;
}

/** "Revert log.cleaner.backoff.ms on broker 1": delete the value set at that level. */
export function revertSentence(name: string, level: ConfigLevel, brokerId: number): string {
  return `Revert ${name} ${levelWords(level, brokerId)}`;
}

/** What applies once the value set at `level` is deleted. */
export function afterRevertWords(level: ConfigLevel): string {
  return level === "broker"
    ? "The cluster-wide value applies again, or else server.properties or Kafka's default."
    : "Each broker's own value applies again, or else its server.properties or Kafka's default.";
}

/**
 * A warning when the change will not show on this broker: a cluster-wide value under the value
 * the broker has of its own (which keeps winning). Null otherwise.
 */
export function shadowedNote(entry: Pick<ConfigEntry, "source">, level: ConfigLevel, brokerId: number): string | null {
  if (level !== "cluster" || entry.source !== BROKER_DYNAMIC_SOURCE) return null;
  return `Broker ${brokerId} has a value of its own, which still wins there: revert it to use the cluster-wide one.`;
}

/** The level an edit starts at: where the value shown was set (cluster-wide or else this broker). */
export function initialLevel(entry: Pick<ConfigEntry, "source">): ConfigLevel {
  return entry.source === CLUSTER_DYNAMIC_SOURCE ? "cluster" : "broker";
}

/** What the input starts with: the current value, except a sensitive one (never prefilled). */
export function initialValue(entry: Pick<ConfigEntry, "value" | "sensitive">): string {
  return entry.sensitive ? "" : (entry.value ?? "");
}

/** Whether the value was set on this broker at run time (it can be reverted). */
export function isSetOnBroker(entry: Pick<ConfigEntry, "source">): boolean {
  return entry.source === BROKER_DYNAMIC_SOURCE;
}

/**
 * What a write that a protected cluster held for another admin's approval says (nothing changed
 * yet); null for any other answer.
 */
export function heldForApprovalMessage(error: unknown): string | null {
  if (!(error instanceof ApprovalRequested)) return null;
  return `Sent for approval as request #${error.approval.id}: nothing has changed yet; it runs once another admin approves it.`;
}

/**
 * A refused change's message in plain words, for the field it names (`set` or `delete`): without
 * the "set: " prefix, its first letter capital unless it starts with a config's name (they are
 * lower case: "log.dirs cannot be changed…"). Null for any other failure (a 403, Kafka down…).
 */
export function refusalMessages(error: unknown): string[] | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const field = typeof error.details.field === "string" ? error.details.field : "";
  let text = error.message.trim();
  if (field && text.startsWith(`${field}: `)) text = text.slice(field.length + 2);
  const firstWord = text.split(/[\s,]/, 1)[0] ?? "";
  if (!firstWord.includes(".")) text = text.charAt(0).toUpperCase() + text.slice(1);
  return [text];
}

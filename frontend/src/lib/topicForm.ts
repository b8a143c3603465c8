// The create-topic form's checks and where a refusal's problems go: every problem found at once,
// each beside its field ("name", "partitions", "replication_factor", "configs" or one config row),
// in plain words. The browser checks what cannot be right on any cluster (Kafka's topic name
// rules, whole numbers, config rows); the server checks again, and the rest (live brokers, config
// values), and its 400 is placed the same way.
import { ApiError } from "../api/client";
import { fieldProblems, parsePath } from "./fieldErrors";

export const TOPIC_FIELDS = ["name", "partitions", "replication_factor", "configs"] as const;
export type TopicField = (typeof TOPIC_FIELDS)[number];

/** Messages by field (TopicField) or config row (`config-<index>`). */
export type TopicFormErrors = Record<string, string[]>;

export interface TopicFormValues {
  name: string;
  partitions: string;
  replicationFactor: string;
  configs: { key: string; value: string }[];
}

/** Kafka's longest topic name (org.apache.kafka.common.internals.Topic). */
export const MAX_TOPIC_NAME = 249;
const LEGAL_NAME = /^[A-Za-z0-9._-]+$/;

function add(errors: TopicFormErrors, key: string, message: string) {
  (errors[key] ??= []).push(message);
}

function wholeAtLeastOne(text: string): boolean {
  return /^\s*\d+\s*$/.test(text) && Number(text) >= 1;
}

/** Every problem of the form Kafka would refuse on any cluster; {} when there is none. */
export function checkNewTopic(values: TopicFormValues): TopicFormErrors {
  const errors: TopicFormErrors = {};
  const name = values.name;
  if (name === "") add(errors, "name", "Give the topic a name.");
  else if (name === "." || name === "..") add(errors, "name", "A topic name cannot be “.” or “..”.");
  else {
    if (name.length > MAX_TOPIC_NAME) {
      add(errors, "name", `A topic name has at most ${MAX_TOPIC_NAME} characters (this one has ${name.length}).`);
    }
    if (!LEGAL_NAME.test(name)) {
      add(errors, "name", `“${name}” has characters Kafka does not allow: use only ASCII letters, digits, “.”, “_” and “-”.`);
    }
  }
  if (!wholeAtLeastOne(values.partitions)) add(errors, "partitions", "Give a whole number of partitions, at least 1.");
  if (!wholeAtLeastOne(values.replicationFactor)) {
    add(errors, "replication_factor", "Give the replication factor as a whole number, at least 1.");
  }
  const seen = new Map<string, number>();
  values.configs.forEach((row, index) => {
    const key = row.key.trim();
    if (key === "") {
      if (row.value.trim() !== "") add(errors, `config-${index}`, "Give the config's name (e.g. retention.ms).");
      return;
    }
    if (/\s/.test(key)) add(errors, `config-${index}`, `“${key}”: a config name has no spaces.`);
    if (seen.has(key)) add(errors, `config-${index}`, `“${key}” is already set above: keep one.`);
    else seen.set(key, index);
  });
  return errors;
}

export interface PlacedTopicErrors {
  fields: TopicFormErrors;
  /** What names no field of the form, and every answer but a 400 or 409. */
  banner: Error | null;
}

/**
 * A refusal's problems at their fields: all of them when the 400 lists several, each without its
 * path in front; a config's ("configs.retention.ms") at its row when the form has it, else under
 * the configs; a 409 (the topic exists) at the name; the rest in the banner.
 */
export function placeTopicErrors(error: unknown, configKeys: readonly string[]): PlacedTopicErrors {
  if (!error) return { fields: {}, banner: null };
  if (error instanceof ApiError && error.status === 409) return { fields: { name: [error.message] }, banner: null };
  const problems = fieldProblems(error);
  if (problems.length === 0) return { fields: {}, banner: error instanceof Error ? error : new Error(String(error)) };
  const fields: TopicFormErrors = {};
  const unplaced: string[] = [];
  for (const { path, message } of problems) {
    const [head] = parsePath(path);
    if (head === "configs" && path.length > "configs.".length) {
      const key = path.slice("configs.".length);
      const row = configKeys.findIndex((k) => k.trim() === key);
      add(fields, row >= 0 ? `config-${row}` : "configs", row >= 0 ? message : `“${key}”: ${message}`);
    } else if (typeof head === "string" && (TOPIC_FIELDS as readonly string[]).includes(head)) {
      add(fields, head, message);
    } else {
      unplaced.push(message);
    }
  }
  const api = error as ApiError;
  return { fields, banner: unplaced.length ? new ApiError(api.status, api.code, unplaced.join(" "), api.details) : null };
}

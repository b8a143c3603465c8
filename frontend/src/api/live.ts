// The WebSocket side of the API (docs/api.md, "WebSockets"; docs/live-lag.md): the socket paths
// and the messages they push. Hand-written (the OpenAPI schema describes only the REST API), and
// checked against the server: src/test/socketSamples.gen.ts holds messages the server's own code
// built (`bin/api-types gen`), which tsc checks against these types and socketSamples.test.ts
// against parseLiveMessage and for fields never sent.
import type { ApiErrorBody, Approval, LagStatus, Reassignment, RetentionRisk, SparkJob } from "./types";

const seg = encodeURIComponent;

/** Live lag of the groups a page shows: send a subscription, receive `status`, `lag`, `group_state`. */
export function lagSocketPath(cluster: string): string {
  return `/ws/clusters/${seg(cluster)}/lag`;
}

/** Brokers, controller, topics, leaders and ISR: a `metadata` message whenever one changes. */
export function metadataSocketPath(cluster: string): string {
  return `/ws/clusters/${seg(cluster)}/metadata`;
}

/** One Spark job: the job as it is now on connect, then again after every change. */
export function sparkJobSocketPath(jobId: number): string {
  return `/ws/spark/jobs/${jobId}`;
}

/** One reassignment (admins): its progress on connect, then every 2 s while it runs and when it ends. */
export function reassignmentSocketPath(cluster: string, id: number): string {
  return `/ws/clusters/${seg(cluster)}/reassignments/${id}`;
}

/** A cluster's approval requests (viewers and up): an `approval` message whenever one is asked
 * for, taken up, executed, failed or rejected (an expiry is seen on the next REST read). */
export function approvalSocketPath(cluster: string): string {
  return `/ws/clusters/${seg(cluster)}/approvals`;
}

/** The absolute URL of a socket path on this page's host (wss on an https page). */
export function socketUrl(path: string, location: Pick<Location, "protocol" | "host"> = window.location): string {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
}

/** What the lag socket is asked for: some groups, or every group of the cluster. */
export type LagSubscription = { subscribe: { groups: string[] } } | { subscribe: { all: true } };

/** One topic of a `lag` message (the group's partitions of that topic together). */
export interface LiveTopicLag {
  lag: number | null;
  max_lag_seconds: number | null;
  write_per_s: number | null;
  consume_per_s: number | null;
  /** Null: never at the current rates (or unknown). */
  catch_up_seconds: number | null;
  retention_risk: RetentionRisk;
  /** Why the topic's risk is near or lost, in words (the worst partition's, "orders-3: …"); null at none. */
  retention_reason: string | null;
  /** The worst status of the topic's partitions. */
  status: LagStatus;
}

/** One partition of a `lag` message (no `retention_reason`: the REST detail has it per partition). */
export interface LivePartitionLag {
  topic: string;
  partition: number;
  committed_offset: number | null;
  log_end_offset: number | null;
  lag: number | null;
  lag_seconds: number | null;
  status: LagStatus;
  retention_risk: RetentionRisk;
}

/** One sample of one group, per sampler pass (and the latest stored one right after subscribing). */
export interface LagMessage {
  type: "lag";
  group_id: string;
  /** The sample's time, ISO-8601 (null if unknown). */
  ts: string | null;
  total_lag: number | null;
  max_lag: number | null;
  max_lag_seconds: number | null;
  status: LagStatus;
  state: string | null;
  member_count: number | null;
  catch_up_seconds: number | null;
  retention_risk: RetentionRisk;
  /** Why the group's risk is near or lost, in words; null at none. */
  retention_reason: string | null;
  topics: Record<string, LiveTopicLag>;
  partitions: LivePartitionLag[];
}

/** A group appeared (previous_state null), changed state or member count, or is gone ("Dead"). */
export interface GroupStateMessage {
  type: "group_state";
  group_id: string;
  ts: string | null;
  state: string | null;
  member_count: number | null;
  previous_state: string | null;
  /** The member ids, when the server can tell all of them. */
  members?: string[];
}

/** Whether the server can push (false: Redis or the channel layer is down; the page polls). */
export interface StatusMessage {
  type: "status";
  live: boolean;
  reason?: string;
  /** The sampler's interval (lag socket). */
  sample_seconds?: number;
}

/** A subscription the server could not act on (the socket stays open), or a handshake refused for
 * its origin (then closed). `error` is the REST API's error shape. */
export interface ErrorMessage {
  type: "error";
  error: ApiErrorBody["error"];
}

export interface MetadataBroker {
  id: number;
  host: string;
  port: number;
  rack: string | null;
  is_controller: boolean;
}

/** A partition whose leader or ISR changed (or that was added to a topic). */
export interface LeadershipChange {
  topic: string;
  partition: number;
  leader: number | null;
  isr: number[];
}

/** Pushed when a broker left, returned or moved, the controller, a leader or an ISR changed, or a
 * topic was created or deleted. `brokers` is the whole current list. */
export interface MetadataMessage {
  type: "metadata";
  ts: string | null;
  brokers: MetadataBroker[];
  changes: LeadershipChange[];
  topics_added: string[];
  topics_removed: string[];
}

/** A Spark job as it is now (exactly the fields of GET spark/jobs/{id}), pushed on every change. */
export type JobMessage = SparkJob & { type: "job" };
/** The body of GET .../reassignments/{id}, pushed. */
export type ReassignmentMessage = Reassignment & { type: "reassignment" };

/** An approval request as it is now (exactly the fields of GET approvals/{id}), pushed on every change. */
export type ApprovalMessage = Approval & { type: "approval" };

export type LagSocketMessage = LagMessage | GroupStateMessage;
export type LiveMessage =
  | LagMessage
  | GroupStateMessage
  | MetadataMessage
  | JobMessage
  | ReassignmentMessage
  | ApprovalMessage
  | StatusMessage
  | ErrorMessage;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A socket frame as a message, or null when it is not one the SPA knows (not JSON, no known
 * `type`, or missing what the pages rely on). Fields the pages read defensively are not checked.
 */
export function parseLiveMessage(text: unknown): LiveMessage | null {
  if (typeof text !== "string") return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  switch (value.type) {
    case "lag":
      if (typeof value.group_id !== "string") return null;
      return {
        ...(value as unknown as LagMessage),
        topics: isRecord(value.topics) ? (value.topics as LagMessage["topics"]) : {},
        partitions: Array.isArray(value.partitions)
          ? (value.partitions as unknown[]).filter(
              (p): p is LivePartitionLag => isRecord(p) && typeof p.topic === "string" && typeof p.partition === "number",
            )
          : [],
      };
    case "group_state":
      return typeof value.group_id === "string" ? (value as unknown as GroupStateMessage) : null;
    case "metadata":
      return {
        ...(value as unknown as MetadataMessage),
        brokers: Array.isArray(value.brokers) ? (value.brokers as MetadataBroker[]) : [],
        changes: Array.isArray(value.changes) ? (value.changes as LeadershipChange[]) : [],
      };
    case "job":
      return typeof value.id === "number" && typeof value.state === "string" ? (value as unknown as JobMessage) : null;
    case "reassignment":
      return typeof value.id === "number" && typeof value.state === "string" && Array.isArray(value.partitions)
        ? (value as unknown as ReassignmentMessage)
        : null;
    case "approval":
      return typeof value.id === "number" && typeof value.state === "string" && typeof value.cluster === "string"
        ? (value as unknown as ApprovalMessage)
        : null;
    case "status":
      return typeof value.live === "boolean" ? (value as unknown as StatusMessage) : null;
    case "error":
      return isRecord(value.error) ? (value as unknown as ErrorMessage) : null;
    default:
      return null;
  }
}

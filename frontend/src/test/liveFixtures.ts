// Socket messages for tests, shaped as the server sends them (groups.lag.live.lag_message).
import type { GroupStateMessage, LagMessage, LivePartitionLag, LiveTopicLag, MetadataMessage } from "../api/live";

export const T0 = "2026-07-01T10:00:00.000+00:00";

/** An ISO time `seconds` after T0. */
export function at(seconds: number): string {
  return new Date(Date.parse(T0) + seconds * 1000).toISOString();
}

export function topicLag(overrides: Partial<LiveTopicLag> = {}): LiveTopicLag {
  return {
    lag: 0,
    max_lag_seconds: 0,
    write_per_s: 10,
    consume_per_s: 10,
    catch_up_seconds: 0,
    retention_risk: "none",
    retention_reason: null,
    status: "OK",
    ...overrides,
  };
}

export function partitionLag(topic: string, partition: number, overrides: Partial<LivePartitionLag> = {}): LivePartitionLag {
  return {
    topic,
    partition,
    committed_offset: 100,
    log_end_offset: 100,
    lag: 0,
    lag_seconds: 0,
    status: "OK",
    retention_risk: "none",
    ...overrides,
  };
}

export function lagMessage(group: string, overrides: Partial<LagMessage> = {}): LagMessage {
  return {
    type: "lag",
    group_id: group,
    ts: T0,
    total_lag: 0,
    max_lag: 0,
    max_lag_seconds: 0,
    status: "OK",
    state: "Stable",
    member_count: 1,
    catch_up_seconds: 0,
    retention_risk: "none",
    retention_reason: null,
    topics: {},
    partitions: [],
    ...overrides,
  };
}

export function groupStateMessage(group: string, overrides: Partial<GroupStateMessage> = {}): GroupStateMessage {
  return {
    type: "group_state",
    group_id: group,
    ts: T0,
    state: "Stable",
    member_count: 1,
    previous_state: "Empty",
    ...overrides,
  };
}

export function metadataMessage(overrides: Partial<MetadataMessage> = {}): MetadataMessage {
  return {
    type: "metadata",
    ts: T0,
    brokers: [{ id: 1, host: "127.0.0.1", port: 19092, rack: null, is_controller: true }],
    changes: [{ topic: "orders", partition: 0, leader: 2, isr: [2, 3] }],
    topics_added: [],
    topics_removed: [],
    ...overrides,
  };
}

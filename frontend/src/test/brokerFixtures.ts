// Answers of GET /api/v1/clusters/local/brokers/{broker} (and of the broker config endpoints) for the broker page's tests.
import type { BrokerDetail, ConfigEntry, ReplicaSize } from "../api/types";

export const BROKER_2_URL = "/api/v1/clusters/local/brokers/2";

/** The controller (as BROKERS' broker 2): three log dirs, 75 % and 95 % full and one offline. */
export const BROKER_2: BrokerDetail = {
  id: 2,
  host: "127.0.0.1",
  port: 19093,
  rack: "rack-b",
  is_controller: true,
  leader_count: 3,
  replica_count: 12,
  offline_replica_count: 1,
  log_dirs: [
    {
      path: "/var/kafka/data-0",
      total_bytes: 200_000_000_000,
      usable_bytes: 50_000_000_000,
      error: null,
      replicas: [
        { topic: "orders", partition: 0, size_bytes: 3_000_000_000, offset_lag: 0, is_future: false },
        { topic: "orders", partition: 1, size_bytes: 1_200, offset_lag: 0, is_future: false },
        { topic: "payments", partition: 0, size_bytes: 52_428_800, offset_lag: 0, is_future: false },
        { topic: "invoices", partition: 2, size_bytes: 0, offset_lag: 5, is_future: false },
      ],
    },
    {
      path: "/var/kafka/data-1",
      total_bytes: 100_000_000_000,
      usable_bytes: 5_000_000_000,
      error: null,
      replicas: [
        { topic: "orders", partition: 2, size_bytes: 7_000_000_000, offset_lag: 0, is_future: false },
        { topic: "payments", partition: 1, size_bytes: 1_048_576, offset_lag: 0, is_future: true },
      ],
    },
    { path: "/mnt/broken", total_bytes: null, usable_bytes: null, error: "KAFKA_STORAGE_ERROR", replicas: [] },
  ],
  log_dirs_error: null,
  configs: [
    { name: "num.io.threads", value: "8", source: "DEFAULT_CONFIG", is_default: true, read_only: true, sensitive: false },
    { name: "log.retention.hours", value: "168", source: "STATIC_BROKER_CONFIG", is_default: false, read_only: true, sensitive: false },
    { name: "ssl.keystore.password", value: null, source: "DYNAMIC_BROKER_CONFIG", is_default: false, read_only: false, sensitive: true },
    // Never sent with a value; if it were, the page still must not show it.
    { name: "sasl.jaas.config", value: "secret-value", source: "STATIC_BROKER_CONFIG", is_default: false, read_only: true, sensitive: true },
    { name: "log.cleaner.threads", value: "2", source: "DYNAMIC_DEFAULT_BROKER_CONFIG", is_default: false, read_only: false, sensitive: false },
    { name: "auto.create.topics.enable", value: "true", source: "DEFAULT_CONFIG", is_default: true, read_only: true, sensitive: false },
    { name: "some.plugin.setting", value: "x", source: "UNKNOWN", is_default: false, read_only: true, sensitive: false },
  ],
  api_versions: [
    { key: 18, api: "ApiVersions", min: 0, max: 3 },
    { key: 0, api: "Produce", min: 0, max: 11 },
    { key: 3, api: "Metadata", min: 0, max: 12 },
    { key: 1, api: "Fetch", min: 0, max: 16 },
  ],
};

/** Broker 2 with `count` replicas of topic `big` in one dir, partition i of size i (the biggest last). */
export function brokerWithReplicas(count: number): BrokerDetail {
  const replicas: ReplicaSize[] = Array.from({ length: count }, (_, i) => ({
    topic: "big",
    partition: i,
    size_bytes: i,
    offset_lag: 0,
    is_future: false,
  }));
  return { ...BROKER_2, log_dirs: [{ ...BROKER_2.log_dirs[0]!, replicas }] };
}

export const BROKER_2_CONFIGS_URL = "/api/v1/clusters/local/brokers/2/configs";
export const BROKER_DEFAULTS_URL = "/api/v1/clusters/local/broker-defaults";

/** Broker 2 with a config an admin may edit that is at Kafka's default (log.cleaner.backoff.ms, 15 s). */
export const BROKER_2_EDITABLE: BrokerDetail = {
  ...BROKER_2,
  configs: [
    ...BROKER_2.configs,
    { name: "log.cleaner.backoff.ms", value: "15000", source: "DEFAULT_CONFIG", is_default: true, read_only: false, sensitive: false },
  ],
};

/** GET broker-defaults: log.cleaner.threads (as broker 2 reports it) and a sensitive one, set cluster-wide. */
export const BROKER_DEFAULTS: ConfigEntry[] = [
  { name: "log.cleaner.threads", value: "2", source: "DYNAMIC_DEFAULT_BROKER_CONFIG", is_default: false, read_only: false, sensitive: false },
  { name: "listener.name.internal.ssl.key.password", value: null, source: "DYNAMIC_DEFAULT_BROKER_CONFIG", is_default: false, read_only: false, sensitive: true },
];

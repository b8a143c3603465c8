import type { Broker, ClusterDetail, ClusterSummary, CurrentUser } from "../api/types";

export const ME: CurrentUser = { username: "alice", role: "operator" };

export const CLUSTERS: ClusterSummary[] = [
  {
    name: "local",
    bootstrap_servers: "127.0.0.1:19092,127.0.0.1:19093,127.0.0.1:19094",
    cluster_id: "MkU3OEVBNTcwNTJENDM2Qg",
    controller_id: 2,
    broker_count: 3,
    reachable: true,
  },
  {
    name: "staging",
    bootstrap_servers: "127.0.0.1:29092",
    cluster_id: null,
    controller_id: null,
    broker_count: null,
    reachable: false,
  },
];

export const BROKERS: Broker[] = [
  { id: 3, host: "127.0.0.1", port: 19094, rack: null, is_controller: false, leader_count: 4, replica_count: 12, offline_replica_count: 0 },
  { id: 1, host: "127.0.0.1", port: 19092, rack: "rack-a", is_controller: false, leader_count: 5, replica_count: 12, offline_replica_count: 0 },
  { id: 2, host: "127.0.0.1", port: 19093, rack: "rack-b", is_controller: true, leader_count: 3, replica_count: 12, offline_replica_count: 1 },
];

export const LOCAL: ClusterDetail = { ...CLUSTERS[0]!, brokers: BROKERS };

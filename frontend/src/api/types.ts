// Hand-written types for the REST contract in shared/API.md (v1).
// To be replaced by types generated from the OpenAPI schema at /api/v1/schema/.

export type Role = "viewer" | "operator" | "admin";

/** GET /api/v1/me */
export interface CurrentUser {
  username: string;
  role: Role;
}

/** One entry of GET /api/v1/clusters. Kafka-derived fields are null when unreachable. */
export interface ClusterSummary {
  name: string;
  bootstrap_servers: string;
  cluster_id: string | null;
  controller_id: number | null;
  broker_count: number | null;
  reachable: boolean;
}

/** GET /api/v1/clusters/{cluster}/brokers */
export interface Broker {
  id: number;
  host: string;
  port: number;
  rack: string | null;
  is_controller: boolean;
  leader_count: number;
  replica_count: number;
  offline_replica_count: number;
}

/** GET /api/v1/clusters/{cluster} */
export interface ClusterDetail extends ClusterSummary {
  brokers: Broker[];
}

/** The body of every API error: {"error": {"code", "message", "details"}}. */
export interface ApiErrorBody {
  error: {
    code: string;
    message: string;
    details?: Record<string, unknown>;
  };
}

// What the reassignment pages' tests answer: a plan (orders spread over brokers 2 and 3), the
// list, and the generated socket samples as the REST answers (the same object without `type`).
import type { Plan, Reassignment, ReassignmentList } from "../api/types";
import { reassignmentCompleted, reassignmentMoving } from "./socketSamples.gen";

export const MIB = 1024 * 1024;

export const REASSIGNMENTS_URL = "/api/v1/clusters/local/reassignments";
export const PLAN_URL = `${REASSIGNMENTS_URL}/plan`;
export const REASSIGNMENT_7_URL = `${REASSIGNMENTS_URL}/7`;
export const ELECT_URL = "/api/v1/clusters/local/elect-leaders";

/** GET …/reassignments/7 while it runs (orders-0 copying to broker 3, orders-1 done). */
export const MOVING: Reassignment = (({ type: _type, ...r }) => r)(reassignmentMoving);
/** GET …/reassignments/7 once completed; orders-0 led by 3, not its preferred 2. */
export const COMPLETED: Reassignment = (({ type: _type, ...r }) => r)(reassignmentCompleted);

/** The preview of orders' 2 partitions spread over brokers 2 and 3 at 1 MiB/s: orders-0 gains a
 * replica on 3 (30 MiB), orders-1 only changes its leader order. */
export function planAnswer(throttle: number | null = MIB): Plan {
  return {
    proposed: {
      version: 1,
      partitions: [
        { topic: "orders", partition: 0, replicas: [2, 3], log_dirs: ["any", "any"] },
        { topic: "orders", partition: 1, replicas: [3, 2], log_dirs: ["any", "any"] },
      ],
    },
    current: {
      version: 1,
      partitions: [
        { topic: "orders", partition: 0, replicas: [1, 2], log_dirs: ["/data/1", "/data/2"] },
        { topic: "orders", partition: 1, replicas: [2, 3], log_dirs: ["/data/2", "/data/3"] },
      ],
    },
    moves: [
      { topic: "orders", partition: 0, from: [1, 2], to: [2, 3], adding: [3], removing: [1], bytes: 30 * MIB },
      { topic: "orders", partition: 1, from: [2, 3], to: [3, 2], adding: [], removing: [], bytes: 0 },
    ],
    total_bytes: 30 * MIB,
    estimated_seconds: throttle === null ? null : Math.ceil((30 * MIB) / throttle),
    throttle_bytes_per_s: throttle,
  };
}

/** GET …/reassignments: one completed earlier, nothing moving. */
export const LIST: ReassignmentList = {
  reassignments: [
    {
      id: 5,
      cluster: "local",
      state: "completed",
      throttle_bytes_per_s: 10 * MIB,
      partition_count: 12,
      topics: ["orders", "payments"],
      reason: "rack-b maintenance",
      error: null,
      created_by: "root",
      created_at: "2026-06-30T09:00:00+00:00",
      finished_at: "2026-06-30T09:20:00+00:00",
    },
  ],
  in_kafka: [],
};

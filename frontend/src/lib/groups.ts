// Consumer groups and offset resets, split by responsibility:
//   groupStates      group states (badge tones, help), a group's topics, the 409 group_active check
//   resetStrategies  the reset strategies the wizard offers (labels, help, duration presets)
//   resetForm        the wizard's form: its input parsing (partitions, strategy inputs) -> request
//                    body, and where a 400's details.field belongs
//   resetPlans       plans and history: totals, what a 409 plan_stale says changed, summaries, states
// The code imports those modules; this one re-exports them all, so every name stays importable
// from "lib/groups".
export * from "./groupStates";
export * from "./resetForm";
export * from "./resetPlans";
export * from "./resetStrategies";

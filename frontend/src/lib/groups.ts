// Consumer groups and offset resets, by responsibility; this module re-exports them all.
export * from "./groupStates";
export * from "./resetForm";
export * from "./resetPlans";
export * from "./resetStrategies";

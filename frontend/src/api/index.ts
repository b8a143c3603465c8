export * from "./client";
export * from "./endpoints";
export type * from "./types";

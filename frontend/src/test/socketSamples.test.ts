// The WebSocket messages the server's own code built (socketSamples.gen.ts, `bin/api-types gen`)
// against the SPA: tsc already refuses a field a type lacks and a required field a message lacks
// (`satisfies` in the generated file); here, every field a type declares is sent by some sample
// (an optional field the server never sends fails to compile), and parseLiveMessage keeps every
// sample as it is.
import { describe, expect, it } from "vitest";
import {
  parseLiveMessage,
  type ErrorMessage,
  type GroupStateMessage,
  type JobMessage,
  type LagMessage,
  type LiveMessage,
  type MetadataMessage,
  type ReassignmentMessage,
  type StatusMessage,
} from "../api/live";
import * as samples from "./socketSamples.gen";

type Sample = (typeof samples)[keyof typeof samples];
type KeysOf<T> = T extends unknown ? keyof T : never;
/** The fields of message type M that no sample of its `type` has. */
type Unsent<M extends { type: string }> = Exclude<keyof M, KeysOf<Extract<Sample, { type: M["type"] }>>>;
type UnsentFields =
  | Unsent<LagMessage>
  | Unsent<GroupStateMessage>
  | Unsent<MetadataMessage>
  | Unsent<StatusMessage>
  | Unsent<ErrorMessage>
  | Unsent<JobMessage>
  | Unsent<ReassignmentMessage>;
// Fails to compile, naming the field, when a type has a field no sample sends: the server does
// not send it (drop it from the type) or no sample covers it (add one to devtools/tssamples.py).
const everyFieldIsSent: Record<UnsentFields, never> = {};

const all: [string, LiveMessage][] = Object.entries(samples);

describe("socket samples (the server's messages)", () => {
  it("has samples of every message type", () => {
    expect(everyFieldIsSent).toEqual({});
    expect(new Set(all.map(([, message]) => message.type))).toEqual(
      new Set(["lag", "group_state", "metadata", "status", "error", "job", "reassignment"]),
    );
  });

  it.each(all)("parseLiveMessage keeps %s as the server sent it", (_name, message) => {
    expect(parseLiveMessage(JSON.stringify(message))).toEqual(message);
  });
});

// The reset strategies of kafka-consumer-groups.sh as the wizard offers them.
import type { ResetStrategyType } from "../api/types";

export interface StrategyInfo {
  type: ResetStrategyType;
  label: string;
  /** One sentence: where every partition ends up. */
  help: string;
}

export const STRATEGIES: StrategyInfo[] = [
  {
    type: "earliest",
    label: "Earliest (log start)",
    help: "Every partition goes to its log start offset: the group re-reads everything still retained.",
  },
  {
    type: "latest",
    label: "Latest (log end)",
    help: "Every partition goes to its log end (high watermark): the group skips every unread record.",
  },
  {
    type: "current",
    label: "Current committed",
    help: "Keeps each committed offset; a partition with no committed offset gets the log end.",
  },
  {
    type: "to_offset",
    label: "To offset",
    help: "The same offset on every partition, moved into [log start, log end] where it falls outside.",
  },
  {
    type: "shift_by",
    label: "Shift by N",
    help: "Committed offset + N on every partition (negative N goes back and re-reads), kept within [log start, log end]. Needs a committed offset on each partition.",
  },
  {
    type: "to_datetime",
    label: "To date-time",
    help: "Each partition goes to the first record with a timestamp at or after this time; to the log end where there is none.",
  },
  {
    type: "by_duration",
    label: "By duration (back from now)",
    help: "Like “To date-time”, for the time this long before now (taken by the server when it plans or runs the reset).",
  },
  {
    type: "from_file",
    label: "From CSV file",
    help: "The offsets in topic,partition,offset lines (the format of “Export offsets.csv”), moved into [log start, log end]. The scope above is ignored.",
  },
];

export function strategyInfo(type: string): StrategyInfo | undefined {
  return STRATEGIES.find((s) => s.type === type);
}

/** Quick choices for by_duration: [ISO, label]. */
export const DURATION_PRESETS: [string, string][] = [
  ["PT5M", "5 min"],
  ["PT15M", "15 min"],
  ["PT1H", "1 h"],
  ["PT6H", "6 h"],
  ["P1D", "1 day"],
  ["P7D", "7 days"],
];

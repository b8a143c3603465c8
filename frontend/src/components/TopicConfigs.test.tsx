import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../api/client";
import type { ConfigEntry } from "../api/types";
import { TopicConfigs } from "./TopicConfigs";

function entry(name: string, value: string | null, source: string, extra: Partial<ConfigEntry> = {}): ConfigEntry {
  return { name, value, source, is_default: source === "DEFAULT_CONFIG", read_only: false, sensitive: false, ...extra };
}

const ENTRIES: ConfigEntry[] = [
  entry("cleanup.policy", "delete", "DEFAULT_CONFIG"),
  entry("retention.ms", "604800000", "DYNAMIC_TOPIC_CONFIG"),
  entry("segment.bytes", "1073741824", "DEFAULT_CONFIG"),
  entry("min.insync.replicas", "2", "STATIC_BROKER_CONFIG"),
  entry("retention.bytes", "-1", "DEFAULT_CONFIG"),
  entry("max.message.bytes", "536870912", "DYNAMIC_TOPIC_CONFIG"),
  entry("segment.ms", "5400000", "DYNAMIC_DEFAULT_BROKER_CONFIG"),
  entry("file.delete.delay.ms", "100", "DEFAULT_CONFIG"),
];

const rowNames = () =>
  screen.getAllByTestId(/^config-row-/).map((row) => row.getAttribute("data-testid")!.replace("config-row-", ""));

describe("TopicConfigs", () => {
  it("lists the topic's overrides first and folds the defaults behind a toggle", () => {
    render(<TopicConfigs entries={ENTRIES} editable={false} onPatch={vi.fn()} />);
    // Only what is set on the topic, by name.
    expect(rowNames()).toEqual(["max.message.bytes", "retention.ms"]);
    const toggle = screen.getByTestId("config-defaults-toggle");
    expect(toggle).toHaveTextContent("Show 6 defaults");
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(screen.getByTestId("hide-defaults")).toBeChecked();

    fireEvent.click(toggle);
    expect(toggle).toHaveTextContent("Hide 6 defaults");
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    expect(rowNames()).toEqual([
      "max.message.bytes",
      "retention.ms",
      "cleanup.policy",
      "file.delete.delay.ms",
      "min.insync.replicas",
      "retention.bytes",
      "segment.bytes",
      "segment.ms",
    ]);
    expect(screen.getByTestId("hide-defaults")).not.toBeChecked();
    // The old checkbox still hides them.
    fireEvent.click(screen.getByTestId("hide-defaults"));
    expect(screen.queryByTestId("config-row-cleanup.policy")).toBeNull();
  });

  it("shows durations and sizes in human units with the raw value beside and as the tooltip", () => {
    render(<TopicConfigs entries={ENTRIES} editable={false} onPatch={vi.fn()} />);
    fireEvent.click(screen.getByTestId("config-defaults-toggle"));
    const cases: [string, string, string][] = [
      ["retention.ms", "7 d", "604800000"],
      ["segment.ms", "1 h 30 min", "5400000"],
      ["file.delete.delay.ms", "100 ms", "100"],
      ["segment.bytes", "1 GiB", "1073741824"],
      ["max.message.bytes", "512 MiB", "536870912"],
      ["retention.bytes", "unlimited", "-1"],
    ];
    for (const [name, human, raw] of cases) {
      expect(screen.getByTestId(`config-human-${name}`)).toHaveTextContent(human);
      expect(screen.getByTestId(`config-raw-${name}`)).toHaveTextContent(raw);
      expect(screen.getByTestId(`config-value-${name}`)).toHaveAttribute("title", `raw value: ${raw}`);
    }
    // No unit: the value as it is, nothing beside.
    expect(screen.getByTestId("config-value-cleanup.policy")).toHaveTextContent(/^delete$/);
    expect(screen.queryByTestId("config-raw-cleanup.policy")).toBeNull();
    expect(screen.getByTestId("config-value-min.insync.replicas")).toHaveTextContent(/^2$/);
  });

  it("says where each value comes from in plain words", () => {
    render(<TopicConfigs entries={ENTRIES} editable={false} onPatch={vi.fn()} />);
    fireEvent.click(screen.getByTestId("config-defaults-toggle"));
    expect(screen.getByTestId("config-source-retention.ms")).toHaveTextContent("set on topic");
    expect(screen.getByTestId("config-source-cleanup.policy")).toHaveTextContent("Kafka default");
    expect(screen.getByTestId("config-source-min.insync.replicas")).toHaveTextContent("broker default (server.properties)");
    expect(screen.getByTestId("config-source-segment.ms")).toHaveTextContent("broker default");
    // The source's own name stays at hand.
    expect(screen.getByTestId("config-source-segment.ms")).toHaveAttribute("title", "DYNAMIC_DEFAULT_BROKER_CONFIG");
  });

  it("edits the raw value, showing what it means as it is typed", async () => {
    const onPatch = vi.fn().mockResolvedValue(undefined);
    render(<TopicConfigs entries={ENTRIES} editable onPatch={onPatch} />);
    fireEvent.click(screen.getByTestId("config-edit-retention.ms"));
    const input = screen.getByTestId("config-input-retention.ms");
    expect(input).toHaveValue("604800000");
    fireEvent.change(input, { target: { value: "5400000" } });
    expect(screen.getByTestId("config-input-hint-retention.ms")).toHaveTextContent("= 1 h 30 min");
    fireEvent.click(screen.getByTestId("config-save-retention.ms"));
    await waitFor(() => expect(onPatch).toHaveBeenCalledWith({ set: { "retention.ms": "5400000" } }));
    expect(await screen.findByTestId("config-saved")).toHaveTextContent("retention.ms set to 5400000.");
  });

  it("says a refused value beside it, in plain words, the edit still open", async () => {
    const onPatch = vi
      .fn()
      .mockRejectedValue(new ApiError(400, "invalid", "set: Invalid value abc for configuration retention.ms.", { field: "set" }));
    render(<TopicConfigs entries={ENTRIES} editable onPatch={onPatch} />);
    fireEvent.click(screen.getByTestId("config-edit-retention.ms"));
    fireEvent.change(screen.getByTestId("config-input-retention.ms"), { target: { value: "abc" } });
    fireEvent.click(screen.getByTestId("config-save-retention.ms"));
    expect(await screen.findByTestId("config-error-retention.ms")).toHaveTextContent(/^Invalid value abc for configuration retention\.ms\.$/);
    expect(screen.getByTestId("config-input-retention.ms")).toHaveAttribute("aria-invalid", "true");
    expect(screen.queryByTestId("error-banner")).toBeNull();
    fireEvent.change(screen.getByTestId("config-input-retention.ms"), { target: { value: "1" } });
    expect(screen.queryByTestId("config-error-retention.ms")).toBeNull();
  });

  it("says so when nothing is set on the topic", () => {
    render(<TopicConfigs entries={ENTRIES.filter((e) => e.source !== "DYNAMIC_TOPIC_CONFIG")} editable={false} onPatch={vi.fn()} />);
    expect(screen.getByTestId("configs-no-overrides")).toHaveTextContent("Nothing is set on this topic");
    expect(within(screen.getByTestId("configs-table")).queryAllByTestId(/^config-row-/)).toHaveLength(0);
    expect(screen.getByTestId("config-defaults-toggle")).toHaveTextContent("Show 6 defaults");
  });
});

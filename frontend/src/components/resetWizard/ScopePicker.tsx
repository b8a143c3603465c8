import { useState } from "react";
import type { TopicSummary } from "../../api/types";
import { plural } from "../../lib/format";
import type { ErrorPlace, ScopeTopic } from "../../lib/resetForm";
import { FilterBox } from "../ListToolbar";
import { type HeaderColumn, TableHead } from "../TableParts";

const SCOPE_COLUMNS: HeaderColumn[] = [{ label: "Selected", hidden: true }, "Topic", "Partitions (empty = all)"];

interface ScopePickerProps {
  topics: ScopeTopic[];
  counts: Map<string, number>;
  clusterTopics: TopicSummary[] | null;
  localErrors: Record<string, string>;
  serverError: (area: ErrorPlace["area"], topic?: string) => Error | null;
  onTopic: (topic: string, change: Partial<ScopeTopic>) => void;
  onAdd: (topic: string) => void;
  onAll: (selected: boolean) => void;
  showEmpty: boolean;
}

const SEARCH_SHOWN = 8;

export function ScopePicker({ topics, counts, clusterTopics, localErrors, serverError, onTopic, onAdd, onAll, showEmpty }: ScopePickerProps) {
  const [search, setSearch] = useState("");
  const selected = topics.filter((t) => t.selected).length;
  const needle = search.trim().toLowerCase();
  const matches = needle
    ? (clusterTopics ?? []).filter((t) => t.name.toLowerCase().includes(needle) && !topics.some((s) => s.topic === t.name && s.selected))
    : [];

  return (
    <>
      <p className="field-hint scope-hint">
        Default: every topic of the group, all partitions (including partitions the group never committed on). Untick
        topics, or type partitions such as <code>0,1,4</code> or <code>0-3</code> to limit a topic.
      </p>
      {topics.length === 0 ? (
        <p className="muted" data-testid="scope-none">
          The group has no committed offsets or assignments: add the topics to reset below.
        </p>
      ) : (
        <table className="table scope-table">
          <TableHead columns={SCOPE_COLUMNS} />
          <tbody>
            {topics.map((t) => {
              const count = counts.get(t.topic);
              const local = t.partitions.trim() ? localErrors[`scope:${t.topic}`] : undefined;
              const remote = serverError("scope", t.topic);
              return (
                <tr key={t.topic} data-testid={`scope-row-${t.topic}`} className={t.selected ? undefined : "row-off"}>
                  <td className="col-check">
                    <input
                      type="checkbox"
                      checked={t.selected}
                      onChange={(event) => onTopic(t.topic, { selected: event.target.checked })}
                      aria-label={`Reset ${t.topic}`}
                      data-testid={`scope-topic-${t.topic}`}
                    />
                  </td>
                  <td className="mono">
                    {t.topic}
                    {!t.ofGroup && <span className="badge badge-info badge-inline">added</span>}
                  </td>
                  <td className="wrap">
                    <input
                      className="input partitions-input mono"
                      value={t.partitions}
                      placeholder={count !== undefined ? `all ${count}` : "all"}
                      onChange={(event) => onTopic(t.topic, { partitions: event.target.value })}
                      disabled={!t.selected}
                      aria-label={`Partitions of ${t.topic}`}
                      aria-invalid={!!(local || remote)}
                      data-testid={`scope-partitions-${t.topic}`}
                    />
                    {local && (
                      <p className="field-error" role="alert" data-testid={`field-error-scope-${t.topic}`}>
                        {local}
                      </p>
                    )}
                    {!local && remote && (
                      <p className="field-error" role="alert" data-testid={`field-error-scope-${t.topic}`}>
                        {remote.message}
                      </p>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <div className="action-row scope-actions">
        {topics.length > 1 && (
          <>
            <button type="button" className="button button-small" onClick={() => onAll(true)} data-testid="scope-all">
              All
            </button>
            <button type="button" className="button button-small" onClick={() => onAll(false)} data-testid="scope-none-button">
              None
            </button>
          </>
        )}
        <span className="muted" data-testid="scope-count" data-count={selected}>
          {selected} of {topics.length} {plural(topics.length, "topic")} selected
        </span>
      </div>
      {showEmpty && selected === 0 && (
        <p className="field-error" role="alert" data-testid="field-error-scope-empty">
          Choose at least one topic.
        </p>
      )}
      <div className="scope-search">
        <FilterBox
          value={search}
          onChange={setSearch}
          placeholder="Add another topic of the cluster…"
          label="Search the cluster's topics"
          testId="scope-search"
        />
        {needle && clusterTopics === null && <span className="muted"> loading topics…</span>}
        {needle && clusterTopics !== null && (
          <ul className="search-results" data-testid="scope-search-results">
            {matches.length === 0 && <li className="muted">No other topic matches.</li>}
            {matches.slice(0, SEARCH_SHOWN).map((t) => (
              <li key={t.name}>
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => {
                    onAdd(t.name);
                    setSearch("");
                  }}
                  data-testid={`scope-add-${t.name}`}
                >
                  Add
                </button>{" "}
                <span className="mono">{t.name}</span>{" "}
                <span className="muted">
                  ({t.partition_count} {plural(t.partition_count, "partition")})
                </span>
              </li>
            ))}
            {matches.length > SEARCH_SHOWN && (
              <li className="muted">…and {matches.length - SEARCH_SHOWN} more: type more of the name.</li>
            )}
          </ul>
        )}
      </div>
    </>
  );
}


import { memo, useDeferredValue, useMemo, useState } from "react";
import type { TopicSummary } from "../../api/types";
import { formatCount, plural } from "../../lib/format";
import { filterTopicNames, topicsSummary } from "../../lib/reassign";
import { FieldErrors } from "../FieldErrors";
import { FilterBox } from "../ListToolbar";

/** At most this many matching topics are rendered: a cluster's thousands stay fast to filter. */
export const TOPICS_SHOWN = 100;

interface TopicPickerProps {
  /** The cluster's topics; undefined while loading. */
  topics: TopicSummary[] | undefined;
  loadError: Error | null;
  selected: ReadonlySet<string>;
  onChange: (names: readonly string[], checked: boolean) => void;
  errors: string[] | undefined;
}

/**
 * The matching topics rendered: the first 100, and before them every chosen one that is not
 * among those (a topic preset by a link, on a cluster of thousands, is seen checked). A topic
 * checked in the list never moves: it is among the first 100 already.
 */
export function shownTopics(
  matches: readonly TopicSummary[],
  selected: ReadonlySet<string>,
): { shown: TopicSummary[]; more: number } {
  const head = matches.slice(0, TOPICS_SHOWN);
  const pinned = selected.size === 0 ? [] : matches.slice(TOPICS_SHOWN).filter((t) => selected.has(t.name));
  return { shown: [...pinned, ...head], more: matches.length - head.length - pinned.length };
}

/**
 * The topics to move: a filter by name and a checkbox per matching topic (the first 100, after
 * the chosen ones beyond them; "N more, refine the filter" beyond), their partitions and
 * replication factor beside. A chosen topic stays chosen when the filter hides it (the count
 * above says how many are).
 */
export function TopicPicker({ topics, loadError, selected, onChange, errors }: TopicPickerProps) {
  const [filter, setFilter] = useState("");
  const deferred = useDeferredValue(filter);
  const matches = useMemo(() => filterTopicNames(topics ?? [], deferred), [topics, deferred]);
  const { shown, more } = useMemo(() => shownTopics(matches, selected), [matches, selected]);
  const chosen = useMemo(() => [...selected].sort(), [selected]);

  return (
    <fieldset className="field" data-testid="reassign-topics">
      <legend className="field-label">Topics to move</legend>
      <div className="toolbar">
        <FilterBox
          value={filter}
          onChange={setFilter}
          placeholder="Filter topics…"
          label="Filter topics by name"
          testId="reassign-topic-filter"
        />
        <button
          type="button"
          className="button button-small"
          onClick={() => onChange(shown.map((t) => t.name), true)}
          disabled={shown.length === 0}
          data-testid="reassign-topic-select-shown"
        >
          Choose the {formatCount(shown.length)} shown
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={() => onChange(chosen, false)}
          disabled={chosen.length === 0}
          data-testid="reassign-topic-clear"
        >
          Clear
        </button>
        <span className="muted" data-testid="reassign-topic-count" data-count={chosen.length} title={chosen.join(", ")}>
          {chosen.length === 0 ? "none chosen" : `${formatCount(chosen.length)} chosen: ${topicsSummary(chosen)}`}
        </span>
      </div>
      {loadError && (
        <p className="field-error" role="alert">
          Could not load the topics: {loadError.message}
        </p>
      )}
      {topics === undefined && !loadError && <p className="muted">Loading topics…</p>}
      {topics !== undefined && (
        <ul className="reassign-topic-list" data-testid="reassign-topic-list">
          {shown.length === 0 && (
            <li className="muted">{topics.length === 0 ? "The cluster has no topics." : "No topic matches the filter."}</li>
          )}
          {shown.map((t) => (
            <TopicOption key={t.name} topic={t} checked={selected.has(t.name)} onChange={onChange} />
          ))}
        </ul>
      )}
      {more > 0 && (
        <p className="muted" data-testid="reassign-topic-more">
          {formatCount(more)} more, refine the filter.
        </p>
      )}
      <FieldErrors messages={errors} testId="reassign-error-topics" />
    </fieldset>
  );
}

/** One topic's checkbox (its accessible name is the topic's name); memoized: a click re-renders one. */
const TopicOption = memo(function TopicOption({
  topic: t,
  checked,
  onChange,
}: {
  topic: TopicSummary;
  checked: boolean;
  onChange: (names: readonly string[], checked: boolean) => void;
}) {
  return (
    <li>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={checked}
          onChange={(event) => onChange([t.name], event.target.checked)}
          aria-label={t.name}
          data-testid={`reassign-topic-${t.name}`}
        />
        <span className="mono">{t.name}</span>
      </label>{" "}
      <span className="muted reassign-topic-meta">
        {formatCount(t.partition_count)} {plural(t.partition_count, "partition")} · RF {t.replication_factor}
        {t.internal ? " · internal" : ""}
      </span>
    </li>
  );
});

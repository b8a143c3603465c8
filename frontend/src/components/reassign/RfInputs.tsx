import { useDeferredValue, useId, useMemo } from "react";
import type { TopicSummary } from "../../api/types";
import { formatCount, plural } from "../../lib/format";
import { filterTopicNames } from "../../lib/reassign";
import { Field, WholeNumberInput } from "../Field";
import { FieldErrors } from "../FieldErrors";

/** Topic names offered as the name is typed (a datalist of thousands would be slow to render). */
const SUGGESTED = 50;

interface RfInputsProps {
  topics: TopicSummary[] | undefined;
  brokerCount: number | null;
  topic: string;
  rf: string;
  onTopic: (topic: string) => void;
  onRf: (rf: string) => void;
  errors: { topic?: string[]; replication_factor?: string[] };
}

/** A topic (offered as it is typed) and its new replication factor, with its current one beside. */
export function RfInputs({ topics, brokerCount, topic, rf, onTopic, onRf, errors }: RfInputsProps) {
  const ids = { topic: useId(), list: useId(), rf: useId() };
  const typed = useDeferredValue(topic);
  const suggestions = useMemo(() => filterTopicNames(topics ?? [], typed).slice(0, SUGGESTED), [topics, typed]);
  const current = topics?.find((t) => t.name === topic.trim());

  return (
    <div className="field-row">
      <Field label="Topic" htmlFor={ids.topic}>
        <input
          id={ids.topic}
          className="input mono reassign-rf-topic"
          list={ids.list}
          value={topic}
          onChange={(event) => onTopic(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          placeholder="topic name"
          aria-invalid={!!errors.topic}
          data-testid="reassign-rf-topic"
        />
        <datalist id={ids.list}>
          {suggestions.map((t) => (
            <option key={t.name} value={t.name} />
          ))}
        </datalist>
        {current ? (
          <p className="field-hint" data-testid="reassign-rf-current" data-rf={current.replication_factor}>
            Now replication factor {current.replication_factor}, {formatCount(current.partition_count)}{" "}
            {plural(current.partition_count, "partition")}.
          </p>
        ) : (
          topic.trim() !== "" &&
          topics !== undefined && <p className="field-hint">No topic of this cluster has this name.</p>
        )}
        <FieldErrors messages={errors.topic} testId="reassign-error-topic" />
      </Field>
      <Field label="New replication factor" htmlFor={ids.rf}>
        <WholeNumberInput
          id={ids.rf}
          value={rf}
          onChange={onRf}
          invalid={!!errors.replication_factor}
          testId="reassign-rf"
          min={1}
          width="input-number"
        />
        {brokerCount !== null && (
          <p className="field-hint">
            At most {brokerCount}: {brokerCount} live {plural(brokerCount, "broker")}.
          </p>
        )}
        <FieldErrors messages={errors.replication_factor} testId="reassign-error-replication_factor" />
      </Field>
    </div>
  );
}

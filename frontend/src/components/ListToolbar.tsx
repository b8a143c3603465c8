// The pieces of a list page's toolbar (and the notice above it): the search box, a filter, a
// checkbox, the count of rows shown, and the flash after a delete.
import { type ReactNode, useState } from "react";
import { formatCount, plural } from "../lib/format";

interface SearchBoxProps {
  value: string;
  onChange: (value: string) => void;
  /** What the list holds ("topic": "Search topics…", test id `topic-search`)… */
  noun: string;
  /** …and what of it is searched ("name": "Search topics by name"). */
  by: string;
}

/** The search box (its text kept by the page, e.g. in the URL query). */
export function SearchBox({ value, onChange, noun, by }: SearchBoxProps) {
  return (
    <FilterBox
      value={value}
      onChange={onChange}
      placeholder={`Search ${noun}s…`}
      label={`Search ${noun}s by ${by}`}
      testId={`${noun}-search`}
    />
  );
}

interface FilterBoxProps {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  /** Its accessible name. */
  label: string;
  testId: string;
}

/** A search box in its own words: a list's search, or a filter of one table on a page. */
export function FilterBox({ value, onChange, placeholder, label, testId }: FilterBoxProps) {
  return (
    <input
      type="search"
      className="input"
      placeholder={placeholder}
      aria-label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      data-testid={testId}
    />
  );
}

/** A choice of a filter select: a plain string is its own label. */
export type FilterOption = string | { value: string; label: string };

interface FilterSelectProps {
  /** Its accessible name. */
  label: string;
  /** The chosen option's value; "" for none. */
  value: string;
  onChange: (value: string) => void;
  testId: string;
  /** The first option, value "": no filter ("All topics"). */
  anyLabel: string;
  options: readonly FilterOption[];
}

/** Above this many options a filter select renders them only once it is focused or pressed: a
 * groups page of 10,000 topics spent a fifth of its load laying out and inserting options
 * nobody had opened. */
export const LAZY_OPTIONS_ABOVE = 500;

function choiceOf(option: FilterOption): { value: string; label: string } {
  return typeof option === "string" ? { value: option, label: option } : option;
}

/** A select that narrows the list: no filter, or one of `options`. */
export function FilterSelect({ label, value, onChange, testId, anyLabel, options }: FilterSelectProps) {
  const [armed, setArmed] = useState(false);
  const arm = () => setArmed(true);
  const lazy = !armed && options.length > LAZY_OPTIONS_ABOVE;
  // Until armed, only the chosen option (a controlled select shows only what it holds).
  const chosen = lazy ? options.find((option) => choiceOf(option).value === value) : undefined;
  const shown = !lazy ? options : chosen === undefined ? [] : [chosen];
  return (
    <select
      className="input"
      aria-label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onFocus={arm}
      onPointerDown={arm}
      data-testid={testId}
      data-options={lazy ? "lazy" : "all"}
    >
      <option value="">{anyLabel}</option>
      {shown.map((option) => {
        const choice = choiceOf(option);
        return (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        );
      })}
    </select>
  );
}

/** A labelled checkbox: `children` is its label. */
export function ToolbarCheckbox({
  checked,
  onChange,
  testId,
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  testId: string;
  children: ReactNode;
}) {
  return (
    <label className="checkbox">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} data-testid={testId} />
      {children}
    </label>
  );
}

/** "12 topics", or "3 of 12 topics" while a search or filter hides some (`data-count`: shown). */
export function RowCount({
  shown,
  total,
  noun,
  nouns = `${noun}s`,
  testId,
}: {
  shown: number;
  total: number;
  noun: string;
  /** The plural, when not `noun` + "s" ("entities"). */
  nouns?: string;
  testId: string;
}) {
  return (
    <span className="muted" data-testid={testId} data-count={shown}>
      {shown === total
        ? `${formatCount(shown)} ${plural(shown, noun, nouns)}`
        : `${formatCount(shown)} of ${formatCount(total)} ${plural(total, noun, nouns)}`}
    </span>
  );
}

/** The notice after a delete brought the user back to the list: "Topic orders was deleted." */
export function DeletedFlash({ what, name }: { what: string; name: string | undefined }) {
  if (!name) return null;
  return (
    <p className="notice notice-ok" role="status" data-testid="flash">
      {what} <strong className="mono">{name}</strong> was deleted.
    </p>
  );
}

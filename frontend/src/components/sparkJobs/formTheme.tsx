// The form library's (@rjsf/core) parts drawn with the console's own classes: text buttons
// instead of its Bootstrap glyph icons (no Bootstrap here), hints and errors as on every other
// form, and the topic field offering the cluster's topics.
import {
  ariaDescribedByIds,
  errorId,
  type DescriptionFieldProps,
  type FieldErrorProps,
  type FormContextType,
  type IconButtonProps,
  type RegistryWidgetsType,
  type TemplatesType,
  type WidgetProps,
} from "@rjsf/utils";
import { useEffect, useRef, useState, type ChangeEvent } from "react";
import { DATETIME_WIDGET, TOPIC_WIDGET } from "../../lib/sparkForm";
import { FieldErrors } from "../FieldErrors";
import {
  browserTimeZone,
  formatInZone,
  hasExplicitZone,
  preferredHourCycle,
  UTC_ZONE,
  wallTimePlaceholder,
  zonedToInstant,
  zoneName,
} from "../../lib/time";

/** What the form's parts are given besides the schema: the chosen cluster's topics. */
export interface SparkFormContext extends FormContextType {
  topics: string[];
}

function TextButton({ label, danger = false, ...props }: IconButtonProps & { label: string; danger?: boolean }) {
  // Keep only what a <button> understands.
  const { id, onClick, disabled, title, className } = props;
  return (
    <button
      type="button"
      id={id}
      className={`button button-small${danger ? " button-danger-outline" : ""}${className ? ` ${className}` : ""}`}
      onClick={onClick}
      disabled={disabled}
      title={title ?? label}
    >
      {label}
    </button>
  );
}

const ButtonTemplates: Partial<TemplatesType["ButtonTemplates"]> = {
  AddButton: (props) => <TextButton {...props} label="Add" />,
  RemoveButton: (props) => <TextButton {...props} label="Remove" danger />,
  MoveUpButton: (props) => <TextButton {...props} label="Up" />,
  MoveDownButton: (props) => <TextButton {...props} label="Down" />,
  CopyButton: (props) => <TextButton {...props} label="Copy" />,
  ClearButton: (props) => <TextButton {...props} label="Clear" />,
  // The form's own submit button lives outside the library's part (SparkJobForm).
  SubmitButton: () => null,
};

/** A field's errors (the browser-side check, or the server's 400), as on every form here. The
 * test id names the param: `field-error-topic`. */
function FieldErrorTemplate({ errors = [], fieldPathId }: FieldErrorProps) {
  return (
    <FieldErrors messages={errors.filter(Boolean)} id={errorId(fieldPathId)} testId={`field-error-${fieldPathId.path.join(".")}`} />
  );
}

function DescriptionFieldTemplate({ id, description }: DescriptionFieldProps) {
  if (!description) return null;
  return (
    <p id={id} className="field-hint">
      {description}
    </p>
  );
}

export const FORM_TEMPLATES: Partial<TemplatesType> = {
  ButtonTemplates: ButtonTemplates as TemplatesType["ButtonTemplates"],
  FieldErrorTemplate,
  DescriptionFieldTemplate,
};

/** A topic name: free text (the server checks it exists), offering the cluster's topics. */
function TopicWidget({ id, value, required, disabled, readonly, autofocus, placeholder, onChange, onBlur, onFocus, options, registry, rawErrors }: WidgetProps) {
  const topics = (registry.formContext as SparkFormContext | undefined)?.topics ?? [];
  const listId = `${id}__topics`;
  return (
    <>
      <input
        id={id}
        name={id}
        type="text"
        className="form-control mono"
        value={typeof value === "string" ? value : ""}
        required={required}
        disabled={disabled}
        readOnly={readonly}
        autoFocus={autofocus}
        placeholder={placeholder || (topics.length > 0 ? "Type or pick a topic" : "")}
        autoComplete="off"
        spellCheck={false}
        list={topics.length > 0 ? listId : undefined}
        aria-invalid={rawErrors && rawErrors.length > 0 ? true : undefined}
        aria-describedby={ariaDescribedByIds(id)}
        onChange={(event: ChangeEvent<HTMLInputElement>) => onChange(event.target.value === "" ? options.emptyValue : event.target.value)}
        onBlur={(event) => onBlur(id, event.target.value)}
        onFocus={(event) => onFocus(id, event.target.value)}
        data-testid={`param-${id.replace(/^root_/, "")}`}
      />
      {topics.length > 0 && (
        <datalist id={listId}>
          {topics.map((topic) => (
            <option key={topic} value={topic} />
          ))}
        </datalist>
      )}
    </>
  );
}

/** What a date-time field sends for the text typed and the zone chosen: the ISO-8601 instant with
 * that zone's offset, the text as it is when it names its zone itself (or does not parse: the
 * server says why), nothing when empty. */
export function zonedValue(text: string, zone: string, empty: unknown): unknown {
  const trimmed = text.trim();
  if (trimmed === "") return empty;
  if (hasExplicitZone(trimmed)) return trimmed;
  return zonedToInstant(trimmed, zone)?.iso ?? trimmed;
}

const AS_WRITTEN = "as-written";

/**
 * A date-time param (`*_time`): the wall-clock time typed as text, 24-hour unless the browser's
 * locale asks for 12-hour (either is read), in the zone chosen beside it (UTC or this browser's);
 * below, the ISO-8601 instant it sends. A value that names its zone ("…Z", "…+01:00") is sent as
 * written.
 */
function ZonedDateTimeWidget({ id, value, required, disabled, readonly, autofocus, label, onChange, onBlur, onFocus, options, rawErrors }: WidgetProps) {
  const cycle = preferredHourCycle();
  const browser = browserTimeZone();
  const [zone, setZone] = useState(UTC_ZONE);
  const [text, setText] = useState(typeof value === "string" ? value : "");
  const sent = useRef<unknown>(value);
  // A value set from outside (the form reset, a default): show it as it is.
  useEffect(() => {
    if (value !== sent.current) {
      sent.current = value;
      setText(typeof value === "string" ? value : "");
    }
  }, [value]);
  const send = (nextText: string, nextZone: string) => {
    const next = zonedValue(nextText, nextZone, options.emptyValue);
    sent.current = next;
    onChange(next);
  };
  const explicit = hasExplicitZone(text);
  const iso = zonedValue(text, zone, undefined);
  const ms = typeof iso === "string" ? Date.parse(iso) : NaN;
  const name = id.replace(/^root_/, "");
  return (
    <div className="zoned-datetime">
      <span className="input-with-zone">
        <input
          id={id}
          name={id}
          type="text"
          className="form-control mono input-datetime"
          value={text}
          required={required}
          disabled={disabled}
          readOnly={readonly}
          autoFocus={autofocus}
          placeholder={wallTimePlaceholder(cycle)}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={rawErrors && rawErrors.length > 0 ? true : undefined}
          aria-describedby={ariaDescribedByIds(id)}
          onChange={(event: ChangeEvent<HTMLInputElement>) => {
            setText(event.target.value);
            send(event.target.value, zone);
          }}
          onBlur={(event) => onBlur(id, event.target.value)}
          onFocus={(event) => onFocus(id, event.target.value)}
          data-testid={`param-${name}`}
          data-hour-cycle={cycle}
        />
        <select
          className="zone-tag zone-select"
          aria-label={`Time zone of ${label || name}`}
          title="The zone the date and time is read in"
          value={explicit ? AS_WRITTEN : zone}
          disabled={disabled || readonly || explicit}
          onChange={(event) => {
            setZone(event.target.value);
            send(text, event.target.value);
          }}
          data-testid={`param-${name}-zone`}
        >
          <option value={UTC_ZONE}>UTC</option>
          {browser !== UTC_ZONE && <option value={browser}>{zoneName(browser)}</option>}
          {explicit && <option value={AS_WRITTEN}>zone as written</option>}
        </select>
      </span>
      {!Number.isNaN(ms) && typeof iso === "string" && (
        <p className="field-hint" data-testid={`param-${name}-sends`}>
          Sends <code>{iso}</code> = <span className="nowrap">{formatInZone(ms, UTC_ZONE, cycle, true)} UTC</span>
        </p>
      )}
    </div>
  );
}

export const FORM_WIDGETS: RegistryWidgetsType = { [TOPIC_WIDGET]: TopicWidget, [DATETIME_WIDGET]: ZonedDateTimeWidget };

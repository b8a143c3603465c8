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
import type { ChangeEvent } from "react";
import { TOPIC_WIDGET } from "../../lib/sparkForm";

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
  const shown = errors.filter(Boolean);
  if (shown.length === 0) return null;
  return (
    <div id={errorId(fieldPathId)} className="field-error" role="alert" data-testid={`field-error-${fieldPathId.path.join(".")}`}>
      {shown.map((error, index) => (
        <p key={index} className="field-error-line">
          {error}
        </p>
      ))}
    </div>
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

export const FORM_WIDGETS: RegistryWidgetsType = { [TOPIC_WIDGET]: TopicWidget };

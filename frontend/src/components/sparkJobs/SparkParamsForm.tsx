import Form from "@rjsf/core";
import type { IChangeEvent } from "@rjsf/core";
import type { RJSFSchema } from "@rjsf/utils";
import { useMemo, useState, type ReactNode } from "react";
import type { SparkJobType } from "../../api/types";
import {
  cleanParams,
  formSchema,
  formUiSchema,
  paramErrorSchema,
  valueAt,
  type ParamError,
  type ParamsFormData,
} from "../../lib/sparkForm";
import { FORM_TEMPLATES, FORM_WIDGETS, type SparkFormContext } from "./formTheme";
import { ajvPlainErrors, formValidator } from "./formValidator";

export interface SparkParamsFormProps {
  jobType: SparkJobType;
  /** The chosen cluster's topics, offered in the topic fields. */
  topics: string[];
  /** The server's complaints about the params (a refused submit's 400), each shown beside its field. */
  errors: readonly ParamError[];
  /** Editing a field drops what the server said about its old value: the complaints kept. */
  onErrorsChange: (errors: ParamError[]) => void;
  disabled: boolean;
  /** The params, once they passed the browser-side check: without the fields left empty. */
  onSubmit: (params: Record<string, unknown>) => void;
  /** The browser-side check failed (its errors are shown at the fields). */
  onInvalid: () => void;
  /** Check the params with Ajv (true) or the interpreting check that compiles nothing (false);
   * default: Ajv where the page's CSP lets it compile (see formValidator). */
  checkInBrowser?: boolean;
  /** The form's buttons (its submit button among them), inside the <form>. */
  children: ReactNode;
}

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * A job type's params as a form generated from its JSON Schema (the Spark submit form's and the
 * schedule form's): checked in the browser against it before `onSubmit` (every problem at once,
 * each beside its field, in plain words; see formValidator), the server's complaints beside the
 * fields they name. Render it with a `key` per job type: it keeps what was typed.
 */
export function SparkParamsForm({
  jobType,
  topics,
  errors,
  onErrorsChange,
  disabled,
  onSubmit,
  onInvalid,
  checkInBrowser,
  children,
}: SparkParamsFormProps) {
  const validator = formValidator(checkInBrowser);
  const schema = useMemo(() => formSchema(jobType.params_schema), [jobType]);
  const uiSchema = useMemo(() => formUiSchema(jobType.params_schema), [jobType]);
  const formContext = useMemo<SparkFormContext>(() => ({ topics }), [topics]);
  const [formData, setFormData] = useState<ParamsFormData>({});
  const extraErrors = useMemo(() => (errors.length ? paramErrorSchema(errors) : undefined), [errors]);

  return (
    <Form<ParamsFormData, RJSFSchema, SparkFormContext>
      schema={schema}
      uiSchema={uiSchema}
      validator={validator}
      formData={formData}
      onChange={(event) => {
        const next = event.formData ?? {};
        // The server's complaint is about what a field held: editing that field clears it.
        const kept = errors.filter((e) => same(valueAt(next, e.path), valueAt(formData, e.path)));
        if (kept.length !== errors.length) onErrorsChange(kept);
        setFormData(next);
      }}
      onSubmit={({ formData: data }: IChangeEvent<ParamsFormData>) => onSubmit(cleanParams(data))}
      // The browser-side check failed: its errors are at the fields, the server's are stale.
      onError={onInvalid}
      formContext={formContext}
      templates={FORM_TEMPLATES}
      widgets={FORM_WIDGETS}
      extraErrors={extraErrors}
      transformErrors={ajvPlainErrors}
      disabled={disabled}
      showErrorList={false}
      noHtml5Validate
      focusOnFirstError
    >
      {children}
    </Form>
  );
}

import type { ResetStrategyType } from "../../api/types";
import { STRATEGIES, strategyInfo } from "../../lib/resetStrategies";
import type { ResetWizardState } from "./useResetWizard";
import { FieldError, CsvLine } from "./FieldError";
import { StrategyInput } from "./StrategyInput";

/** Where each partition goes (step 2) of the reset wizard. */
export function StrategyStep({ w }: { w: ResetWizardState }) {
  const { attempted, form, ids, localErrors, place, serverError, set } = w;
  return (
    <fieldset className="wizard-step" data-testid="reset-strategy">
      <legend className="step-title">
        <span className="step-number">2</span> Strategy: where each partition goes
      </legend>
      <div className="field">
        <label htmlFor={ids.strategy} className="field-label">
          New offset
        </label>
        <select
          id={ids.strategy}
          className="input"
          value={form.strategy}
          onChange={(event) => set({ strategy: event.target.value as ResetStrategyType })}
          data-testid="strategy-select"
        >
          {STRATEGIES.map((s) => (
            <option key={s.type} value={s.type}>
              {s.label}
            </option>
          ))}
        </select>
        <p className="field-hint" data-testid="strategy-help">
          {strategyInfo(form.strategy)?.help}
        </p>
      </div>
      <StrategyInput form={form} set={set} invalid={!!serverError("strategy") || (attempted && !!localErrors.strategy)} />
      {attempted && localErrors.strategy && !serverError("strategy") && (
        <p className="field-error" role="alert" data-testid="field-error-strategy" data-field="local">
          {localErrors.strategy}
        </p>
      )}
      <FieldError error={serverError("strategy")} field={place.field} testId="field-error-strategy">
        {form.strategy === "from_file" && <CsvLine error={serverError("strategy")} csv={form.csv} />}
      </FieldError>
    </fieldset>
  );
}

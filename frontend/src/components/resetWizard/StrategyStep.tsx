import type { ResetStrategyType } from "../../api/types";
import { STRATEGIES, strategyInfo } from "../../lib/resetStrategies";
import { Field } from "../Field";
import type { ResetWizardState } from "./useResetWizard";
import { FieldError, CsvLine } from "./FieldError";
import { StrategyInput } from "./StrategyInput";
import { WizardStep } from "./WizardStep";

/** Where each partition goes (step 2) of the reset wizard. */
export function StrategyStep({ w }: { w: ResetWizardState }) {
  const { attempted, form, ids, localErrors, place, serverError, set } = w;
  return (
    <WizardStep number={2} title="Strategy: where each partition goes" testId="reset-strategy">
      <Field label="New offset" htmlFor={ids.strategy}>
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
      </Field>
      <StrategyInput form={form} set={set} invalid={!!serverError("strategy") || (attempted && !!localErrors.strategy)} />
      {attempted && localErrors.strategy && !serverError("strategy") && (
        <p className="field-error" role="alert" data-testid="field-error-strategy" data-field="local">
          {localErrors.strategy}
        </p>
      )}
      <FieldError error={serverError("strategy")} field={place.field} testId="field-error-strategy">
        {form.strategy === "from_file" && <CsvLine error={serverError("strategy")} csv={form.csv} />}
      </FieldError>
    </WizardStep>
  );
}

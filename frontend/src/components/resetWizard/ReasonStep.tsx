import type { ResetWizardState } from "./useResetWizard";
import { FieldError } from "./FieldError";
import { WizardStep } from "./WizardStep";

/** Why (step 3) of the reset wizard. */
export function ReasonStep({ w }: { w: ResetWizardState }) {
  const { form, ids, place, serverError, set } = w;
  return (
    <WizardStep number={3} title="Reason">
      <label htmlFor={ids.reason} className="visually-hidden">
        Reason
      </label>
      <textarea
        id={ids.reason}
        className="input input-wide"
        rows={2}
        placeholder="Why, e.g. INC-1234: replay the orders lost by the bad deploy at 02:10"
        value={form.reason}
        onChange={(event) => set({ reason: event.target.value })}
        aria-invalid={!!serverError("reason")}
        data-testid="reset-reason"
      />
      <p className="field-hint">Kept in the audit log and the reset history. Required to execute.</p>
      <FieldError error={serverError("reason")} field={place.field} testId="field-error-reason" />
    </WizardStep>
  );
}

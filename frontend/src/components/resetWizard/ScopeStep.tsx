import type { ResetWizardState } from "./useResetWizard";
import { FieldError } from "./FieldError";
import { ScopePicker } from "./ScopePicker";
import { WizardStep } from "./WizardStep";

/** Which partitions (step 1) of the reset wizard. */
export function ScopeStep({ w }: { w: ResetWizardState }) {
  const { addTopic, attempted, clusterTopics, counts, form, fromFile, localErrors, place, selectAllTopics, serverError, setTopic } =
    w;
  return (
    <WizardStep number={1} title="Scope: which partitions" className={fromFile ? "step-disabled" : undefined} testId="reset-scope">
      {fromFile ? (
        <p className="muted">The CSV names the partitions; the scope is ignored for “From CSV file”.</p>
      ) : (
        <ScopePicker
          topics={form.topics}
          counts={counts}
          clusterTopics={clusterTopics}
          localErrors={localErrors}
          serverError={serverError}
          onTopic={setTopic}
          onAdd={addTopic}
          onAll={selectAllTopics}
          showEmpty={attempted}
        />
      )}
      {!fromFile && <FieldError error={serverError("scope")} field={place.field} testId="field-error-scope" />}
    </WizardStep>
  );
}

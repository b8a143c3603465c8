import { ExecuteStep } from "./resetWizard/ExecuteStep";
import { PreviewStep } from "./resetWizard/PreviewStep";
import { ReasonStep } from "./resetWizard/ReasonStep";
import { ScopeStep } from "./resetWizard/ScopeStep";
import { StrategyStep } from "./resetWizard/StrategyStep";
import { type ResetWizardProps, useResetWizard } from "./resetWizard/useResetWizard";

/**
 * The offset reset wizard of a group page, in one panel: 1 scope (topics and partitions),
 * 2 strategy with its input, 3 reason, 4 preview (a dry run: the plan per partition),
 * 5 execute that preview after typing the group id, then the result and an undo.
 * State and actions: useResetWizard; one component per step.
 */
export function ResetWizard(props: ResetWizardProps) {
  const w = useResetWizard(props);
  const { groupId, onClose } = w;
  return (
    <section className="wizard" aria-label="Reset offsets" data-testid="reset-wizard">
      <div className="wizard-head">
        <h2>Reset offsets of {groupId}</h2>
        <button type="button" className="button button-small" onClick={onClose} data-testid="reset-close">
          Close
        </button>
      </div>
      <p className="muted wizard-intro">
        Moves the group&apos;s committed offsets, as <code>kafka-consumer-groups.sh --reset-offsets</code> does. Nothing
        changes until you execute; the group must have no running member then.
      </p>

      <ScopeStep w={w} />
      <StrategyStep w={w} />
      <ReasonStep w={w} />
      <PreviewStep w={w} />
      <ExecuteStep w={w} />
    </section>
  );
}

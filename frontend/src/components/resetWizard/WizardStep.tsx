import type { ReactNode } from "react";

interface WizardStepProps {
  /** Its place in the wizard (1 to 5). */
  number: number;
  title: ReactNode;
  /** A class besides "wizard-step" (step-danger, step-disabled). */
  className?: string;
  testId?: string;
  children: ReactNode;
}

/** One numbered step of the reset wizard: a fieldset titled "{number} {title}". */
export function WizardStep({ number, title, className, testId, children }: WizardStepProps) {
  return (
    <fieldset className={className ? `wizard-step ${className}` : "wizard-step"} data-testid={testId}>
      <legend className="step-title">
        <span className="step-number">{number}</span> {title}
      </legend>
      {children}
    </fieldset>
  );
}

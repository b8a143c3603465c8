import { plural } from "../../lib/format";
import { ErrorBanner } from "../ErrorBanner";
import { PlanTable, PlanTotals } from "../ResetTables";
import type { ResetWizardState } from "./useResetWizard";
import { WizardStep } from "./WizardStep";

/** The dry run and its plan (step 4) of the reset wizard. */
export function PreviewStep({ w }: { w: ResetWizardState }) {
  const { attempted, bannerFailure, built, busy, localErrors, onPreview, preview, previewCurrent } = w;
  return (
    <WizardStep number={4} title="Preview (dry run: nothing changes)">
      <div className="action-row">
        <button
          type="button"
          className="button button-primary"
          onClick={() => void onPreview()}
          disabled={busy !== null}
          data-testid="reset-preview"
        >
          {busy === "preview" ? "Planning…" : preview ? "Preview again" : "Preview"}
        </button>
        {attempted && !built.ok && (
          <span className="field-error" role="alert" data-testid="preview-blocked">
            Fix the marked {plural(Object.keys(localErrors).length, "input")} first.
          </span>
        )}
      </div>
      {bannerFailure?.action === "preview" && (
        <ErrorBanner error={bannerFailure.error} title="The preview failed" />
      )}
      {preview && (
        <div className={previewCurrent ? "preview" : "preview stale-preview"} data-testid="reset-preview-result">
          {!previewCurrent && (
            <p className="notice notice-warn" data-testid="preview-stale">
              The inputs changed since this preview (#{preview.reset.id}). Preview again before executing.
            </p>
          )}
          <PlanTotals plan={preview.reset.plan} />
          <PlanTable plan={preview.reset.plan} />
        </div>
      )}
    </WizardStep>
  );
}

import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import { readReassignPreset, type PresetForm } from "../../lib/reassign";
import { ErrorOrApprovalNotice } from "../ApprovalNotice";
import { ErrorBanner } from "../ErrorBanner";
import { BrokerPicker } from "./BrokerPicker";
import { ExecuteReassignment } from "./ExecuteReassignment";
import { JsonPlanInput } from "./JsonPlanInput";
import { ModeTabs } from "./ModeTabs";
import { PlanDownloads } from "./PlanDownloads";
import { PlanPreview } from "./PlanPreview";
import { PresetNotes } from "./PresetNotes";
import { RfInputs } from "./RfInputs";
import { ThrottleInput } from "./ThrottleInput";
import { TopicPicker } from "./TopicPicker";
import { useReassignPlanner, useReassignSources, type ReassignSources } from "./useReassignPlanner";
import { useReassignPreset } from "./useReassignPreset";

/**
 * "New reassignment": the plan (one of three modes), the throttle, "Preview" (nothing changes),
 * the preview with its rows editable and its downloads, then the reason and "Execute…" (after a
 * confirmation), which opens the progress page. A link presets the plan's inputs (the page's
 * query, read once: navigation.ts reassignNewPath); nothing is previewed until asked.
 */
export function NewReassignment({ cluster }: { cluster: string }) {
  const [search] = useSearchParams();
  const [request] = useState(() => readReassignPreset(search));
  const sources = useReassignSources(cluster);
  const preset = useReassignPreset(cluster, request, sources);
  if (preset === undefined) {
    return (
      <section data-testid="reassign-new">
        <h2>New reassignment</h2>
        <p className="muted" data-testid="reassign-preset-loading">
          Loading the link&apos;s choices…
        </p>
      </section>
    );
  }
  return <NewReassignmentForm cluster={cluster} sources={sources} preset={preset} />;
}

interface NewReassignmentFormProps {
  cluster: string;
  sources: ReassignSources;
  /** The inputs to start with (a link's preset, or none chosen). */
  preset: PresetForm;
}

function NewReassignmentForm({ cluster, sources, preset: initial }: NewReassignmentFormProps) {
  const p = useReassignPlanner(cluster, sources, initial);
  const { errors, preview } = p;
  const blocked = p.stale
    ? "The inputs changed since this preview: preview again before executing."
    : !p.throttleValid
      ? "Fix the throttle first."
      : p.busy === "edit" || p.busy === "throttle"
        ? "Updating the preview…"
        : null;

  return (
    <section data-testid="reassign-new">
      <h2>New reassignment</h2>
      <PresetNotes preset={initial} />
      <div className="form-card reassign-form">
        <ModeTabs mode={p.mode} onMode={p.setMode} />
        {p.mode === "topics" && (
          <>
            <TopicPicker
              topics={p.topicList.data}
              loadError={p.topicList.error}
              selected={p.topics}
              onChange={p.onTopics}
              errors={errors.topics}
            />
            <BrokerPicker brokers={p.liveBrokers} selected={p.brokers} onToggle={p.onBroker} errors={errors.brokers} />
          </>
        )}
        {p.mode === "rf" && (
          <RfInputs
            topics={p.topicList.data}
            brokerCount={p.liveBrokers?.length ?? null}
            topic={p.rfTopic}
            rf={p.rf}
            onTopic={p.onRfTopic}
            onRf={p.onRf}
            errors={errors}
          />
        )}
        {p.mode === "json" && <JsonPlanInput json={p.json} onJson={p.onJson} errors={errors.plan} />}
        <ThrottleInput value={p.throttle} onChange={p.onThrottle} errors={errors.throttle_bytes_per_s} />
        {/* The plan's problems when its mode does not show the plan (a partition Kafka moves already…). */}
        {p.mode !== "json" && errors.plan && (
          <p className="field-error" role="alert" data-testid="reassign-error-plan">
            {errors.plan.join(" ")}
          </p>
        )}
        <div className="action-row">
          <button
            type="button"
            className="button button-primary"
            onClick={p.onPreview}
            disabled={p.busy !== null}
            data-testid="reassign-preview"
          >
            {p.busy === "preview" ? "Planning…" : preview ? "Preview again" : "Preview"}
          </button>
          <span className="field-hint">Nothing changes in Kafka until you execute.</span>
        </div>
      </div>
      {p.banner?.action === "preview" && <ErrorBanner error={p.banner.error} title={p.banner.title} />}

      {preview && (
        <div
          className={p.stale ? "stale-preview" : undefined}
          data-testid="reassign-preview-result"
          data-stale={p.stale ? "true" : "false"}
        >
          <h3>Preview</h3>
          {p.stale && (
            <p className="notice notice-warn" data-testid="reassign-preview-stale">
              The inputs changed since this preview. Preview again before executing.
            </p>
          )}
          <PlanPreview
            plan={preview}
            onEditRow={p.onEditRow}
            onInvalidEdit={p.onInvalidEdit}
            editError={p.editError}
            updating={p.busy === "edit" || p.busy === "throttle"}
          />
          <div className="action-row reassign-preview-tools">
            <PlanDownloads plan={preview.proposed} rollback={preview.current} />
            <button type="button" className="button button-small" onClick={p.onEditAsJson} data-testid="reassign-edit-json">
              Edit as JSON
            </button>
          </div>
          {p.banner?.action === "execute" && <ErrorOrApprovalNotice error={p.banner.error} title={p.banner.title} />}
          <ExecuteReassignment
            plan={preview}
            body={p.executeBody}
            blocked={blocked}
            reason={p.reason}
            onReason={p.onReason}
            reasonErrors={errors.reason}
            confirming={p.confirming}
            busy={p.busy === "execute"}
            onConfirm={p.onConfirm}
            onDismiss={p.onDismiss}
            onExecute={() => void p.onExecute()}
          />
        </div>
      )}
    </section>
  );
}

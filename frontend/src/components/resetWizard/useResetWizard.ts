import { useEffect, useId, useMemo, useState } from "react";
import { isAbortError } from "../../api/client";
import { createOffsetReset, executeOffsetReset, listTopics, undoOffsetReset } from "../../api/endpoints";
import type { GroupDetail, OffsetReset, ResetRequest, TopicSummary } from "../../api/types";
import {
  buildResetRequest,
  errorPlace,
  groupTopics,
  isGroupActive,
  samePlanInputs,
  type ErrorPlace,
  type ResetForm,
  type ScopeTopic,
} from "../../lib/groups";
import { UTC_ZONE } from "../../lib/time";

/** Props of the reset wizard (and of its state hook). */
export interface ResetWizardProps {
  cluster: string;
  group: GroupDetail;
  /** After anything was written (a preview, an execution, an undo): refresh the group and history. */
  onChanged: () => void;
  onClose: () => void;
}

/** A request that failed, with the body it sent (to place a 400 next to its field). */
export interface Failure {
  error: Error;
  body: ResetRequest | null;
  action: "preview" | "execute";
}

const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));

function initialForm(group: GroupDetail): ResetForm {
  return {
    topics: groupTopics(group).map((topic) => ({
      topic,
      selected: true,
      partitions: "",
      partitionCount: null,
      ofGroup: true,
    })),
    strategy: "earliest",
    offset: "",
    shift: "",
    datetime: "",
    zone: UTC_ZONE,
    duration: "",
    csv: "",
    reason: "",
  };
}

/**
 * The offset reset wizard of a group page, in one panel: 1 scope (topics and
 * partitions), 2 strategy with its input, 3 reason, 4 preview (a dry run: the
 * plan per partition), 5 execute after typing the group id, then the result
 * and an undo. Executing needs the preview of exactly the current inputs.

/**
 * The wizard's state: the form, the preview (a dry run), the execution of that preview and its
 * undo, and what each step shows. Executing needs the preview of exactly the current inputs.
 */
export function useResetWizard({ cluster, group, onChanged, onClose }: ResetWizardProps) {
  const groupId = group.group_id;
  const [form, setForm] = useState<ResetForm>(() => initialForm(group));
  const [clusterTopics, setClusterTopics] = useState<TopicSummary[] | null>(null);
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState<"preview" | "execute" | "undo" | null>(null);
  const [preview, setPreview] = useState<{ body: ResetRequest; reset: OffsetReset } | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [confirmText, setConfirmText] = useState("");
  const [executed, setExecuted] = useState<OffsetReset | null>(null);
  const [undoReason, setUndoReason] = useState("");
  const [undone, setUndone] = useState<OffsetReset | null>(null);
  const [undoError, setUndoError] = useState<Error | null>(null);
  const ids = { reason: useId(), strategy: useId(), confirm: useId(), undo: useId() };

  // Partition counts (for checking "0,1,4") and the topic search: every topic of the cluster.
  useEffect(() => {
    const controller = new AbortController();
    listTopics(cluster, { includeInternal: false }, controller.signal).then(
      (topics) => setClusterTopics(topics),
      (err: unknown) => {
        if (!isAbortError(err)) setClusterTopics([]);
      },
    );
    return () => controller.abort();
  }, [cluster]);

  const counts = useMemo(() => new Map((clusterTopics ?? []).map((t) => [t.name, t.partition_count])), [clusterTopics]);
  const formWithCounts: ResetForm = useMemo(
    () => ({ ...form, topics: form.topics.map((t) => ({ ...t, partitionCount: counts.get(t.topic) ?? null })) }),
    [form, counts],
  );
  const built = useMemo(() => buildResetRequest(formWithCounts, true), [formWithCounts]);
  const localErrors = built.ok ? {} : built.errors;
  const previewCurrent = preview !== null && built.ok && samePlanInputs(preview.body, built.body);

  const set = (change: Partial<ResetForm>) => setForm((f) => ({ ...f, ...change }));
  const setTopic = (topic: string, change: Partial<ScopeTopic>) =>
    setForm((f) => ({ ...f, topics: f.topics.map((t) => (t.topic === topic ? { ...t, ...change } : t)) }));

  const place: ErrorPlace = failure ? errorPlace(failure.error, failure.body) : { area: null };
  const serverError = (area: ErrorPlace["area"], topic?: string) =>
    failure && place.area === area && place.topic === topic ? failure.error : null;

  const onPreview = async () => {
    setAttempted(true);
    if (!built.ok) return;
    const body = built.body;
    setBusy("preview");
    setFailure(null);
    try {
      const reset = await createOffsetReset(cluster, groupId, body);
      setPreview({ body, reset });
      setExecuted(null);
      setUndone(null);
      setUndoError(null);
      onChanged();
    } catch (err) {
      setFailure({ error: asError(err), body, action: "preview" });
    } finally {
      setBusy(null);
    }
  };

  const reason = form.reason.trim();
  const confirmed = confirmText === groupId;
  const canExecute =
    previewCurrent && preview!.reset.plan.length > 0 && confirmed && reason !== "" && busy === null && !executed;

  const onExecute = async () => {
    if (!canExecute || !built.ok) return;
    const body: ResetRequest = { ...built.body, dry_run: false, reason };
    setBusy("execute");
    setFailure(null);
    try {
      // Executes the previewed plan itself; the server refuses (409) if it no longer holds.
      const reset = await executeOffsetReset(preview!.reset.id, reason);
      setExecuted(reset);
      setUndoReason(`Undo of reset #${reset.id}`);
      setUndone(null);
      setUndoError(null);
      onChanged();
    } catch (err) {
      setFailure({ error: asError(err), body, action: "execute" });
    } finally {
      setBusy(null);
    }
  };

  const onUndo = async () => {
    if (!executed || !undoReason.trim()) return;
    setBusy("undo");
    setUndoError(null);
    try {
      const reset = await undoOffsetReset(executed.id, undoReason.trim());
      setUndone(reset);
      onChanged();
    } catch (err) {
      setUndoError(asError(err));
    } finally {
      setBusy(null);
    }
  };

  const startOver = () => {
    setPreview(null);
    setExecuted(null);
    setUndone(null);
    setUndoError(null);
    setFailure(null);
    setConfirmText("");
    setAttempted(false);
  };

  const members = group.members.length;
  const fromFile = form.strategy === "from_file";
  const bannerFailure = failure && place.area === null && !isGroupActive(failure.error) ? failure : null;

  const executeHint = !preview
    ? "Preview first: execution runs exactly the previewed inputs."
    : !previewCurrent
      ? "The inputs changed since the preview: preview again."
      : preview.reset.plan.length === 0
        ? "The preview has no partition: nothing to execute."
        : reason === ""
          ? "Give a reason (step 3)."
          : !confirmed
            ? `Type the group id ${groupId} exactly.`
            : null;

  return {
    attempted,
    bannerFailure,
    built,
    busy,
    canExecute,
    cluster,
    clusterTopics,
    confirmText,
    confirmed,
    counts,
    executeHint,
    executed,
    failure,
    form,
    formWithCounts,
    fromFile,
    group,
    groupId,
    ids,
    localErrors,
    members,
    onChanged,
    onClose,
    onExecute,
    onPreview,
    onUndo,
    place,
    preview,
    previewCurrent,
    reason,
    serverError,
    set,
    setAttempted,
    setBusy,
    setClusterTopics,
    setConfirmText,
    setExecuted,
    setFailure,
    setForm,
    setPreview,
    setTopic,
    setUndoError,
    setUndoReason,
    setUndone,
    startOver,
    undoError,
    undoReason,
    undone,
  };
}

export type ResetWizardState = ReturnType<typeof useResetWizard>;

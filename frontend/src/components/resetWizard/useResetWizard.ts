import { useQuery } from "@tanstack/react-query";
import { useId, useMemo, useState } from "react";
import { ApiError, type ApprovalRequested } from "../../api/client";
import { createOffsetReset, executeOffsetReset, undoOffsetReset } from "../../api/endpoints";
import { topicListQuery } from "../../api/queries";
import type { GroupDetail, OffsetReset, ResetRequest } from "../../api/types";
import { isApprovalRequested } from "../../lib/approvals";
import { groupTopics, isGroupActive } from "../../lib/groupStates";
import {
  buildResetRequest,
  errorPlace,
  initialResetForm,
  placedProblems,
  samePlanInputs,
  type ErrorPlace,
  type ResetForm,
  type ScopeTopic,
} from "../../lib/resetForm";

/** Props of the reset wizard (and of its state hook). */
export interface ResetWizardProps {
  cluster: string;
  group: GroupDetail;
  /** After anything was written (a preview, an execution, an undo): refresh the group and history. */
  onChanged: () => void;
  onClose: () => void;
}

/** A request that failed, with the plan inputs it was about (to place a 400 next to its field). */
export interface Failure {
  error: Error;
  body: ResetRequest | null;
  action: "preview" | "execute";
}

const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));

/**
 * The wizard's state and actions: the form (scope, strategy, reason), the preview (a dry run),
 * the execution of exactly that preview (by its id) and its undo, and what each step shows.
 * Executing needs the preview of exactly the current inputs, a reason and the typed group id.
 */
export function useResetWizard({ cluster, group, onChanged, onClose }: ResetWizardProps) {
  const groupId = group.group_id;
  const [form, setForm] = useState<ResetForm>(() => initialResetForm(groupTopics(group)));
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState<"preview" | "execute" | "undo" | null>(null);
  const [preview, setPreview] = useState<{ body: ResetRequest; reset: OffsetReset } | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [confirmText, setConfirmText] = useState("");
  const [executed, setExecuted] = useState<OffsetReset | null>(null);
  /** On a protected cluster: executing made a request for a second operator (nothing executed). */
  const [requested, setRequested] = useState<ApprovalRequested["approval"] | null>(null);
  const [undoReason, setUndoReason] = useState("");
  const [undone, setUndone] = useState<OffsetReset | null>(null);
  const [undoError, setUndoError] = useState<Error | null>(null);
  const ids = { reason: useId(), strategy: useId(), confirm: useId(), undo: useId() };

  // Partition counts (for checking "0,1,4") and the topic search: every topic of the cluster
  // (asked for once when the wizard opens; none when that fails).
  const topicList = useQuery({ ...topicListQuery(cluster), refetchOnWindowFocus: false });
  const { data: topicsData, isError: topicsFailed } = topicList;
  const clusterTopics = useMemo(() => topicsData ?? (topicsFailed ? [] : null), [topicsData, topicsFailed]);

  const counts = useMemo(() => new Map((clusterTopics ?? []).map((t) => [t.name, t.partition_count])), [clusterTopics]);
  const built = useMemo(
    () =>
      buildResetRequest(
        { ...form, topics: form.topics.map((t) => ({ ...t, partitionCount: counts.get(t.topic) ?? null })) },
        true,
      ),
    [form, counts],
  );
  const localErrors = built.ok ? {} : built.errors;
  const previewCurrent = preview !== null && built.ok && samePlanInputs(preview.body, built.body);

  // ---- form changes ----
  const set = (change: Partial<ResetForm>) => setForm((f) => ({ ...f, ...change }));
  const setTopic = (topic: string, change: Partial<ScopeTopic>) =>
    setForm((f) => ({ ...f, topics: f.topics.map((t) => (t.topic === topic ? { ...t, ...change } : t)) }));
  /** Add a topic of the cluster to the scope (or tick it when it is there). */
  const addTopic = (topic: string) =>
    setForm((f) =>
      f.topics.some((t) => t.topic === topic)
        ? { ...f, topics: f.topics.map((t) => (t.topic === topic ? { ...t, selected: true } : t)) }
        : { ...f, topics: [...f.topics, { topic, selected: true, partitions: "", partitionCount: null, ofGroup: false }] },
    );
  const selectAllTopics = (selected: boolean) =>
    setForm((f) => ({ ...f, topics: f.topics.map((t) => ({ ...t, selected })) }));

  // ---- where a server error shows ----
  const place: ErrorPlace = failure ? errorPlace(failure.error, failure.body) : { area: null };
  const problems = useMemo(() => (failure ? placedProblems(failure.error, failure.body) : []), [failure]);
  /** What the server said about one part of the wizard (every problem there, in plain words), or null. */
  const serverError = (area: ErrorPlace["area"], topic?: string): Error | null => {
    if (!failure) return null;
    const here = problems.filter((p) => p.place.area === area && p.place.topic === topic);
    if (here.length === 0) return null;
    const api = failure.error instanceof ApiError ? failure.error : null;
    return new ApiError(api?.status ?? 400, api?.code ?? "invalid", here.map((p) => p.message).join(" "), api?.details ?? {});
  };
  /** What no field owns and no block of its own shows (group_active has one): a banner. */
  const unplaced = problems.filter((p) => p.place.area === null);
  const bannerFailure: Failure | null =
    !failure || isGroupActive(failure.error)
      ? null
      : problems.length === 0
        ? failure
        : unplaced.length > 0
          ? { ...failure, error: serverError(null)! }
          : null;

  // ---- actions ----
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
      setRequested(null);
      setUndone(null);
      setUndoError(null);
      onChanged();
    } catch (err) {
      setFailure({ error: asError(err), body, action: "preview" });
    } finally {
      setBusy(null);
    }
  };

  /** After a 409 plan_stale: a new preview of the same inputs, to be looked at and confirmed again. */
  const previewAgain = () => {
    setConfirmText("");
    void onPreview();
  };

  const reason = form.reason.trim();
  const confirmed = confirmText === groupId;
  const canExecute =
    previewCurrent &&
    preview!.reset.plan.length > 0 &&
    confirmed &&
    reason !== "" &&
    busy === null &&
    !executed &&
    !requested;

  const onExecute = async () => {
    if (!canExecute || !preview) return;
    setBusy("execute");
    setFailure(null);
    try {
      // Executes the previewed plan itself; the server refuses (409) if it no longer holds.
      const reset = await executeOffsetReset(preview.reset.id, reason);
      setExecuted(reset);
      setUndoReason(`Undo of reset #${reset.id}`);
      setUndone(null);
      setUndoError(null);
      onChanged();
    } catch (err) {
      if (isApprovalRequested(err)) {
        // Held for a second operator: not an execution (nothing changed), a request to follow.
        setRequested(err.approval);
        onChanged();
        return;
      }
      setFailure({ error: asError(err), body: { ...preview.body, dry_run: false, reason }, action: "execute" });
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

  /** Back to the form (kept as it is) for a new preview. */
  const startOver = () => {
    setPreview(null);
    setExecuted(null);
    setRequested(null);
    setUndone(null);
    setUndoError(null);
    setFailure(null);
    setConfirmText("");
    setAttempted(false);
  };

  const executeHint = !preview
    ? "Preview first: execution runs exactly the previewed plan."
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
    cluster,
    group,
    groupId,
    members: group.members.length,
    ids,
    onClose,
    // form
    form,
    set,
    setTopic,
    addTopic,
    selectAllTopics,
    fromFile: form.strategy === "from_file",
    clusterTopics,
    counts,
    attempted,
    built,
    localErrors,
    // server errors
    failure,
    place,
    serverError,
    bannerFailure,
    busy,
    // preview
    preview,
    previewCurrent,
    onPreview,
    previewAgain,
    // execute
    confirmText,
    setConfirmText,
    canExecute,
    executeHint,
    onExecute,
    // result and undo
    executed,
    requested,
    undoReason,
    setUndoReason,
    onUndo,
    undone,
    undoError,
    startOver,
  };
}

export type ResetWizardState = ReturnType<typeof useResetWizard>;

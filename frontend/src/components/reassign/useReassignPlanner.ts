import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useNavigate } from "react-router-dom";
import { ApiError } from "../../api/client";
import { executeReassignment, planReassignment } from "../../api/endpoints";
import { clusterDetailQuery, topicListQuery } from "../../api/queries";
import { queryKeys } from "../../api/queryKeys";
import type { ExecuteReassignmentRequest, Plan, PlanDocument, PlanRequest } from "../../api/types";
import {
  buildPlanRequest,
  inputsKey,
  parseThrottle,
  placeReassignErrors,
  planFileText,
  withReplicas,
  type PlanInputs,
  type PresetForm,
  type ReassignErrors,
  type ReassignField,
  type ReassignMode,
} from "../../lib/reassign";
import { reassignmentPath } from "../../navigation";
import { isApprovalRequested } from "../../lib/approvals";

/** A changed throttle previews again once it has not changed for this long. */
export const THROTTLE_PREVIEW_DELAY_MS = 600;

type Busy = "preview" | "edit" | "throttle" | "execute";

/** A preview and the mode inputs it was made from (inputsKey): when they change, it is stale. */
interface Preview {
  plan: Plan;
  key: string;
}

const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));

/**
 * What the form's inputs offer: the cluster's topics and its live brokers (by id), asked for once
 * (the page polls nothing else while the form is filled in).
 */
export function useReassignSources(cluster: string) {
  const topicList = useQuery({ ...topicListQuery(cluster, { includeInternal: true }), refetchOnWindowFocus: false });
  const detail = useQuery({ ...clusterDetailQuery(cluster), refetchOnWindowFocus: false });
  const liveBrokers = useMemo(
    () => (detail.data ? [...detail.data.brokers].sort((a, b) => a.id - b.id) : undefined),
    [detail.data],
  );
  return { topicList, detail, liveBrokers };
}

export type ReassignSources = ReturnType<typeof useReassignSources>;

/**
 * The new reassignment form's state and actions: the three modes' inputs (first `initial`'s: a
 * link's preset), the throttle and the reason; the preview (POST …/plan), previewed again as the
 * plan document it shows (mode "plan") when a row's replicas are edited or the throttle changes,
 * never planned anew (a spread over brokers is planned with a random start: planning again could
 * move other partitions); then the execution of exactly that document, and the progress page.
 */
export function useReassignPlanner(cluster: string, { topicList, liveBrokers }: ReassignSources, initial: PresetForm) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [mode, setModeState] = useState<ReassignMode>(initial.mode);
  const [topics, setTopics] = useState<ReadonlySet<string>>(() => new Set(initial.topics));
  // None to start with unless a link presets them: which brokers to spread over is a choice to
  // make (--broker-list).
  const [brokers, setBrokers] = useState<ReadonlySet<number>>(() => new Set(initial.brokers));
  const [rfTopic, setRfTopic] = useState(initial.rfTopic);
  const [rf, setRf] = useState("");
  const [json, setJson] = useState("");
  const [throttle, setThrottle] = useState("");
  const [reason, setReason] = useState("");
  const [preview, setPreview] = useState<Preview | null>(null);
  const [errors, setErrors] = useState<ReassignErrors>({});
  const [banner, setBanner] = useState<{ action: "preview" | "execute"; title: string; error: Error } | null>(null);
  const [editError, setEditError] = useState<string | null>(null);
  const [busy, setBusy] = useState<Busy | null>(null);
  const [confirming, setConfirming] = useState(false);
  // Only the answer of the latest preview request counts.
  const seq = useRef(0);
  // The document the next edit applies to: the preview's, with edits still on their way.
  const latestDoc = useRef<PlanDocument | null>(null);

  const inputs: PlanInputs = useMemo(
    () => ({ mode, topics: [...topics], brokers: [...brokers], rfTopic, rf, json, throttle }),
    [mode, topics, brokers, rfTopic, rf, json, throttle],
  );
  const key = inputsKey(inputs);
  const stale = preview !== null && preview.key !== key;
  const parsedThrottle = parseThrottle(throttle);
  const throttleValue = parsedThrottle.ok ? parsedThrottle.value : null;

  /** Editing a field clears what was said about it. */
  const clear = useCallback((...fields: ReassignField[]) => {
    setErrors((current) =>
      fields.some((f) => current[f])
        ? Object.fromEntries(Object.entries(current).filter(([f]) => !fields.includes(f as ReassignField)))
        : current,
    );
  }, []);

  const send = useCallback(
    async (body: PlanRequest, previewKey: string, action: Exclude<Busy, "execute">) => {
      const mine = ++seq.current;
      setBusy(action);
      setBanner(null);
      setEditError(null);
      try {
        const plan = await planReassignment(cluster, body);
        if (mine !== seq.current) return;
        latestDoc.current = plan.proposed;
        setPreview({ plan, key: previewKey });
        setErrors({});
      } catch (err) {
        if (mine !== seq.current) return;
        const placed = placeReassignErrors(err);
        if (action === "edit") {
          // The rows' edits go back to the preview shown.
          latestDoc.current = preview?.plan.proposed ?? null;
          const messages = [...Object.values(placed.fields).flat(), ...(placed.banner ? [placed.banner.message] : [])];
          setEditError(messages.join(" "));
        } else {
          setErrors(placed.fields);
          if (placed.banner) setBanner({ action: "preview", title: "The preview failed", error: placed.banner });
        }
      } finally {
        if (mine === seq.current) setBusy(null);
      }
    },
    [cluster, preview],
  );

  const onPreview = () => {
    const built = buildPlanRequest(inputs);
    setBanner(null);
    if (!built.ok) {
      setErrors(built.errors);
      return;
    }
    void send(built.body, key, "preview");
  };

  /** A row's new replicas: the shown document with them, previewed again. */
  const onEditRow = useCallback(
    (topic: string, partition: number, replicas: number[]) => {
      const base = latestDoc.current;
      if (!base || !preview) return;
      const doc = withReplicas(base, topic, partition, replicas);
      latestDoc.current = doc;
      void send({ plan: doc, throttle_bytes_per_s: throttleValue }, preview.key, "edit");
    },
    [preview, send, throttleValue],
  );

  // A new throttle gives a new time estimate: the same document previewed again.
  useEffect(() => {
    if (!preview || !parsedThrottle.ok || throttleValue === preview.plan.throttle_bytes_per_s) return;
    const timer = setTimeout(() => {
      const doc = latestDoc.current ?? preview.plan.proposed;
      void send({ plan: doc, throttle_bytes_per_s: throttleValue }, preview.key, "throttle");
    }, THROTTLE_PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
    // Only a new throttle or a new preview previews again (`send` changes with the preview).
  }, [throttleValue, parsedThrottle.ok, preview]);

  /** The shown plan in the JSON box, to edit there (the preview stays current: the same document). */
  const onEditAsJson = () => {
    if (!preview) return;
    const text = planFileText(preview.plan.proposed);
    setJson(text);
    setModeState("json");
    clear("plan");
    setPreview({ ...preview, key: inputsKey({ ...inputs, mode: "json", json: text }) });
  };

  // Stable: each of the topic list's rows is memoized on it.
  const onTopics = useCallback(
    (names: readonly string[], checked: boolean) => {
      clear("topics");
      setTopics((current) => {
        const next = new Set(current);
        for (const name of names) {
          if (checked) next.add(name);
          else next.delete(name);
        }
        return next;
      });
    },
    [clear],
  );

  const executeBody: ExecuteReassignmentRequest | null =
    preview && parsedThrottle.ok
      ? { plan: preview.plan.proposed, throttle_bytes_per_s: throttleValue, reason: reason.trim() }
      : null;

  const onExecute = async () => {
    if (!executeBody) return;
    setBusy("execute");
    setBanner(null);
    try {
      const started = await executeReassignment(cluster, executeBody);
      // Its page shows the answer at once (and follows it from there).
      client.setQueryData(queryKeys.reassignment(cluster, started.id), started);
      void client.invalidateQueries({ queryKey: queryKeys.reassignmentList(cluster) });
      navigate(reassignmentPath(cluster, started.id));
    } catch (err) {
      if (isApprovalRequested(err)) {
        // A protected cluster: held for another admin; the notice beside Execute links to it.
        setBanner({ action: "execute", title: "", error: err });
        setConfirming(false);
        setBusy(null);
        return;
      }
      // The reason's and throttle's problems beside them; the rest (the plan Kafka refused, a
      // 409…) beside Execute.
      const placed = placeReassignErrors(err);
      const { reason: reasonErrors, throttle_bytes_per_s: throttleErrors, ...rest } = placed.fields;
      setErrors({ ...(reasonErrors && { reason: reasonErrors }), ...(throttleErrors && { throttle_bytes_per_s: throttleErrors }) });
      const others = Object.values(rest).flat();
      if (others.length > 0 || placed.banner) {
        const error =
          others.length === 0 && placed.banner
            ? placed.banner
            : new Error([...others, ...(placed.banner ? [placed.banner.message] : [])].join(" "));
        setBanner({ action: "execute", title: "Could not start the reassignment", error: asError(error) });
      }
      // Whatever is moving now (a 409 names it) shows in the lists above.
      if (err instanceof ApiError && err.status === 409) {
        void client.invalidateQueries({ queryKey: queryKeys.reassignmentList(cluster) });
      }
      setConfirming(false);
      setBusy(null);
    }
  };

  return {
    mode,
    setMode: (next: ReassignMode) => {
      setModeState(next);
      setBanner(null);
    },
    topicList,
    liveBrokers,
    topics,
    onTopics,
    brokers,
    onBroker: (id: number, checked: boolean) => {
      clear("brokers");
      setBrokers((current) => {
        const next = new Set(current);
        if (checked) next.add(id);
        else next.delete(id);
        return next;
      });
    },
    rfTopic,
    onRfTopic: (value: string) => {
      clear("topic");
      setRfTopic(value);
    },
    rf,
    onRf: (value: string) => {
      clear("replication_factor");
      setRf(value);
    },
    json,
    onJson: (value: string) => {
      clear("plan");
      setJson(value);
    },
    throttle,
    throttleValue,
    throttleValid: parsedThrottle.ok,
    onThrottle: (value: string) => {
      clear("throttle_bytes_per_s");
      setThrottle(value);
    },
    reason,
    onReason: (value: string) => {
      clear("reason");
      setReason(value);
    },
    errors,
    banner,
    editError,
    onInvalidEdit: setEditError,
    busy,
    preview: preview?.plan ?? null,
    stale,
    onPreview,
    onEditRow,
    onEditAsJson,
    executeBody,
    confirming,
    onConfirm: () => setConfirming(true),
    onDismiss: () => setConfirming(false),
    onExecute,
  };
}

export type ReassignPlanner = ReturnType<typeof useReassignPlanner>;

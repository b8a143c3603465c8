import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { brokerQuery } from "../../api/queries";
import { EMPTY_PRESET, presetForm, type PresetForm, type PresetRequest } from "../../lib/reassign";
import type { ReassignSources } from "./useReassignPlanner";

/**
 * The form's first inputs from a link's preset (lib/reassign presetForm), once what it is checked
 * against has answered (or failed): the topics, the live brokers and, to drain one, that broker's
 * replicas (GET …/brokers/{id}, its log dirs). Undefined until then; at once without a preset;
 * the first answer kept.
 */
export function useReassignPreset(
  cluster: string,
  request: PresetRequest,
  { topicList, detail }: ReassignSources,
): PresetForm | undefined {
  const { preset } = request;
  const drain = preset !== null && "drain" in preset ? preset.drain : null;
  const drained = useQuery({ ...brokerQuery(cluster, drain ?? -1), enabled: drain !== null, refetchOnWindowFocus: false });
  const waiting = preset !== null && (topicList.isPending || detail.isPending || (drain !== null && drained.isPending));

  const current = useMemo(() => {
    if (preset === null && request.ignored.length === 0) return EMPTY_PRESET;
    if (waiting) return undefined;
    return presetForm(request, {
      topics: topicList.data,
      brokers: detail.data?.brokers.map((b) => b.id),
      drained: drained.data ?? drained.error ?? undefined,
    });
  }, [preset, request, waiting, topicList.data, detail.data, drained.data, drained.error]);
  // Read once: a later answer changes neither the form nor its notes.
  const [first, setFirst] = useState<PresetForm | undefined>(current);
  if (first === undefined && current !== undefined) setFirst(current);
  return first ?? current;
}

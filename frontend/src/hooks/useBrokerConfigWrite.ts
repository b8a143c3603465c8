import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { patchBrokerConfigs, patchBrokerDefaults } from "../api/endpoints";
import { replaceQueryData } from "../api/queryClient";
import { queryKeys } from "../api/queryKeys";
import type { BrokerDetail, ConfigPatch } from "../api/types";
import type { ConfigLevel } from "../lib/brokerConfigs";

/** Applies a config change at a level; rejects with the API error (nothing changed then). */
export type BrokerConfigWrite = (level: ConfigLevel, patch: ConfigPatch) => Promise<void>;

/**
 * The broker page's config writes: PATCH this broker's configs or the cluster-wide ones, show the
 * answer at once (the broker's configs, or the cluster-wide list), then fetch every broker query of
 * the cluster again (a cluster-wide value changes what each broker reports, a broker's own value
 * what it reports as its source).
 */
export function useBrokerConfigWrite(cluster: string, brokerId: number): BrokerConfigWrite {
  const client = useQueryClient();
  return useCallback(
    async (level, patch) => {
      if (level === "broker") {
        const configs = await patchBrokerConfigs(cluster, brokerId, patch);
        const key = queryKeys.broker(cluster, brokerId);
        const detail = client.getQueryData<BrokerDetail>(key);
        if (detail) replaceQueryData(client, key, { ...detail, configs });
      } else {
        replaceQueryData(client, queryKeys.brokerDefaults(cluster), await patchBrokerDefaults(cluster, patch));
      }
      void client.invalidateQueries({ queryKey: queryKeys.brokers(cluster) });
    },
    [client, cluster, brokerId],
  );
}

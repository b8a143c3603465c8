import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import { useParams } from "react-router-dom";
import { quotaListQuery } from "../api/queries";
import { refetchNow } from "../api/queryClient";
import { queryKeys } from "../api/queryKeys";
import type { QuotaChanged, QuotaEntity } from "../api/types";
import { hasRole, useCurrentUser } from "../components/CurrentUser";
import { FilterSelect, RowCount } from "../components/ListToolbar";
import { clusterCrumbs, loadStateOf, PageShell, Stale } from "../components/PageShell";
import { QuotaForm } from "../components/quotas/QuotaForm";
import { QuotasTable } from "../components/quotas/QuotasTable";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { usePolledQuery } from "../hooks/usePolledQuery";
import { useQueryUpdate } from "../hooks/useQueryUpdate";
import { columnsFor, EMPTY_QUOTA_FORM, formEntity, NO_QUOTAS, QUOTA_FILTERS, quotaFormOf, readQuotaFilter, sameEntity, valuesOf } from "../lib/quotas";

export const QUOTAS_POLL_MS = 30_000;

/** A change's answer and when it came: newer than the list, its values are the entity's now. */
interface Saved {
  answer: QuotaChanged;
  at: number;
}

/**
 * /clusters/:cluster/quotas — Quotas tab (admins; docs/governance.md): the client quotas as
 * kafka-configs.sh --describe lists them, filtered by the server (URL query `entity_type`: users,
 * clients, users,clients or ips), polled every 30 s; below, the form that sets or removes an
 * entity's values (a row clicked loads its entity), with the answer's before → after.
 */
export function QuotasPage() {
  const { cluster = "" } = useParams<{ cluster: string }>();
  useDocumentTitle(`Quotas · ${cluster}`);
  const client = useQueryClient();
  const { user } = useCurrentUser();
  // Only admins (of this cluster) may read or change quotas: the others get a notice (and the
  // server's 403), no form.
  const admin = hasRole(user, "admin", cluster);
  const [params, update] = useQueryUpdate();
  const filter = readQuotaFilter(params);
  const list = usePolledQuery(quotaListQuery(cluster, filter?.types ?? []), QUOTAS_POLL_MS);
  // Every entity's values, for the form: the filter may hide the one it edits. Without a filter
  // this is the list's own query (one call).
  const all = useQuery(quotaListQuery(cluster));
  const load = loadStateOf(list);
  const { data } = list;

  const [form, setForm] = useState(EMPTY_QUOTA_FORM);
  const [saved, setSaved] = useState<Saved | null>(null);
  const entity = formEntity(form);
  const current =
    saved && sameEntity(saved.answer.entity, entity) && saved.at >= all.dataUpdatedAt ? saved.answer.values : valuesOf(all.data, entity);

  const formBox = useRef<HTMLDivElement>(null);
  const onSelect = useCallback((selected: QuotaEntity) => {
    setForm(quotaFormOf(selected));
    formBox.current?.scrollIntoView?.({ block: "nearest", behavior: "smooth" });
  }, []);

  const onSaved = (answer: QuotaChanged) => {
    setSaved({ answer, at: Date.now() });
    void refetchNow(client, queryKeys.quotas(cluster));
  };

  const actions = (
    <>
      {user && !admin && (
        <p className="notice notice-warn" data-testid="admin-only">
          Only admins can see and change client quotas; the server refuses this page for your role ({user.cluster_roles[cluster] ?? "none"}).
        </p>
      )}
      {admin && (
        <div className="toolbar" data-testid="quotas-filter">
        <FilterSelect
          label="Entity type"
          value={filter?.value ?? ""}
          onChange={(value) => update({ entity_type: value })}
          testId="quotas-filter-type"
          anyLabel="All entities"
          options={QUOTA_FILTERS}
        />
        <span className="toolbar-spacer" />
        {data && <RowCount shown={data.length} total={data.length} noun="entity" nouns="entities" testId="quotas-count" />}
        </div>
      )}
    </>
  );

  return (
    <PageShell
      crumbs={clusterCrumbs(cluster, "quotas")}
      title={cluster}
      updatedAt={list.updatedAt}
      tabsOf={cluster}
      actions={actions}
      {...load}
      // The form stays usable when a refresh of the list fails: only the table is dimmed.
      dimStale={false}
      what="the quotas"
      loadingLabel="Loading quotas…"
      testId="quotas-page"
    >
      {data && (
        <Stale when={load.stale}>
          <QuotasTable
            rows={data}
            keys={columnsFor(filter)}
            selected={entity}
            onSelect={onSelect}
            empty={filter ? filter.none : NO_QUOTAS}
          />
          {admin && data.length > 0 && <p className="field-hint quotas-hint">Click a row to load it into the form.</p>}
        </Stale>
      )}
      {admin && (
        <div ref={formBox} className="quota-form-box">
          {/* Another cluster's form starts empty. */}
          <QuotaForm key={cluster} cluster={cluster} values={form} onChange={setForm} current={current} onSaved={onSaved} />
        </div>
      )}
    </PageShell>
  );
}

import { useQueryClient } from "@tanstack/react-query";
import { memo, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useParams } from "react-router-dom";
import { deleteAcls } from "../api/endpoints";
import { aclListQuery } from "../api/queries";
import { refetchNow } from "../api/queryClient";
import { queryKeys } from "../api/queryKeys";
import type { Acl, AclDeleted, AclFilter } from "../api/types";
import { AclBindingsTable, AclCells } from "../components/acls/AclBindings";
import { AddAclsPanel } from "../components/acls/AddAclsPanel";
import { PrincipalSummary } from "../components/acls/PrincipalSummary";
import { ErrorOrApprovalNotice } from "../components/ApprovalNotice";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { hasRole, useCurrentUser } from "../components/CurrentUser";
import { FilterSelect, RowCount } from "../components/ListToolbar";
import { clusterCrumbs, loadStateOf, PageShell } from "../components/PageShell";
import { SortHeaders, virtualRowProps, VirtualTable, type SortColumn } from "../components/SortableTable";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { usePolledQuery } from "../hooks/usePolledQuery";
import { useQueryUpdate } from "../hooks/useQueryUpdate";
import { useSortQuery } from "../hooks/useSortQuery";
import {
  ACL_PATTERN_FILTERS,
  ACL_RESOURCE_TYPES,
  aclKey,
  aclListQueryOf,
  effectivePattern,
  matchingDeleteFilter,
  readAclsFilter,
  rowDeleteFilter,
  sortAcls,
  type AclSortKey,
} from "../lib/acls";
import { isApprovalRequested } from "../lib/approvals";
import { plural } from "../lib/format";

export const ACLS_POLL_MS = 30_000;
/** Typing in the name or principal box asks the server this long after the last key. */
export const ACLS_TYPING_MS = 300;
/** Height of one table row in px (fixed in styles.css: .vtable td). */
export const ACL_ROW_HEIGHT = 36;

const COLUMNS: SortColumn<AclSortKey>[] = [
  { key: "resource_type", label: "Resource type", numeric: false },
  { key: "resource_name", label: "Resource name", numeric: false },
  { key: "pattern_type", label: "Pattern", numeric: false, title: "LITERAL: this name exactly; PREFIXED: every name starting with it" },
  { key: "principal", label: "Principal", numeric: false },
  { key: "host", label: "Host", numeric: false, title: "* for any host" },
  { key: "operation", label: "Operation", numeric: false },
  { key: "permission", label: "Permission", numeric: false, title: "A DENY wins over any ALLOW" },
];

/** `value`, `ms` after it last changed (at once the first time). */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** A delete on its way: previewed (dry run) first, then confirmed. */
interface PendingDelete {
  /** Which button asked: `row-<index>` or `matching`. */
  source: string;
  filter: AclFilter;
  /** The preview's answer; null while it is asked for. */
  preview: AclDeleted | null;
  busy: boolean;
  error: Error | null;
}

/** What the last delete did (and whether it was what the preview listed). */
interface DeleteOutcome {
  deleted: number;
  previewed: number;
}

/**
 * /clusters/:cluster/acls — the cluster's ACL bindings as kafka-acls.sh --list prints them,
 * filtered by the server (URL query: resource_type, resource_name, pattern_type, principal; sort,
 * order=desc), polled every 30 s; thousands of rows stay smooth (virtualized). Admins also add
 * bindings (one, or the --producer / --consumer sets; previewed first) and delete them: one row
 * (a filter of all its seven fields) or everything the filter matches, each previewed and listed
 * in the confirmation before anything goes. A principal clicked in the list filters by it alone,
 * and with a principal in the filter the list is summed up above it: what that principal may do,
 * by resource (PrincipalSummary).
 */
export function AclsPage() {
  const { cluster = "" } = useParams<{ cluster: string }>();
  useDocumentTitle(`ACLs · ${cluster}`);
  const { user } = useCurrentUser();
  const admin = hasRole(user, "admin");
  const client = useQueryClient();

  const [params, update] = useQueryUpdate();
  const filter = readAclsFilter(params);
  const sort = useSortQuery(COLUMNS, "resource_type");
  const { sortKey, desc } = sort;

  // The text boxes ask the server once typing pauses.
  const resourceName = useSettled(filter.resourceName, ACLS_TYPING_MS);
  const principal = useSettled(filter.principal, ACLS_TYPING_MS);
  const query = aclListQueryOf({ ...filter, resourceName, principal });
  const list = usePolledQuery(aclListQuery(cluster, query), ACLS_POLL_MS);
  const data = list.data;
  const rows = useMemo(() => (data ? sortAcls(data, sortKey, desc) : []), [data, sortKey, desc]);

  const [adding, setAdding] = useState(false);
  const [pending, setPending] = useState<PendingDelete | null>(null);
  const [previewError, setPreviewError] = useState<Error | null>(null);
  const [outcome, setOutcome] = useState<DeleteOutcome | null>(null);
  const requestId = useRef(0);

  const refetchList = () => void refetchNow(client, queryKeys.acls(cluster));

  /** Preview a delete of `deleteFilter` (dry run); the confirmation opens with its answer. */
  const startDelete = async (source: string, deleteFilter: AclFilter) => {
    const id = ++requestId.current;
    setPreviewError(null);
    setOutcome(null);
    setPending({ source, filter: deleteFilter, preview: null, busy: true, error: null });
    try {
      const preview = await deleteAcls(cluster, { filter: deleteFilter, dry_run: true });
      if (id !== requestId.current) return;
      setPending({ source, filter: deleteFilter, preview, busy: false, error: null });
    } catch (error) {
      if (id !== requestId.current) return;
      setPending(null);
      setPreviewError(error instanceof Error ? error : new Error(String(error)));
    }
  };

  // Stable for the memoized rows: the latest startDelete through a ref.
  const startDeleteRef = useRef(startDelete);
  startDeleteRef.current = startDelete;
  const onRowDelete = useCallback((acl: Acl, index: number) => void startDeleteRef.current(`row-${index}`, rowDeleteFilter(acl)), []);

  // A principal clicked in the list: its view (every binding of it, and the summary above).
  const updateRef = useRef(update);
  updateRef.current = update;
  const onPrincipal = useCallback(
    (clicked: string) => updateRef.current({ principal: clicked, resource_type: null, resource_name: null, pattern_type: null }),
    [],
  );
  const shownPrincipal = principal.trim();
  const narrowed = Boolean(query.resource_type || query.resource_name || query.pattern_type);

  const confirmDelete = async () => {
    if (!pending?.preview) return;
    const { preview, filter: deleteFilter } = pending;
    if (preview.bindings.length === 0) {
      setPending(null);
      return;
    }
    const id = ++requestId.current;
    setPending({ ...pending, busy: true, error: null });
    try {
      const answer = await deleteAcls(cluster, { filter: deleteFilter, dry_run: false });
      if (id !== requestId.current) return;
      setPending(null);
      setOutcome({ deleted: answer.bindings.length, previewed: preview.bindings.length });
      refetchList();
    } catch (error) {
      if (id !== requestId.current) return;
      if (isApprovalRequested(error)) {
        // A protected cluster: held for a second admin; its notice shows under the toolbar.
        setPending(null);
        setPreviewError(error);
        return;
      }
      setPending({ ...pending, busy: false, error: error instanceof Error ? error : new Error(String(error)) });
    }
  };

  const cancelDelete = () => {
    requestId.current++;
    setPending(null);
  };

  const matching = matchingDeleteFilter(filter);
  const previewing = pending?.preview === null ? pending.source : null;
  const pattern = effectivePattern(filter);

  const actions = (
    <>
      <div className="toolbar" data-testid="acls-filter">
        <FilterSelect
          label="Resource type"
          value={filter.resourceType ?? ""}
          onChange={(value) => update({ resource_type: value })}
          testId="acls-filter-type"
          anyLabel="Any resource type"
          options={ACL_RESOURCE_TYPES}
        />
        <input
          type="search"
          className="input mono"
          placeholder="Resource name…"
          aria-label="Resource name"
          value={filter.resourceName}
          onChange={(event) => update({ resource_name: event.target.value })}
          data-testid="acls-filter-name"
        />
        <select
          className="input"
          aria-label="Pattern"
          value={pattern}
          title={ACL_PATTERN_FILTERS.find((p) => p.value === pattern)?.help}
          onChange={(event) => update({ pattern_type: event.target.value })}
          data-testid="acls-filter-pattern"
        >
          {ACL_PATTERN_FILTERS.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
        <input
          type="search"
          className="input mono"
          placeholder="Principal, e.g. User:alice"
          aria-label="Principal"
          value={filter.principal}
          onChange={(event) => update({ principal: event.target.value })}
          data-testid="acls-filter-principal"
        />
        <span className="toolbar-spacer" />
        {data && <RowCount shown={rows.length} total={rows.length} noun="binding" testId="acls-count" />}
        {admin && matching && (
          <button
            type="button"
            className="button button-danger-outline"
            disabled={previewing !== null}
            onClick={() => void startDelete("matching", matching)}
            title="Preview, then delete every binding this filter selects"
            data-testid="acls-delete-matching"
          >
            {previewing === "matching" ? "Previewing…" : "Delete matching…"}
          </button>
        )}
        {admin && !adding && (
          <button type="button" className="button button-primary" onClick={() => setAdding(true)} data-testid="acls-add-open">
            Add ACLs
          </button>
        )}
      </div>

      {admin && adding && <AddAclsPanel cluster={cluster} onCreated={refetchList} onClose={() => setAdding(false)} />}

      {previewError && <ErrorOrApprovalNotice error={previewError} title="Could not preview the delete" />}
      {outcome && (
        <p className="notice notice-ok" role="status" data-testid="acls-deleted" data-count={outcome.deleted}>
          Deleted {outcome.deleted} {plural(outcome.deleted, "binding")}.
          {outcome.deleted !== outcome.previewed &&
            ` The preview listed ${outcome.previewed}: the bindings changed in between.`}
        </p>
      )}
    </>
  );

  return (
    <PageShell
      crumbs={clusterCrumbs(cluster, "acls")}
      title={cluster}
      updatedAt={list.updatedAt}
      tabsOf={cluster}
      actions={actions}
      {...loadStateOf(list)}
      what="the ACLs"
      loadingLabel="Loading ACLs…"
      skeletonRows={6}
      testId="acls-page"
    >
      {data && shownPrincipal && (
        <PrincipalSummary
          cluster={cluster}
          principal={shownPrincipal}
          bindings={data}
          narrowed={narrowed}
          onShowAll={() => update({ resource_type: null, resource_name: null, pattern_type: null })}
          onPrincipal={(other) => update({ principal: other })}
          onClear={() => update({ principal: null })}
        />
      )}
      {data && (
        <VirtualTable
          testId="acls"
          rows={rows}
          rowKey={aclKey}
          rowHeight={ACL_ROW_HEIGHT}
          head={
            <>
              <SortHeaders columns={COLUMNS} {...sort} />
              {admin && (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </>
          }
          span={COLUMNS.length + (admin ? 1 : 0)}
          empty={Object.keys(query).length === 0 ? "This cluster has no ACLs." : "No binding matches the filter."}
          renderRow={(row, index) => (
            <AclRow
              key={aclKey(row)}
              row={row}
              index={index}
              admin={admin}
              previewing={previewing === `row-${index}`}
              disabled={previewing !== null}
              onDelete={onRowDelete}
              onPrincipal={onPrincipal}
            />
          )}
        />
      )}

      {pending?.preview && (
        <ConfirmDialog
          title={pending.source === "matching" ? "Delete the matching ACLs" : "Delete this ACL"}
          confirmLabel={
            pending.preview.bindings.length === 0
              ? "Close"
              : `Delete ${pending.preview.bindings.length} ${plural(pending.preview.bindings.length, "binding")}`
          }
          busy={pending.busy}
          error={pending.error}
          errorTestId="acls-delete-error"
          confirmTestId="acls-delete-confirm"
          wide
          onConfirm={() => void confirmDelete()}
          onCancel={cancelDelete}
        >
          <div data-testid="acls-delete-preview" data-count={pending.preview.bindings.length}>
            {pending.preview.bindings.length === 0 ? (
              <p>Nothing matches this filter (any more): there is nothing to delete.</p>
            ) : (
              <>
                <p>
                  {pending.preview.bindings.length === 1
                    ? "Exactly this binding will be deleted from Kafka:"
                    : `Exactly these ${pending.preview.bindings.length} bindings will be deleted from Kafka:`}
                </p>
                <AclBindingsTable bindings={pending.preview.bindings} testId="acls-delete-preview-table" />
              </>
            )}
          </div>
        </ConfirmDialog>
      )}
    </PageShell>
  );
}

interface AclRowProps {
  row: Acl;
  index: number;
  admin: boolean;
  /** This row's delete is being previewed. */
  previewing: boolean;
  /** Another delete is being previewed. */
  disabled: boolean;
  onDelete: (acl: Acl, index: number) => void;
  /** The principal clicked: filter by it. */
  onPrincipal: (principal: string) => void;
}

/** One binding; memoized: a poll answering the same bindings re-renders nothing. */
const AclRow = memo(function AclRow({ row, index, admin, previewing, disabled, onDelete, onPrincipal }: AclRowProps) {
  return (
    <tr data-testid={`acl-row-${index}`} {...virtualRowProps(index)} data-permission={row.permission} data-pattern={row.pattern_type}>
      <AclCells acl={row} onPrincipal={onPrincipal} testId={`acl-principal-${index}`} />
      {admin && (
        <td className="row-actions">
          <button
            type="button"
            className="button button-small button-danger-outline"
            disabled={disabled}
            onClick={() => onDelete(row, index)}
            data-testid={`acl-delete-${index}`}
          >
            {previewing ? "Previewing…" : "Delete"}
          </button>
        </td>
      )}
    </tr>
  );
});

import { hashKey } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { listAudit } from "../api/endpoints";
import { auditNewestQuery } from "../api/queries";
import { queryKeys } from "../api/queryKeys";
import type { AuditEntry, AuditFilterQuery } from "../api/types";
import { mergeNewest, mergeOlder, olderCursor, type AuditLog } from "../lib/audit";
import { usePolledQuery, type PolledQuery } from "./usePolledQuery";

/** Entries per page (the API allows 1..1000). */
export const AUDIT_PAGE_SIZE = 200;
/** The newest page is asked again this often. */
export const AUDIT_POLL_MS = 30_000;

export interface AuditLogState {
  /** The newest page's query (PageShell's load state). */
  newest: PolledQuery<AuditEntry[]>;
  /** The entries shown, newest first: the newest page and the older ones loaded; while another
   * filter's first page is on its way, the last filter's (`switching`). */
  log: AuditLog | null;
  /** The entries shown are the last filter's: the new one's are on their way. */
  switching: boolean;
  loadOlder: () => void;
  loadingOlder: boolean;
  olderError: Error | null;
}

/**
 * The audit log of a filter, newest first: the newest page polled every 30 s (lib/audit
 * mergeNewest keeps the older pages loaded under it, gap-free), "Load older" asking the page before
 * the oldest shown (`before_id`). Another filter starts again from its newest page.
 */
export function useAuditLog(filter: AuditFilterQuery): AuditLogState {
  const newest = usePolledQuery(auditNewestQuery(filter, AUDIT_PAGE_SIZE), AUDIT_POLL_MS);
  const key = hashKey(queryKeys.auditNewest(filter, AUDIT_PAGE_SIZE));
  const [state, setState] = useState<{ key: string; log: AuditLog } | null>(null);
  const [older, setOlder] = useState<{ key: string; busy: boolean; error: Error | null } | null>(null);
  const keyRef = useRef(key);
  keyRef.current = key;
  const filterRef = useRef(filter);
  filterRef.current = filter;
  const stateRef = useRef(state);
  stateRef.current = state;

  const page = newest.data;
  useEffect(() => {
    if (!page) return;
    setState((prev) => ({ key, log: mergeNewest(prev?.key === key ? prev.log : null, page, AUDIT_PAGE_SIZE) }));
  }, [page, key]);

  const loadOlder = useCallback(() => {
    const startedKey = keyRef.current;
    const current = stateRef.current?.key === startedKey ? stateRef.current.log : null;
    const before = olderCursor(current);
    if (before === null || current?.end) return;
    setOlder({ key: startedKey, busy: true, error: null });
    listAudit({ ...filterRef.current, limit: AUDIT_PAGE_SIZE, before_id: before }).then(
      (entries) => {
        if (keyRef.current !== startedKey) return;
        setState((prev) => (prev && prev.key === startedKey ? { key: startedKey, log: mergeOlder(prev.log, entries, AUDIT_PAGE_SIZE) } : prev));
        setOlder(null);
      },
      (error: unknown) => {
        if (keyRef.current !== startedKey) return;
        setOlder({ key: startedKey, busy: false, error: error instanceof Error ? error : new Error(String(error)) });
      },
    );
  }, []);

  const current = state?.key === key ? state.log : null;
  const mine = older?.key === key ? older : null;
  return {
    newest,
    log: current ?? state?.log ?? null,
    switching: current === null && state !== null,
    loadOlder,
    loadingOlder: mine?.busy ?? false,
    olderError: mine?.error ?? null,
  };
}

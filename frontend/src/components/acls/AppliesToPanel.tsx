import { queryOptions } from "@tanstack/react-query";
import { useMemo } from "react";
import { Link } from "react-router-dom";
import { listAcls } from "../../api/endpoints";
import { queryKeys } from "../../api/queryKeys";
import type { AclResourceType } from "../../api/types";
import { usePolledQuery } from "../../hooks/usePolledQuery";
import { ACL_REACH_LABELS, aclReach, isSecurityDisabled, resourceNoun, sortApplying, whyAclApplies } from "../../lib/acls";
import { aclsPath } from "../../navigation";
import { ErrorBanner } from "../ErrorBanner";
import { Loading } from "../Loading";
import { Stale } from "../PageShell";
import { Table, type HeaderColumn } from "../TableParts";
import { PermissionBadge } from "./AclBindings";
import "./acls.css";

/** ACLs change rarely and by hand: a slow poll is enough. */
export const ACL_PANEL_POLL_MS = 30_000;

const COLUMNS: HeaderColumn[] = [
  { label: "Pattern", title: "literal: this name; prefixed: every name starting with it; *: every name" },
  "Bound to",
  "Principal",
  { label: "Host", title: "* for any host" },
  "Operation",
  { label: "Permission", title: "A DENY wins over any ALLOW" },
  "Why it applies",
];

interface AppliesToPanelProps {
  cluster: string;
  resourceType: Extract<AclResourceType, "TOPIC" | "GROUP">;
  name: string;
}

/**
 * The ACL bindings that apply to one topic or group (`pattern_type=match`: set on its name, the
 * wildcard `*`, and every prefix its name starts with), most specific first, each with why it
 * applies; every principal links to its bindings on the ACLs page, and "Manage on the ACLs page"
 * opens that page with this filter. A cluster without an authorizer (SECURITY_DISABLED) gets a
 * quiet notice, not an error. Polled every 30 s.
 */
export function AppliesToPanel({ cluster, resourceType, name }: AppliesToPanelProps) {
  const filter = { resource_type: resourceType, resource_name: name, pattern_type: "match" as const };
  // The ACLs page's key (one cache), without its placeholder: another topic's bindings must never
  // show under this one while its own are asked.
  const list = usePolledQuery(
    queryOptions({ queryKey: queryKeys.aclList(cluster, filter), queryFn: ({ signal }) => listAcls(cluster, filter, signal) }),
    ACL_PANEL_POLL_MS,
  );
  const { data, error, loading, refresh } = list;
  const rows = useMemo(() => (data ? sortApplying(data) : []), [data]);
  const noun = resourceNoun(resourceType);
  const disabled = error !== null && isSecurityDisabled(error);
  const state = loading ? "loading" : disabled ? "disabled" : data === undefined ? "error" : rows.length ? "list" : "empty";

  return (
    <section className="acl-panel" data-testid="acl-panel" data-resource-type={resourceType} data-state={state} data-count={data ? rows.length : ""}>
      <div className="acl-panel-head">
        <h2>
          ACLs {data && !disabled && <span className="muted count-suffix">({rows.length})</span>}
        </h2>
        <Link to={aclsPath(cluster, filter)} className="acl-panel-manage" data-testid="acl-panel-manage">
          Manage on the ACLs page
        </Link>
      </div>
      {loading && <Loading label="Loading ACLs…" rows={2} />}
      {disabled ? (
        <p className="notice muted" data-testid="acl-panel-disabled">
          This cluster runs without an authorizer: Kafka keeps no ACLs here, so none applies to this {noun}.
        </p>
      ) : (
        <>
          {error && <ErrorBanner error={error} title="Could not load the ACLs" stale={data !== undefined} onRetry={refresh} />}
          {data && (
            <Stale when={!!error}>
              {rows.length === 0 ? (
                <>
                  <p className="empty acl-panel-empty" data-testid="acl-panel-empty">
                    No ACL applies to this {noun}.
                  </p>
                  <p className="acl-panel-note muted" data-testid="acl-panel-hint">
                    Without ACLs, access to it is decided by the cluster's authorizer settings (super users,
                    allow.everyone.if.no.acl.found).
                  </p>
                </>
              ) : (
                <>
                  <p className="acl-panel-note muted">
                    Every binding that applies to this {noun}: set on its name, on the wildcard *, or on a prefix of its
                    name. A DENY wins over any ALLOW.
                  </p>
                  <Table columns={COLUMNS} className="acl-panel-table" data-testid="acl-panel-table">
                    {rows.map((acl, index) => {
                      const reach = aclReach(acl);
                      const deny = acl.permission.toUpperCase() === "DENY";
                      return (
                        <tr
                          key={index}
                          className={deny ? "acl-deny-row" : undefined}
                          data-testid={`acl-panel-row-${index}`}
                          data-pattern={reach}
                          data-permission={acl.permission}
                          data-principal={acl.principal}
                        >
                          <td className="nowrap">
                            <span className={`acl-reach acl-reach-${reach}`}>{ACL_REACH_LABELS[reach]}</span>
                          </td>
                          <td className="mono name-cell">{acl.resource_name}</td>
                          <td className="mono">
                            <Link to={aclsPath(cluster, { principal: acl.principal })} title={`Everything ${acl.principal} may do`}>
                              {acl.principal}
                            </Link>
                          </td>
                          <td className={acl.host === "*" ? "mono muted" : "mono"}>{acl.host}</td>
                          <td className="nowrap">{acl.operation}</td>
                          <td>
                            <PermissionBadge permission={acl.permission} />
                          </td>
                          <td className="acl-why wrap-soft muted" data-testid={`acl-panel-why-${index}`}>
                            {whyAclApplies(acl, name)}
                          </td>
                        </tr>
                      );
                    })}
                  </Table>
                </>
              )}
            </Stale>
          )}
        </>
      )}
    </section>
  );
}

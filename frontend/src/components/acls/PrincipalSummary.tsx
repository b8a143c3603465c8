import { useMemo } from "react";
import { Link } from "react-router-dom";
import type { Acl } from "../../api/types";
import { ACL_REACH_LABELS, grantLabel, resourceNoun, summarizeByResource, type AclGrant, type AclResourceSummary } from "../../lib/acls";
import { plural } from "../../lib/format";
import { groupPath, topicPath } from "../../navigation";
import { Table, type HeaderColumn } from "../TableParts";
import "./acls.css";

const COLUMNS: HeaderColumn[] = [
  "Resource type",
  "Resource",
  { label: "Pattern", title: "literal: this name; prefixed: every name starting with it; *: every name" },
  "Allowed",
  { label: "Denied", title: "A DENY wins over any ALLOW" },
];

interface PrincipalSummaryProps {
  cluster: string;
  principal: string;
  /** The bindings the list shows (the server's answer for this principal). */
  bindings: readonly Acl[];
  /** The list has other filters too: the summary is of what they select only. */
  narrowed: boolean;
  /** Show all of the principal's bindings (drop the other filters). */
  onShowAll: () => void;
  /** Filter by another principal (User:*). */
  onPrincipal: (principal: string) => void;
  onClear: () => void;
}

/**
 * "What it may do": one principal's bindings by resource (type, name, pattern), each with the
 * operations allowed and denied there; an ALLOW that a DENY on the same resource takes back is
 * struck through. The ACLs page shows it above the list filtered by that principal.
 */
export function PrincipalSummary({ cluster, principal, bindings, narrowed, onShowAll, onPrincipal, onClear }: PrincipalSummaryProps) {
  const mine = useMemo(() => bindings.filter((acl) => acl.principal === principal), [bindings, principal]);
  // The server selects exactly this principal: another one's rows are the last filter's answer,
  // kept on screen while this one's is on its way.
  const pending = mine.length < bindings.length;
  const resources = useMemo(() => summarizeByResource(mine), [mine]);
  const wildcard = principal.includes(":") ? `${principal.slice(0, principal.indexOf(":"))}:*` : null;
  return (
    <section
      className="acl-summary"
      data-testid="acl-principal-summary"
      data-principal={principal}
      data-count={resources.length}
      data-bindings={mine.length}
    >
      <div className="acl-summary-head">
        <h2>
          What <span className="mono">{principal}</span> may do
        </h2>
        <span className="muted">
          {mine.length} {plural(mine.length, "binding")} on {resources.length} {plural(resources.length, "resource")}
        </span>
        <span className="toolbar-spacer" />
        <button type="button" className="button button-small" onClick={onClear} data-testid="acl-principal-clear">
          Clear principal
        </button>
      </div>
      {narrowed && (
        <p className="acl-panel-note muted" data-testid="acl-principal-narrowed">
          Only the bindings the filter selects.{" "}
          <button type="button" className="acl-link-button" onClick={onShowAll} data-testid="acl-principal-all">
            Show all of its bindings
          </button>
        </p>
      )}
      {pending ? (
        <p className="acl-panel-note muted" role="status">
          Loading the bindings of {principal}…
        </p>
      ) : resources.length === 0 ? (
        <p className="empty" data-testid="acl-principal-empty">
          {narrowed ? "No binding of this principal matches the filter." : "No binding names this principal."}
        </p>
      ) : (
        <Table columns={COLUMNS} className="acl-summary-table" data-testid="acl-summary-table">
          {resources.map((resource, index) => (
            <SummaryRow key={resource.key} cluster={cluster} resource={resource} index={index} />
          ))}
        </Table>
      )}
      <p className="acl-panel-note muted">
        A DENY wins over any ALLOW, also one set on a prefix or on *.
        {wildcard && wildcard !== principal && (
          <>
            {" "}
            Bindings of <span className="mono">{wildcard}</span> apply to it too:{" "}
            <button type="button" className="acl-link-button" onClick={() => onPrincipal(wildcard)} data-testid="acl-principal-wildcard">
              show them
            </button>
            .
          </>
        )}
      </p>
    </section>
  );
}

/** A topic's or group's page for a literal binding on it; null for the rest. */
function resourceLink(cluster: string, resource: AclResourceSummary): string | null {
  if (resource.reach !== "literal") return null;
  if (resource.resource_type === "TOPIC") return topicPath(cluster, resource.resource_name);
  if (resource.resource_type === "GROUP") return groupPath(cluster, resource.resource_name);
  return null;
}

function patternText(resource: AclResourceSummary): string {
  const many = resourceNoun(resource.resource_type, true);
  if (resource.reach === "prefixed") return `every ${resourceNoun(resource.resource_type)} starting with it`;
  if (resource.reach === "wildcard") return `all ${many}`;
  return "";
}

function SummaryRow({ cluster, resource, index }: { cluster: string; resource: AclResourceSummary; index: number }) {
  const link = resourceLink(cluster, resource);
  const aside = patternText(resource);
  return (
    <tr
      data-testid={`acl-summary-row-${index}`}
      data-resource-type={resource.resource_type}
      data-resource-name={resource.resource_name}
      data-pattern={resource.reach}
    >
      <td className="nowrap">{resource.resource_type}</td>
      <td className="mono name-cell">{link ? <Link to={link}>{resource.resource_name}</Link> : resource.resource_name}</td>
      <td className="nowrap">
        <span className={`acl-reach acl-reach-${resource.reach}`}>{ACL_REACH_LABELS[resource.reach]}</span>
        {aside && <span className="muted acl-reach-aside"> {aside}</span>}
      </td>
      <td data-testid={`acl-summary-allowed-${index}`} data-operations={resource.allowed.map(grantLabel).join(",")}>
        <Grants grants={resource.allowed} tone="ok" />
      </td>
      <td data-testid={`acl-summary-denied-${index}`} data-operations={resource.denied.map(grantLabel).join(",")}>
        <Grants grants={resource.denied} tone="error" />
      </td>
    </tr>
  );
}

function Grants({ grants, tone }: { grants: readonly AclGrant[]; tone: "ok" | "error" }) {
  if (grants.length === 0) return <span className="muted">—</span>;
  return (
    <span className="acl-grants">
      {grants.map((grant) => (
        <span
          key={grantLabel(grant)}
          className={`badge badge-${tone}${grant.overridden ? " acl-overridden" : ""}`}
          title={grant.overridden ? "Taken back by a DENY on the same resource" : tone === "error" ? "Denied" : "Allowed"}
        >
          {grantLabel(grant)}
        </span>
      ))}
    </span>
  );
}

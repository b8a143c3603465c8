import type { Acl } from "../../api/types";
import { Table } from "../TableParts";
import "./acls.css";

/** ALLOW in green, DENY in red: a deny wins over every allow, so it must stand out. */
export function PermissionBadge({ permission }: { permission: string }) {
  const deny = permission.toUpperCase() === "DENY";
  return (
    <span className={deny ? "badge badge-error" : "badge badge-ok"} title={deny ? "Denied: wins over any ALLOW" : "Allowed"}>
      {permission}
    </span>
  );
}

/** The cells of one binding, in the list's column order (resource type … permission). With
 * `onPrincipal`, the principal is a button that asks for that principal's view. */
export function AclCells({ acl, onPrincipal, testId }: { acl: Acl; onPrincipal?: (principal: string) => void; testId?: string }) {
  return (
    <>
      <td className="nowrap">{acl.resource_type}</td>
      <td className="mono name-cell">{acl.resource_name}</td>
      <td className={acl.pattern_type === "PREFIXED" ? "nowrap" : "nowrap muted"}>{acl.pattern_type}</td>
      <td className="mono">
        {onPrincipal ? (
          <button
            type="button"
            className="acl-link-button acl-principal-button"
            onClick={() => onPrincipal(acl.principal)}
            title={`What ${acl.principal} may do`}
            data-testid={testId}
          >
            {acl.principal}
          </button>
        ) : (
          acl.principal
        )}
      </td>
      <td className={acl.host === "*" ? "mono muted" : "mono"}>{acl.host}</td>
      <td className="nowrap">{acl.operation}</td>
      <td>
        <PermissionBadge permission={acl.permission} />
      </td>
    </>
  );
}

export const ACL_HEADERS = ["Resource type", "Resource name", "Pattern", "Principal", "Host", "Operation", "Permission"];

/** A short list of bindings (a preview): a plain table in a scroll box, rows `<testId>-row-<i>`. */
export function AclBindingsTable({ bindings, testId }: { bindings: readonly Acl[]; testId: string }) {
  return (
    <Table columns={ACL_HEADERS} wrapClassName="plan-scroll" data-testid={testId} data-count={bindings.length}>
      {bindings.map((acl, index) => (
        <tr key={index} data-testid={`${testId}-row-${index}`} data-permission={acl.permission}>
          <AclCells acl={acl} />
        </tr>
      ))}
    </Table>
  );
}

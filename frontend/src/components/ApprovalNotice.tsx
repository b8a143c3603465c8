import { Link } from "react-router-dom";
import type { ApprovalRequested } from "../api/client";
import { isApprovalRequested } from "../lib/approvals";
import { formatLocal } from "../lib/time";
import { approvalPath } from "../navigation";
import { ErrorBanner } from "./ErrorBanner";

/**
 * A change asked on a protected cluster that became a request (202): nothing changed yet, it runs
 * once someone else with the role approves it. Said in a neutral notice (not the red banner of a
 * failure), with a link to the request on the approvals page.
 */
export function ApprovalNotice({ approval }: { approval: ApprovalRequested["approval"] }) {
  const expires = Date.parse(approval.expires_at);
  return (
    <div className="notice notice-info approval-notice" role="status" data-testid="approval-notice" data-approval={approval.id}>
      <p>
        <strong>
          Sent for approval as{" "}
          <Link to={approvalPath(approval.id)} data-testid="approval-notice-link">
            request #{approval.id}
          </Link>
          :
        </strong>{" "}
        {approval.summary} It runs once someone else with the role approves it.
      </p>
      {!Number.isNaN(expires) && (
        <p className="approval-notice-expires">Nothing has changed yet. Unless decided, it expires at {formatLocal(expires).slice(0, 16)}.</p>
      )}
    </div>
  );
}

/** Where a form shows a change's failure: the approval notice when the change became a request,
 * else the red banner. */
export function ErrorOrApprovalNotice({ error, title }: { error: Error; title?: string }) {
  return isApprovalRequested(error) ? <ApprovalNotice approval={error.approval} /> : <ErrorBanner error={error} title={title} />;
}

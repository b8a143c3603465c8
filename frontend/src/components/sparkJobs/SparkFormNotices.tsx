import type { ClusterSummary } from "../../api/types";
import type { PolledQuery } from "../../hooks/usePolledQuery";
import { RoleNotice } from "../CurrentUser";

/** Above a Spark job form: why a viewer sees it disabled (only operators can `action`), and the
 * clusters' load error while none are shown. */
export function SparkFormNotices({ action, clusters }: { action: string; clusters: PolledQuery<ClusterSummary[]> }) {
  return (
    <>
      <RoleNotice role="operator" testId="operator-only">
        Only operators can {action}: the form is disabled for your role
      </RoleNotice>
      {clusters.error && !clusters.data && (
        <p className="inline-error" role="alert">
          Could not load the clusters: {clusters.error.message}
        </p>
      )}
    </>
  );
}

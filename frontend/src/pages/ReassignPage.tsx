import { useParams } from "react-router-dom";
import { reassignmentListQuery } from "../api/queries";
import type { ReassignmentList } from "../api/types";
import { RoleNotice } from "../components/CurrentUser";
import { clusterCrumbs, loadStateOf, PageShell, Stale } from "../components/PageShell";
import { KafkaMovingTable } from "../components/reassign/KafkaMovingTable";
import { NewReassignment } from "../components/reassign/NewReassignment";
import { ReassignmentsTable } from "../components/reassign/ReassignmentsTable";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { usePolledQuery } from "../hooks/usePolledQuery";

/** The list is polled this often while something moves (ours or anyone's), else less often. */
export const REASSIGN_LIST_BUSY_POLL_MS = 5_000;
export const REASSIGN_LIST_POLL_MS = 15_000;

function moving(list: ReassignmentList | undefined): boolean {
  return !!list && (list.in_kafka.length > 0 || list.reassignments.some((r) => r.state === "running"));
}

/**
 * /clusters/:cluster/reassignments — Reassign tab (admins): this console's reassignments of the
 * cluster and whatever Kafka moves now; below, a new reassignment planned, previewed (nothing
 * changes), downloaded, then executed after a confirmation (its progress page opens). A link
 * presets that form (?drain=<broker>, ?topics=a,b, ?mode=rf&topic=a: navigation.ts reassignNewPath),
 * read once when it opens.
 */
export function ReassignPage() {
  const { cluster = "" } = useParams<{ cluster: string }>();
  useDocumentTitle(`Reassign · ${cluster}`);
  const list = usePolledQuery(reassignmentListQuery(cluster), (data) =>
    moving(data) ? REASSIGN_LIST_BUSY_POLL_MS : REASSIGN_LIST_POLL_MS,
  );
  const load = loadStateOf(list);
  const { data } = list;

  return (
    <PageShell
      crumbs={clusterCrumbs(cluster, "reassignments")}
      title={cluster}
      updatedAt={list.updatedAt}
      tabsOf={cluster}
      actions={
        <RoleNotice role="admin" testId="admin-only">
          Only admins can see and move partitions; the server refuses this page for your role
        </RoleNotice>
      }
      {...load}
      // The form stays usable when a refresh of the list fails: only the lists are dimmed.
      dimStale={false}
      what="the reassignments"
      loadingLabel="Loading reassignments…"
      testId="reassign-page"
    >
      {data && (
        <Stale when={load.stale}>
          <ReassignmentsTable cluster={cluster} rows={data.reassignments} />
          <KafkaMovingTable rows={data.in_kafka} />
        </Stale>
      )}
      {/* Another cluster's form starts empty. */}
      <NewReassignment key={cluster} cluster={cluster} />
    </PageShell>
  );
}

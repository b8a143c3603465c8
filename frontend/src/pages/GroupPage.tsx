import { useCallback, useState } from "react";
import { useParams } from "react-router-dom";
import { queryKeys } from "../api/queryKeys";
import { AppliesToPanel } from "../components/acls/AppliesToPanel";
import { hasRole, useCurrentUser } from "../components/CurrentUser";
import { DeleteGroupDialog } from "../components/groupPage/DeleteGroupDialog";
import { GroupFacts } from "../components/groupPage/GroupFacts";
import { GroupLagCharts } from "../components/groupPage/GroupLagCharts";
import { GroupMembersTable } from "../components/groupPage/GroupMembersTable";
import { GroupOffsetsTable } from "../components/groupPage/GroupOffsetsTable";
import { GroupToolbar } from "../components/groupPage/GroupToolbar";
import { GroupTopicsTable } from "../components/groupPage/GroupTopicsTable";
import { RetentionNotice } from "../components/groupPage/RetentionNotice";
import { useLiveGroup } from "../components/groupPage/useLiveGroup";
import { GroupStateBadge } from "../components/GroupStateBadge";
import { LagStatusBadge } from "../components/LagStatusBadge";
import { clusterCrumbs, PageShell, Stale } from "../components/PageShell";
import { ResetHistory } from "../components/ResetHistory";
import { ResetWizard } from "../components/ResetWizard";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useRefetch } from "../hooks/usePolledQuery";

export { GROUP_POLL_MS } from "../components/groupPage/useLiveGroup";
export { OFFSET_ROW_HEIGHT } from "../components/groupPage/GroupOffsetsTable";

/**
 * /clusters/:cluster/groups/:group — state, members and lag of one consumer group, the lag charts,
 * members, topics and offsets tables, the offsets.csv export, the ACL bindings that apply to the
 * group (AppliesToPanel), and for operators the reset wizard, undo and delete. Live: the lag
 * socket's samples of this group update the numbers, statuses, the charts and the offsets as they
 * arrive (REST polled every 30 s then, every 5 s without them); a membership change refetches the
 * detail at once (useLiveGroup). Its parts: components/groupPage/.
 */
export function GroupPage() {
  const { cluster = "", group = "" } = useParams<{ cluster: string; group: string }>();
  useDocumentTitle(`${group} · ${cluster}`);
  const { user } = useCurrentUser();
  const isOperator = hasRole(user, "operator");

  const { data, error, loading, stale, updatedAt, refresh, live, liveView } = useLiveGroup(cluster, group);
  const [wizardOpen, setWizardOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);

  // After a write of the wizard (a preview, an execution, an undo): the detail and the history now.
  const refetchHistory = useRefetch(queryKeys.offsetResets(cluster, group));
  const onChanged = useCallback(() => {
    refresh();
    refetchHistory();
  }, [refresh, refetchHistory]);

  const members = data?.members.length ?? 0;

  return (
    <PageShell
      crumbs={clusterCrumbs(cluster, "groups", group)}
      title={cluster}
      updatedAt={updatedAt}
      live={live}
      tabsOf={cluster}
      heading={
        <>
          <span className="mono">{group}</span>
          {data && <GroupStateBadge state={data.state} />}
          {data && <LagStatusBadge status={data.status} />}
        </>
      }
      loading={loading}
      error={error}
      stale={stale}
      what={`group ${group}`}
      loadingLabel="Loading consumer group…"
      skeletonRows={5}
      onRetry={refresh}
      // The toolbar and the wizard stay usable while the facts and tables are dimmed.
      dimStale={false}
    >
      {data && (
        <>
          <Stale when={stale}>
            <RetentionNotice detail={data} />
            <GroupFacts detail={data} />
          </Stale>

          <GroupToolbar
            cluster={cluster}
            group={group}
            isOperator={isOperator}
            members={members}
            wizardOpen={wizardOpen}
            onOpenWizard={() => setWizardOpen(true)}
            onDelete={() => setDeleting(true)}
          />

          {wizardOpen && isOperator && (
            <ResetWizard cluster={cluster} group={data} onChanged={onChanged} onClose={() => setWizardOpen(false)} />
          )}

          <Stale when={stale}>
            <GroupLagCharts cluster={cluster} group={group} detail={data} liveView={liveView} live={live.live} />

            <h2>
              Topics <span className="muted count-suffix">({data.topics.length})</span>
            </h2>
            <GroupTopicsTable cluster={cluster} topics={data.topics} />

            <h2>
              Members <span className="muted count-suffix">({members})</span>
            </h2>
            <GroupMembersTable members={data.members} />

            <h2>
              Offsets <span className="muted count-suffix">({data.offsets.length})</span>
            </h2>
            <GroupOffsetsTable cluster={cluster} offsets={data.offsets} members={data.members} />
          </Stale>
        </>
      )}

      <AppliesToPanel cluster={cluster} resourceType="GROUP" name={group} />

      <h2>Reset history</h2>
      <ResetHistory cluster={cluster} group={group} canUndo={isOperator} onChanged={refresh} />

      {deleting && (
        <DeleteGroupDialog cluster={cluster} group={group} onRefused={refresh} onClose={() => setDeleting(false)} />
      )}
    </PageShell>
  );
}

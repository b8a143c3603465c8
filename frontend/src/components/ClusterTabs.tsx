import { Link, useLocation } from "react-router-dom";
import { CLUSTER_TABS, clusterPath } from "../navigation";
import { hasRole, useCurrentUser } from "./CurrentUser";

/** Overview | Topics | ... for one cluster; the current section is highlighted. */
export function ClusterTabs({ cluster }: { cluster: string }) {
  const { user } = useCurrentUser();
  const { pathname } = useLocation();
  const base = clusterPath(cluster);
  const rest = decodeURIComponent(pathname.startsWith(base) ? pathname.slice(base.length) : "").replace(
    /^\/+/,
    "",
  );
  const first = rest.split("/")[0] ?? "";
  return (
    <nav className="tabs" aria-label={`Cluster ${cluster}`} data-testid="cluster-tabs">
      {CLUSTER_TABS.filter((tab) => !tab.role || hasRole(user, tab.role, cluster)).map((tab) => {
        const active = first === tab.path || !!tab.alsoFor?.includes(first);
        return (
          <Link
            key={tab.path}
            to={clusterPath(cluster, tab.path)}
            className={active ? "tab active" : "tab"}
            aria-current={active ? "page" : undefined}
            data-testid={`tab-${tab.path || "overview"}`}
          >
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}

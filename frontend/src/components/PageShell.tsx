import { Children, type ReactNode } from "react";
import { Link } from "react-router-dom";
import { ClusterTabs } from "./ClusterTabs";
import type { PolledQuery } from "../hooks/usePolledQuery";
import type { LiveState } from "../lib/liveConnection";
import { CLUSTER_TABS, clusterPath } from "../navigation";
import { ErrorBanner } from "./ErrorBanner";
import { LiveBanner, LiveIndicator } from "./LiveStatus";
import { Loading } from "./Loading";
import { UpdatedAt } from "./UpdatedAt";

/** One step of the breadcrumb: a link, or (the last one) plain text. */
export interface Crumb {
  label: ReactNode;
  to?: string;
}

/**
 * The breadcrumb of a per-cluster page: Clusters / {cluster}, then the tab's list (`section`:
 * its path, "topics"; labelled as the tab) and the page under it (`leaf`). The last is the page
 * itself: not a link.
 */
export function clusterCrumbs(cluster: string, section?: string, leaf?: ReactNode): Crumb[] {
  const crumbs: Crumb[] = [
    { label: "Clusters", to: "/" },
    { label: cluster, to: clusterPath(cluster) },
  ];
  if (section !== undefined) {
    crumbs.push({ label: CLUSTER_TABS.find((tab) => tab.path === section)?.label ?? section, to: clusterPath(cluster, section) });
  }
  if (leaf !== undefined) crumbs.push({ label: leaf });
  crumbs[crumbs.length - 1] = { label: crumbs[crumbs.length - 1]!.label };
  return crumbs;
}

export function Breadcrumb({ items }: { items: Crumb[] }) {
  return (
    <nav className="breadcrumb" aria-label="Breadcrumb">
      {items.map((item, index) => (
        <span key={index}>
          {index > 0 && <span aria-hidden="true"> / </span>}
          {item.to ? <Link to={item.to}>{item.label}</Link> : <span>{item.label}</span>}
        </span>
      ))}
    </nav>
  );
}

export interface PageShellProps {
  /** Breadcrumb above the title; none on the home page. */
  crumbs?: Crumb[];
  title: ReactNode;
  /** When the page's data last arrived (polled pages: "updated hh:mm:ss" next to the title). */
  updatedAt?: Date | null;
  /** The page's live socket (useLiveSocket): a "live" dot next to the title while it pushes, a
   * "paused — reconnecting" banner when it dropped. Pages without one leave it out. */
  live?: LiveState;
  /** The cluster whose tabs (overview, topics, groups) show under the title. */
  tabsOf?: string;
  /** A second heading under the tabs: the topic or group name (and its badge). */
  heading?: ReactNode;
  /** Shown whatever state the data is in, before it: notices, the toolbar. */
  actions?: ReactNode;

  // The page's data (usePolledQuery's state). Pages that load nothing leave these out (their content
  // is then not wrapped).
  /** The first answer is on its way: a skeleton instead. */
  loading?: boolean;
  /** The latest load failed: a red banner, "Could not load {what}" (or "refresh", when stale). */
  error?: Error | null;
  /** The data on screen is from an earlier answer (the latest failed): the banner says so and the
   * content is dimmed. Pass `!!error && data !== undefined`. */
  stale?: boolean;
  /** What the page loads, for the banner: "the topics", "group orders-app". */
  what?: string;
  loadingLabel?: string;
  /** Skeleton rows (default 3). */
  skeletonRows?: number;
  /** "Retry now" in the error banner. */
  onRetry?: () => void;
  /** False: the content is not dimmed as a whole when stale; the page wraps its parts in <Stale>
   * (the group page keeps its toolbar and the reset wizard usable). */
  dimStale?: boolean;

  /** Extra class and test id of the page's <section> ("page" always). */
  className?: string;
  testId?: string;
  children?: ReactNode;
}

/**
 * The frame every page shares: breadcrumb, title with the last update, cluster tabs, a second
 * heading, the toolbar; then the load state of the page's data (first-load skeleton, error banner
 * that keeps older data on screen, dimmed as stale) and the content.
 */
export function PageShell({
  crumbs,
  title,
  updatedAt,
  live,
  tabsOf,
  heading,
  actions,
  loading = false,
  error = null,
  stale,
  what = "the page",
  loadingLabel,
  skeletonRows,
  onRetry,
  dimStale = true,
  className,
  testId,
  children,
}: PageShellProps) {
  const content = Children.toArray(children).length > 0;
  // Only a page that loads data (it passes `stale`) has its content wrapped, to dim it.
  const dim = dimStale && stale !== undefined;
  return (
    <section className={className ? `page ${className}` : "page"} data-testid={testId}>
      {crumbs && <Breadcrumb items={crumbs} />}
      <div className="page-header">
        <h1>{title}</h1>
        {(updatedAt !== undefined || live) && (
          <span className="page-meta">
            {live && <LiveIndicator state={live} />}
            {updatedAt !== undefined && <UpdatedAt at={updatedAt} />}
          </span>
        )}
      </div>
      {live && <LiveBanner state={live} />}
      {tabsOf !== undefined && <ClusterTabs cluster={tabsOf} />}
      {heading !== undefined && (
        <div className="page-header">
          <h2 className="topic-title">{heading}</h2>
        </div>
      )}
      {actions}
      {error && (
        <ErrorBanner
          error={error}
          title={stale ? `Could not refresh ${what}` : `Could not load ${what}`}
          stale={stale}
          onRetry={onRetry}
        />
      )}
      {loading && <Loading label={loadingLabel} rows={skeletonRows} />}
      {content && (dim ? <Stale when={!!stale}>{children}</Stale> : children)}
    </section>
  );
}

/**
 * PageShell's load-state props for the (polled) query of the page's data: skeleton while it first
 * loads, the latest error (stale while older data stays on screen) and "Retry now".
 */
export function loadStateOf(query: Pick<PolledQuery<unknown>, "data" | "error" | "loading" | "refresh">) {
  return {
    loading: query.loading,
    error: query.error,
    stale: !!query.error && query.data !== undefined,
    onRetry: query.refresh,
  } satisfies Partial<PageShellProps>;
}

/** Data shown while the last refresh failed is dimmed: it may be out of date. */
export function Stale({ when, children }: { when: boolean; children: ReactNode }) {
  return (
    <div className={when ? "stale" : undefined} data-stale={when ? "true" : "false"}>
      {children}
    </div>
  );
}

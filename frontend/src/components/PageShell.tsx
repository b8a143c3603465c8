import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { ClusterTabs } from "./ClusterTabs";
import { ErrorBanner } from "./ErrorBanner";
import { Loading } from "./Loading";
import { UpdatedAt } from "./UpdatedAt";

/** One step of the breadcrumb: a link, or (the last one) plain text. */
export interface Crumb {
  label: ReactNode;
  to?: string;
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

interface PageShellProps {
  /** Breadcrumb above the title; none on the home page. */
  crumbs?: Crumb[];
  title: ReactNode;
  /** When the page's data last arrived (polled pages). */
  updatedAt?: Date | null;
  /** The cluster whose tabs (overview, topics, groups) show under the title. */
  tabsOf?: string;
  children: ReactNode;
}

/** The frame every page shares: breadcrumb, title with the last update, cluster tabs. */
export function PageShell({ crumbs, title, updatedAt, tabsOf, children }: PageShellProps) {
  return (
    <section className="page">
      {crumbs && <Breadcrumb items={crumbs} />}
      <div className="page-header">
        <h1>{title}</h1>
        {updatedAt !== undefined && <UpdatedAt at={updatedAt} />}
      </div>
      {tabsOf !== undefined && <ClusterTabs cluster={tabsOf} />}
      {children}
    </section>
  );
}

interface LoadStateProps {
  hasData: boolean;
  error: Error | null | undefined;
  loading: boolean;
  /** What the page shows, e.g. "the consumer groups": "Could not load the consumer groups". */
  what: string;
  loadingLabel: string;
  rows?: number;
  onRetry?: () => void;
}

/** A polled page's error banner (its data kept and marked stale) and first-load skeleton. */
export function LoadState({ hasData, error, loading, what, loadingLabel, rows, onRetry }: LoadStateProps) {
  return (
    <>
      {error && (
        <ErrorBanner
          error={error}
          title={hasData ? `Could not refresh ${what}` : `Could not load ${what}`}
          stale={hasData}
          onRetry={onRetry}
        />
      )}
      {loading && !hasData && <Loading label={loadingLabel} rows={rows} />}
    </>
  );
}

/** Data shown while the last refresh failed is dimmed: it may be out of date. */
export function Stale({ when, children }: { when: boolean; children: ReactNode }) {
  return (
    <div className={when ? "stale" : undefined} data-stale={when ? "true" : "false"}>
      {children}
    </div>
  );
}

import { Suspense, type ComponentProps, type ReactNode } from "react";

interface ChartCardProps extends ComponentProps<"figure"> {
  /** What the chart shows, in words (totals, the chosen window...), and its controls. */
  caption: ReactNode;
}

/** A chart's card: the caption above it, then the chart (or why there is none). The other props
 * (aria-label, data-testid, data-*, a class besides "chart-card") are the figure's. */
export function ChartCard({ caption, className, children, ...props }: ChartCardProps) {
  return (
    <figure className={className ? `chart-card ${className}` : "chart-card"} {...props}>
      <figcaption className="chart-caption">{caption}</figcaption>
      {children}
    </figure>
  );
}

/** A chart from the lazily loaded chart chunk (recharts): an empty box holds its place until it
 * loads. With `empty` (there is nothing to draw), that sentence instead. */
export function LazyChart({ empty, children }: { empty?: ReactNode; children: ReactNode }) {
  if (empty) return <p className="empty">{empty}</p>;
  return <Suspense fallback={<div className="chart-placeholder" aria-hidden="true" />}>{children}</Suspense>;
}

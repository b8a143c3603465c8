interface LoadingProps {
  label?: string;
  /** Rows of grey bars under the spinner, to hint at the table to come. */
  rows?: number;
}

/** Spinner plus a skeleton table while the first answer is on its way. */
export function Loading({ label = "Loading…", rows = 3 }: LoadingProps) {
  return (
    <div className="loading" role="status" aria-live="polite" data-testid="loading">
      <div className="loading-line">
        <span className="spinner" aria-hidden="true" />
        <span>{label}</span>
      </div>
      <div className="skeleton" aria-hidden="true">
        {Array.from({ length: rows }, (_, i) => (
          <div key={i} className="skeleton-row" />
        ))}
      </div>
    </div>
  );
}

import { ApiError } from "../api/client";
import { plainMessage } from "../lib/fieldErrors";

interface ErrorBannerProps {
  error: Error;
  /** Shown before the message, e.g. "Could not refresh the brokers". */
  title?: string;
  /** True when older data is still on screen below the banner. */
  stale?: boolean;
  onRetry?: () => void;
}

/** What a person reads of an error: a refused field's message without its path in front
 * ("count: 'orders' already has 3 partitions." reads "'orders' already has 3 partitions."). */
export function bannerMessage(error: Error): string {
  if (error instanceof ApiError && error.status === 400 && typeof error.details.field === "string") {
    return plainMessage(error.message, error.details.field);
  }
  return error.message;
}

/** A red banner with the API's message (and its status and code, small). */
export function ErrorBanner({ error, title, stale, onRetry }: ErrorBannerProps) {
  const meta =
    error instanceof ApiError
      ? [error.status ? `HTTP ${error.status}` : null, error.code].filter(Boolean).join(" · ")
      : null;
  return (
    <div className="error-banner" role="alert" data-testid="error-banner">
      <div className="error-banner-text">
        {title && <strong className="error-banner-title">{title}: </strong>}
        <span className="error-banner-message">{bannerMessage(error)}</span>
        {meta && <span className="error-banner-meta">{meta}</span>}
        {stale && <span className="error-banner-stale">Showing the last data received.</span>}
      </div>
      {onRetry && (
        <button type="button" className="button button-small" onClick={onRetry}>
          Retry now
        </button>
      )}
    </div>
  );
}

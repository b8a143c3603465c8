import { useEffect, useId, useRef, useState } from "react";
import type { ApiTokenCreated } from "../../api/types";
import { formatLocal } from "../../lib/time";
import { tokenHeader } from "../../lib/users";
import { copyText } from "../../lib/clipboard";

interface TokenKeyDialogProps {
  /** The create answer: the only one that ever holds the key. The caller keeps it in its state
   * only (never a query cache or storage) and drops it when this closes. */
  token: ApiTokenCreated;
  username: string;
  onClose: () => void;
}

/**
 * The new token's key, shown once: selectable, with a copy button and the header to send it in,
 * and a clear warning that it cannot be shown again (only its hash is kept). "Done" or Escape
 * closes it, and with it the key.
 */
export function TokenKeyDialog({ token, username, onClose }: TokenKeyDialogProps) {
  const titleId = useId();
  const copyButton = useRef<HTMLButtonElement>(null);
  const keyBox = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  const expires = token.expires_at ? Date.parse(token.expires_at) : NaN;

  useEffect(() => copyButton.current?.focus(), []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [onClose]);

  const copy = async () => {
    const ok = await copyText(token.key);
    setCopied(ok);
    if (!ok) keyBox.current?.select();
  };

  return (
    <div className="modal-backdrop">
      <div className="modal modal-primary token-key-modal" role="dialog" aria-modal="true" aria-labelledby={titleId} data-testid="token-key-dialog">
        <h2 id={titleId} className="modal-title">
          API token “{token.name}” for {username}
        </h2>
        <div className="modal-body">
          <p className="notice notice-warn token-key-warning" data-testid="token-key-warning">
            <strong>Copy the key now: you will not see it again.</strong> The console keeps only a hash of it; if it is lost, revoke this
            token and make a new one.
          </p>
          <label className="field-label" htmlFor={`${titleId}-key`}>
            Key
          </label>
          <div className="token-key-row">
            <input
              id={`${titleId}-key`}
              ref={keyBox}
              className="input mono token-key"
              value={token.key}
              readOnly
              onFocus={(event) => event.target.select()}
              spellCheck={false}
              autoComplete="off"
              data-testid="token-key"
            />
            <button type="button" ref={copyButton} className="button button-primary" onClick={() => void copy()} data-testid="token-copy">
              Copy
            </button>
          </div>
          {copied === true && (
            <p className="notice-inline" role="status" data-testid="token-copied">
              Copied to the clipboard.
            </p>
          )}
          {copied === false && (
            <p className="inline-error" role="alert" data-testid="token-copy-failed">
              The browser did not let the page copy it: the key is selected, copy it with Ctrl+C (⌘C).
            </p>
          )}
          <p className="field-hint">
            Send it as <code className="token-header">{tokenHeader(`${token.prefix}…`)}</code> (REST API), or <code>?token=</code> on a
            WebSocket.
          </p>
          <p className="field-hint" data-testid="token-key-expires">
            {Number.isNaN(expires) ? "It never expires." : `It expires ${formatLocal(expires).slice(0, 16)} (this browser's time).`}
          </p>
        </div>
        <div className="modal-actions">
          <button type="button" className="button" onClick={onClose} data-testid="token-key-done">
            Done: I have copied it
          </button>
        </div>
      </div>
    </div>
  );
}

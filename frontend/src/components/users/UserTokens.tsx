import { useId, useRef, useState } from "react";
import { createUserToken, revokeUserToken } from "../../api/endpoints";
import type { ApiToken, ApiTokenCreated } from "../../api/types";
import { formatAgo, formatLocal } from "../../lib/time";
import {
  checkTokenForm,
  EMPTY_TOKEN_FORM,
  placeUserErrors,
  TOKEN_DAYS_MAX,
  TOKEN_DAYS_MIN,
  TOKEN_FIELDS,
  TOKEN_NAME_MAX,
  tokenCreateBody,
  type TokenFormErrors,
  type TokenFormValues,
} from "../../lib/users";
import { ConfirmDialog } from "../ConfirmDialog";
import { ErrorBanner } from "../ErrorBanner";
import { Field } from "../Field";
import { FieldErrors } from "../FieldErrors";
import { StatusBadge } from "../StatusBadge";
import { EmptyRow, Table, type HeaderColumn } from "../TableParts";
import { TokenKeyDialog } from "./TokenKeyDialog";

const COLUMNS: HeaderColumn[] = [
  "Name",
  { label: "Prefix", title: "The key's first characters, to tell tokens apart" },
  "Created",
  "Expires",
  { label: "Last used", title: "Written at most once a minute" },
  "State",
  { label: "Actions", hidden: true },
];

/** A server time to the minute in this browser's zone, how long ago (or until) as its tooltip. */
function When({ at, none }: { at: string | null; none: string }) {
  const ms = at ? Date.parse(at) : NaN;
  if (!at || Number.isNaN(ms)) return <span className="muted">{none}</span>;
  return (
    <time dateTime={at} title={`${formatLocal(ms).slice(0, 19)} (${formatAgo(ms)})`}>
      {formatLocal(ms).slice(0, 16)}
    </time>
  );
}

interface UserTokensProps {
  userId: number;
  username: string;
  /** The user's tokens (undefined while loading). */
  tokens: readonly ApiToken[] | undefined;
  /** A token was made or revoked: the caller asks its lists again (never with the key). */
  onChanged: () => void;
}

/** A revoke asked for (the confirmation open), then on its way. */
interface PendingRevoke {
  token: ApiToken;
  busy: boolean;
  error: Error | null;
}

/**
 * A user's API tokens (docs/governance.md): name, prefix…, created, expires, last used, an
 * "expired" badge, and "Revoke…" through a confirmation; "New token" with a name and a lifetime in
 * days. The new key is shown once in TokenKeyDialog and kept only in this component's state until
 * that closes.
 */
export function UserTokens({ userId, username, tokens, onChanged }: UserTokensProps) {
  const id = useId();
  const [form, setForm] = useState<TokenFormValues>(EMPTY_TOKEN_FORM);
  const [errors, setErrors] = useState<TokenFormErrors>({});
  const [banner, setBanner] = useState<Error | null>(null);
  const [busy, setBusy] = useState(false);
  // The key: here only, until the dialog closes.
  const [made, setMade] = useState<ApiTokenCreated | null>(null);
  const [pending, setPending] = useState<PendingRevoke | null>(null);
  const [revoked, setRevoked] = useState<ApiToken | null>(null);
  const requestId = useRef(0);

  const edit = (field: keyof TokenFormValues, value: string) => {
    setForm({ ...form, [field]: value });
    const apiField = field === "days" ? "expires_in_days" : "name";
    if (errors[apiField]) setErrors({ ...errors, [apiField]: undefined });
  };

  const send = async () => {
    setBanner(null);
    setRevoked(null);
    const local = checkTokenForm(form, tokens ?? []);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    const call = ++requestId.current;
    setBusy(true);
    try {
      const answer = await createUserToken(userId, tokenCreateBody(form));
      if (call !== requestId.current) return;
      setForm(EMPTY_TOKEN_FORM);
      setMade(answer);
      onChanged();
    } catch (error) {
      if (call !== requestId.current) return;
      const placed = placeUserErrors(error, TOKEN_FIELDS);
      setErrors(placed.fields);
      setBanner(placed.banner);
    } finally {
      if (call === requestId.current) setBusy(false);
    }
  };

  const confirmRevoke = async () => {
    if (!pending) return;
    const { token } = pending;
    const call = ++requestId.current;
    setPending({ token, busy: true, error: null });
    try {
      await revokeUserToken(userId, token.id);
      if (call !== requestId.current) return;
      setPending(null);
      setRevoked(token);
      onChanged();
    } catch (error) {
      if (call !== requestId.current) return;
      setPending({ token, busy: false, error: error instanceof Error ? error : new Error(String(error)) });
    }
  };

  const list = tokens ?? [];
  return (
    <section className="user-section" aria-labelledby={`${id}-title`} data-testid="user-tokens">
      <h2 id={`${id}-title`} className="user-section-title">
        API tokens
      </h2>
      <p className="field-hint user-section-intro">
        For scripts and tools: <code>Authorization: Token &lt;key&gt;</code> acts as {username}, with its roles. A token expires (no token lives
        forever); revoking one stops it at once, and so does disabling the user.
      </p>
      {revoked && (
        <p className="notice notice-ok" role="status" data-testid="token-revoked">
          Revoked <strong>{revoked.name}</strong> ({revoked.prefix}…): it no longer works.
        </p>
      )}
      {tokens && (
        <Table columns={COLUMNS} className="tokens-table" data-testid="tokens-table" data-count={list.length}>
          {list.length === 0 ? (
            <EmptyRow span={COLUMNS.length} testId="tokens-empty">
              No API tokens: make one below.
            </EmptyRow>
          ) : (
            list.map((token) => (
              <tr key={token.id} data-testid={`token-row-${token.name}`} data-id={token.id} data-expired={token.expired}>
                <td className="name-cell" title={token.name}>
                  {token.name}
                </td>
                <td className="mono" data-testid={`token-prefix-${token.name}`}>
                  {token.prefix}…
                </td>
                <td className="nowrap">
                  <When at={token.created_at} none="—" />
                </td>
                <td className="nowrap">
                  <When at={token.expires_at} none="never" />
                </td>
                <td className="nowrap">
                  <When at={token.last_used_at} none="never" />
                </td>
                <td>
                  {token.expired ? (
                    <StatusBadge tone="error" title="Refused with 401: revoke it and make a new one" data-testid={`token-expired-${token.name}`}>
                      expired
                    </StatusBadge>
                  ) : (
                    <StatusBadge tone="ok">active</StatusBadge>
                  )}
                </td>
                <td>
                  <div className="row-actions">
                    <button
                      type="button"
                      className="button button-small button-danger-outline"
                      disabled={pending !== null}
                      onClick={() => {
                        setRevoked(null);
                        setPending({ token, busy: false, error: null });
                      }}
                      data-testid={`token-revoke-${token.name}`}
                    >
                      Revoke…
                    </button>
                  </div>
                </td>
              </tr>
            ))
          )}
        </Table>
      )}

      <form
        className="token-form"
        data-testid="token-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <h3 className="token-form-title">New token</h3>
        <div className="token-form-row">
          <Field label="Name" htmlFor={`${id}-name`}>
            <input
              id={`${id}-name`}
              className="input token-name-input"
              value={form.name}
              placeholder="what it is for: ci-deploy"
              maxLength={TOKEN_NAME_MAX}
              onChange={(event) => edit("name", event.target.value)}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={!!errors.name}
              data-testid="token-name"
            />
            <FieldErrors messages={errors.name} testId="field-error-name" />
          </Field>
          <Field label="Expires in (days)" htmlFor={`${id}-days`}>
            <input
              id={`${id}-days`}
              type="number"
              min={TOKEN_DAYS_MIN}
              max={TOKEN_DAYS_MAX}
              step={1}
              className="input input-number"
              value={form.days}
              onChange={(event) => edit("days", event.target.value)}
              aria-invalid={!!errors.expires_in_days}
              data-testid="token-days"
            />
            <FieldErrors messages={errors.expires_in_days} testId="field-error-expires_in_days" />
          </Field>
          <div className="token-form-submit">
            <button type="submit" className="button button-primary" disabled={busy} data-testid="token-submit">
              {busy ? "Making…" : "Make token"}
            </button>
          </div>
        </div>
        {banner && <ErrorBanner error={banner} title="Could not make the token" />}
      </form>

      {made && <TokenKeyDialog token={made} username={username} onClose={() => setMade(null)} />}

      {pending && (
        <ConfirmDialog
          title="Revoke an API token"
          confirmLabel="Revoke token"
          busy={pending.busy}
          error={pending.error}
          confirmTestId="token-revoke-confirm"
          errorTestId="token-revoke-error"
          onConfirm={() => void confirmRevoke()}
          onCancel={() => {
            requestId.current++;
            setPending(null);
          }}
        >
          <p>
            The token <strong>{pending.token.name}</strong> ({pending.token.prefix}…) of <strong className="mono">{username}</strong> stops
            working at once: every script using it gets 401 from then on.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

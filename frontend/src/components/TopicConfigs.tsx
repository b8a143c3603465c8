import { useState } from "react";
import type { ConfigEntry, ConfigPatch } from "../api/types";
import { ErrorBanner } from "./ErrorBanner";

/** Short names for Kafka's config sources. */
const SOURCE_LABELS: Record<string, string> = {
  DYNAMIC_TOPIC_CONFIG: "topic override",
  DYNAMIC_BROKER_CONFIG: "broker (dynamic)",
  DYNAMIC_DEFAULT_BROKER_CONFIG: "cluster default (dynamic)",
  STATIC_BROKER_CONFIG: "broker (server.properties)",
  DEFAULT_CONFIG: "Kafka default",
  DYNAMIC_BROKER_LOGGER_CONFIG: "broker logger",
  UNKNOWN: "unknown",
};

interface TopicConfigsProps {
  entries: ConfigEntry[];
  /** Admins may edit and reset. */
  editable: boolean;
  /** Applies a change; rejects with the API error. */
  onPatch: (patch: ConfigPatch) => Promise<void>;
}

/**
 * The topic's configs: name, value, source, default?. "Hide defaults" leaves
 * only the values set somewhere (topic or broker). Admins can edit a value
 * (sets a topic override) or reset a topic override to the inherited value.
 */
export function TopicConfigs({ entries, editable, onPatch }: TopicConfigsProps) {
  const [hideDefaults, setHideDefaults] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [draft, setDraft] = useState("");
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  const shown = [...entries]
    .filter((e) => !hideDefaults || !e.is_default)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  const run = async (name: string, patch: ConfigPatch, message: string) => {
    setBusy(name);
    setError(null);
    setSaved(null);
    try {
      await onPatch(patch);
      setEditing(null);
      setSaved(message);
    } catch (err) {
      setError(err instanceof Error ? err : new Error(String(err)));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="configs">
      <div className="toolbar">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={hideDefaults}
            onChange={(event) => setHideDefaults(event.target.checked)}
            data-testid="hide-defaults"
          />
          Hide defaults
        </label>
        <span className="muted">
          {shown.length} of {entries.length} configs
        </span>
        {saved && (
          <span className="notice-inline" role="status" data-testid="config-saved">
            {saved}
          </span>
        )}
      </div>
      {error && <ErrorBanner error={error} title="Could not change the config" />}
      <div className="table-wrap">
        <table className="table" data-testid="configs-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Value</th>
              <th scope="col">Source</th>
              <th scope="col">Default</th>
              {editable && (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {shown.length === 0 && (
              <tr>
                <td colSpan={editable ? 5 : 4} className="empty-cell">
                  Every config has its default value.
                </td>
              </tr>
            )}
            {shown.map((e) => {
              const isEditing = editing === e.name;
              const override = e.source === "DYNAMIC_TOPIC_CONFIG";
              return (
                <tr
                  key={e.name}
                  data-testid={`config-row-${e.name}`}
                  data-default={e.is_default ? "true" : "false"}
                  className={override ? "row-override" : undefined}
                >
                  <td className="mono">{e.name}</td>
                  <td className="mono wrap config-value">
                    {isEditing ? (
                      <form
                        className="inline-form"
                        onSubmit={(event) => {
                          event.preventDefault();
                          void run(e.name, { set: { [e.name]: draft } }, `${e.name} set to ${draft}.`);
                        }}
                      >
                        <input
                          className="input mono"
                          value={draft}
                          onChange={(event) => setDraft(event.target.value)}
                          aria-label={`New value for ${e.name}`}
                          autoFocus
                          disabled={busy !== null}
                          data-testid={`config-input-${e.name}`}
                        />
                        <button
                          type="submit"
                          className="button button-small button-primary"
                          disabled={busy !== null}
                          data-testid={`config-save-${e.name}`}
                        >
                          {busy === e.name ? "Saving…" : "Save"}
                        </button>
                        <button
                          type="button"
                          className="button button-small"
                          onClick={() => setEditing(null)}
                          disabled={busy !== null}
                        >
                          Cancel
                        </button>
                      </form>
                    ) : e.sensitive ? (
                      <span className="muted">(sensitive)</span>
                    ) : e.value === null ? (
                      <span className="muted">—</span>
                    ) : (
                      e.value
                    )}
                  </td>
                  <td title={e.source}>
                    {override ? (
                      <span className="badge badge-info">{SOURCE_LABELS[e.source]}</span>
                    ) : (
                      <span className="muted">{SOURCE_LABELS[e.source] ?? e.source}</span>
                    )}
                  </td>
                  <td>{e.is_default ? <span className="muted">yes</span> : "no"}</td>
                  {editable && (
                    <td className="row-actions">
                      {!isEditing && !e.read_only && (
                        <button
                          type="button"
                          className="button button-small"
                          onClick={() => {
                            setEditing(e.name);
                            setDraft(e.sensitive ? "" : (e.value ?? ""));
                            setError(null);
                          }}
                          disabled={busy !== null}
                          data-testid={`config-edit-${e.name}`}
                        >
                          Edit
                        </button>
                      )}
                      {!isEditing && override && !e.read_only && (
                        <button
                          type="button"
                          className="button button-small"
                          onClick={() => void run(e.name, { delete: [e.name] }, `${e.name} reset to its default.`)}
                          disabled={busy !== null}
                          title="Remove the topic override; the broker or Kafka default applies again"
                          data-testid={`config-reset-${e.name}`}
                        >
                          {busy === e.name ? "Resetting…" : "Reset to default"}
                        </button>
                      )}
                      {e.read_only && <span className="muted">read-only</span>}
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}

import { useId, useState } from "react";
import type { ConfigEntry, ConfigPatch } from "../api/types";
import { ApiError } from "../api/client";
import { isApprovalRequested } from "../lib/approvals";
import { humanConfigValue, isOverride, sourceWords } from "../lib/configValues";
import { fieldProblems } from "../lib/fieldErrors";
import { plural } from "../lib/format";
import { ErrorOrApprovalNotice } from "./ApprovalNotice";
import { FieldErrors } from "./FieldErrors";
import { ToolbarCheckbox } from "./ListToolbar";
import { EmptyRow, TableHead } from "./TableParts";

const CONFIG_COLUMNS = ["Name", "Value", "Source", "Default"];

interface TopicConfigsProps {
  entries: ConfigEntry[];
  /** Admins may edit and reset. */
  editable: boolean;
  /** Applies a change; rejects with the API error. */
  onPatch: (patch: ConfigPatch) => Promise<void>;
}

const byName = (a: ConfigEntry, b: ConfigEntry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The topic's configs. The values set on the topic (overrides) come first; the ones it inherits
 * (broker defaults, Kafka defaults) are folded away behind "Show N defaults". Durations and sizes
 * read in human units ("7 d", "1 GiB", "unlimited") with the raw value beside them (and as the
 * cell's tooltip); each value's source is said in plain words. Admins can edit a value (sets a
 * topic override; the input takes the raw value) or reset an override to the inherited value.
 */
export function TopicConfigs({ entries, editable, onPatch }: TopicConfigsProps) {
  const [showDefaults, setShowDefaults] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [draft, setDraft] = useState("");
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<Error | null>(null);
  /** A refused edit's problems, in plain words, beside the value being edited. */
  const [rowError, setRowError] = useState<{ name: string; messages: string[] } | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const defaultsId = useId();

  const overrides = entries.filter((e) => isOverride(e)).sort(byName);
  const defaults = entries.filter((e) => !isOverride(e)).sort(byName);
  const shownCount = overrides.length + (showDefaults ? defaults.length : 0);
  const columns = CONFIG_COLUMNS.length + (editable ? 1 : 0);

  const run = async (name: string, patch: ConfigPatch, message: string) => {
    setBusy(name);
    setError(null);
    setRowError(null);
    setSaved(null);
    try {
      await onPatch(patch);
      setEditing(null);
      setSaved(message);
    } catch (err) {
      // A refused new value is said beside it (the edit stays open); anything else in the banner.
      const problems = patch.set && err instanceof ApiError && err.status === 400 ? fieldProblems(err) : [];
      if (problems.length > 0) setRowError({ name, messages: problems.map((p) => p.message) });
      else if (isApprovalRequested(err)) {
        // A protected cluster: held for a second admin; the edit closes (nothing changed yet).
        setEditing(null);
        setError(err);
      } else setError(err instanceof Error ? err : new Error(String(err)));
    } finally {
      setBusy(null);
    }
  };

  const row = (e: ConfigEntry) => {
    const isEditing = editing === e.name;
    const override = isOverride(e);
    const setOnTopic = e.source === "DYNAMIC_TOPIC_CONFIG";
    const human = e.sensitive ? null : humanConfigValue(e.name, e.value);
    const draftHuman = isEditing ? humanConfigValue(e.name, draft) : null;
    return (
      <tr
        key={e.name}
        data-testid={`config-row-${e.name}`}
        data-default={e.is_default ? "true" : "false"}
        data-override={override ? "true" : "false"}
        className={override ? "row-override" : undefined}
      >
        <td className="mono">{e.name}</td>
        <td
          className="wrap config-value"
          data-testid={`config-value-${e.name}`}
          data-unit={human?.unit}
          title={human && !isEditing ? `raw value: ${e.value}` : undefined}
        >
          {isEditing ? (
            <>
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
                  onChange={(event) => {
                    setDraft(event.target.value);
                    setRowError(null);
                  }}
                  aria-label={`New value for ${e.name}`}
                  aria-invalid={rowError?.name === e.name}
                  autoFocus
                  disabled={busy !== null}
                  data-testid={`config-input-${e.name}`}
                />
                {draftHuman && (
                  <span className="muted nowrap" data-testid={`config-input-hint-${e.name}`}>
                    = {draftHuman.text}
                  </span>
                )}
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
                  onClick={() => {
                    setEditing(null);
                    setRowError(null);
                  }}
                  disabled={busy !== null}
                >
                  Cancel
                </button>
              </form>
              {rowError?.name === e.name && <FieldErrors messages={rowError.messages} testId={`config-error-${e.name}`} />}
            </>
          ) : e.sensitive ? (
            <span className="muted">(sensitive)</span>
          ) : e.value === null ? (
            <span className="muted">—</span>
          ) : human ? (
            <>
              <span className="config-human nowrap" data-testid={`config-human-${e.name}`}>
                {human.text}
              </span>{" "}
              <span className="config-raw mono muted nowrap" data-testid={`config-raw-${e.name}`}>
                {e.value}
              </span>
            </>
          ) : (
            <span className="mono">{e.value}</span>
          )}
        </td>
        <td title={e.source} data-source={e.source} data-testid={`config-source-${e.name}`}>
          {setOnTopic ? (
            <span className="badge badge-info">{sourceWords(e.source)}</span>
          ) : (
            <span className="muted">{sourceWords(e.source)}</span>
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
            {!isEditing && setOnTopic && !e.read_only && (
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
  };

  return (
    <div className="configs">
      <div className="toolbar">
        <ToolbarCheckbox checked={!showDefaults} onChange={(hide) => setShowDefaults(!hide)} testId="hide-defaults">
          Hide defaults
        </ToolbarCheckbox>
        <span className="muted" data-testid="configs-count">
          {shownCount} of {entries.length} configs: {overrides.length} set on the topic, {defaults.length}{" "}
          {plural(defaults.length, "default")}
        </span>
        {saved && (
          <span className="notice-inline" role="status" data-testid="config-saved">
            {saved}
          </span>
        )}
      </div>
      {error && <ErrorOrApprovalNotice error={error} title="Could not change the config" />}
      <div className="table-wrap">
        <table className="table" data-testid="configs-table">
          <TableHead columns={editable ? [...CONFIG_COLUMNS, { label: "Actions", hidden: true }] : CONFIG_COLUMNS} />
          <tbody>
            {overrides.length === 0 && (
              <EmptyRow span={columns} testId="configs-no-overrides">
                Nothing is set on this topic: every value comes from the brokers or Kafka&apos;s defaults.
              </EmptyRow>
            )}
            {overrides.map(row)}
            {defaults.length > 0 && (
              <tr className="config-fold">
                <td colSpan={columns}>
                  <button
                    type="button"
                    className="button button-small"
                    aria-expanded={showDefaults}
                    aria-controls={showDefaults ? defaultsId : undefined}
                    onClick={() => setShowDefaults((shown) => !shown)}
                    data-testid="config-defaults-toggle"
                  >
                    {showDefaults ? "Hide" : "Show"} {defaults.length} {plural(defaults.length, "default")}
                  </button>{" "}
                  <span className="muted">inherited from the brokers or Kafka</span>
                </td>
              </tr>
            )}
          </tbody>
          {showDefaults && defaults.length > 0 && (
            <tbody id={defaultsId} data-testid="config-defaults">
              {defaults.map(row)}
            </tbody>
          )}
        </table>
      </div>
    </div>
  );
}

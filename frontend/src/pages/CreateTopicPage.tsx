import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import { ApiError } from "../api/client";
import { createTopic } from "../api/endpoints";
import { clusterDetailQuery } from "../api/queries";
import { queryKeys } from "../api/queryKeys";
import { hasRole, useCurrentUser } from "../components/CurrentUser";
import { ErrorBanner } from "../components/ErrorBanner";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { clusterPath, topicPath } from "../navigation";
import { PageShell } from "../components/PageShell";

/** The body fields whose 400 is shown next to the field (details.field). */
const FORM_FIELDS = ["name", "partitions", "replication_factor", "configs"] as const;
type FormField = (typeof FORM_FIELDS)[number];

interface ConfigRow {
  id: number;
  key: string;
  value: string;
}

/** Where an API error belongs: a form field, or (null) the banner. */
export function errorField(error: unknown): FormField | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 409) return "name"; // topic exists
  if (error.status !== 400) return null;
  const field = error.details.field;
  if (typeof field !== "string") return null;
  // "configs.retention.ms" or "configs" both belong to the configs rows.
  const head = field.split(".")[0] as FormField;
  return (FORM_FIELDS as readonly string[]).includes(head) ? head : null;
}

/**
 * /clusters/:cluster/create-topic — name, partitions (default 3), replication
 * factor (default min(3, live brokers)) and config overrides. The server
 * validates: a 400 shows next to the field it names; a 201 opens the topic.
 */
export function CreateTopicPage() {
  const { cluster = "" } = useParams<{ cluster: string }>();
  useDocumentTitle(`New topic · ${cluster}`);
  const navigate = useNavigate();
  const { user } = useCurrentUser();

  const [name, setName] = useState("");
  const [partitions, setPartitions] = useState("3");
  const [rf, setRf] = useState("3");
  const rfTouched = useRef(false);
  const nextId = useRef(1);
  const [configs, setConfigs] = useState<ConfigRow[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);

  // Default RF: min(3, live brokers), unless the user already changed it. Asked for once.
  const client = useQueryClient();
  const { data: clusterDetail } = useQuery({ ...clusterDetailQuery(cluster), refetchOnWindowFocus: false });
  const brokerCount = clusterDetail ? (clusterDetail.broker_count ?? clusterDetail.brokers.length) : null;
  useEffect(() => {
    if (!rfTouched.current && brokerCount !== null && brokerCount > 0) setRf(String(Math.min(3, brokerCount)));
  }, [brokerCount]);

  const field = errorField(error);
  const fieldError = (f: FormField) =>
    field === f && error ? (
      <p className="field-error" role="alert" data-testid={`field-error-${f}`}>
        {error.message}
      </p>
    ) : null;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const body = {
      name,
      partitions: Number(partitions),
      replication_factor: Number(rf),
      configs: Object.fromEntries(configs.filter((c) => c.key.trim() !== "").map((c) => [c.key.trim(), c.value])),
    };
    try {
      const detail = await createTopic(cluster, body);
      // The answer is the new topic: its page shows it at once (and fetches it again).
      if (detail) client.setQueryData(queryKeys.topic(cluster, detail.name), detail);
      navigate(topicPath(cluster, detail?.name ?? name));
    } catch (err) {
      setError(err instanceof Error ? err : new Error(String(err)));
      setBusy(false);
    }
  };

  const setConfig = (id: number, change: Partial<ConfigRow>) =>
    setConfigs((rows) => rows.map((r) => (r.id === id ? { ...r, ...change } : r)));

  return (
    <PageShell
      crumbs={[
        { label: "Clusters", to: "/" },
        { label: cluster, to: clusterPath(cluster) },
        { label: "Topics", to: clusterPath(cluster, "topics") },
        { label: "New topic" },
      ]}
      title={cluster}
      tabsOf={cluster}
    >
      <h2>Create a topic</h2>

      {user && !hasRole(user, "admin") && (
        <p className="notice notice-warn" data-testid="admin-only">
          Only admins can create topics; the server will refuse this form for your role ({user.role}).
        </p>
      )}
      {error && field === null && <ErrorBanner error={error} title="Could not create the topic" />}

      <form className="form-card" onSubmit={(event) => void onSubmit(event)} noValidate data-testid="create-topic-form">
        <div className="field">
          <label htmlFor="create-name" className="field-label">
            Name
          </label>
          <input
            id="create-name"
            className="input input-wide mono"
            value={name}
            onChange={(event) => setName(event.target.value)}
            autoComplete="off"
            spellCheck={false}
            autoFocus
            aria-invalid={field === "name"}
            data-testid="create-name"
          />
          <p className="field-hint">ASCII letters, digits, “.”, “_” and “-”; at most 249 characters.</p>
          {fieldError("name")}
        </div>

        <div className="field-row">
          <div className="field">
            <label htmlFor="create-partitions" className="field-label">
              Partitions
            </label>
            <input
              id="create-partitions"
              type="number"
              min={1}
              step={1}
              className="input input-number"
              value={partitions}
              onChange={(event) => setPartitions(event.target.value)}
              aria-invalid={field === "partitions"}
              data-testid="create-partitions"
            />
            {fieldError("partitions")}
          </div>
          <div className="field">
            <label htmlFor="create-rf" className="field-label">
              Replication factor
            </label>
            <input
              id="create-rf"
              type="number"
              min={1}
              step={1}
              className="input input-number"
              value={rf}
              onChange={(event) => {
                rfTouched.current = true;
                setRf(event.target.value);
              }}
              aria-invalid={field === "replication_factor"}
              data-testid="create-rf"
            />
            {brokerCount !== null && (
              <p className="field-hint">
                {brokerCount} live {brokerCount === 1 ? "broker" : "brokers"}
              </p>
            )}
            {fieldError("replication_factor")}
          </div>
        </div>

        <fieldset className="field">
          <legend className="field-label">Configs</legend>
          {configs.length === 0 && <p className="field-hint">None: the broker defaults apply.</p>}
          {configs.map((row, i) => (
            <div className="config-edit-row" key={row.id} data-testid={`create-config-${i}`}>
              <input
                className="input mono"
                placeholder="name, e.g. retention.ms"
                aria-label={`Config ${i + 1} name`}
                value={row.key}
                onChange={(event) => setConfig(row.id, { key: event.target.value })}
                data-testid={`create-config-key-${i}`}
              />
              <input
                className="input mono"
                placeholder="value"
                aria-label={`Config ${i + 1} value`}
                value={row.value}
                onChange={(event) => setConfig(row.id, { value: event.target.value })}
                data-testid={`create-config-value-${i}`}
              />
              <button
                type="button"
                className="button button-small"
                onClick={() => setConfigs((rows) => rows.filter((r) => r.id !== row.id))}
                aria-label={`Remove config ${i + 1}`}
                data-testid={`create-config-remove-${i}`}
              >
                Remove
              </button>
            </div>
          ))}
          <button
            type="button"
            className="button button-small"
            onClick={() => setConfigs((rows) => [...rows, { id: nextId.current++, key: "", value: "" }])}
            data-testid="create-config-add"
          >
            Add config
          </button>
          {fieldError("configs")}
        </fieldset>

        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={busy} data-testid="create-submit">
            {busy ? "Creating…" : "Create topic"}
          </button>
          <Link to={clusterPath(cluster, "topics")} className="button">
            Cancel
          </Link>
        </div>
      </form>
    </PageShell>
  );
}

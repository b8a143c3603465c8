import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import { createTopic } from "../api/endpoints";
import { clusterDetailQuery } from "../api/queries";
import { queryKeys } from "../api/queryKeys";
import { hasRole, useCurrentUser } from "../components/CurrentUser";
import { ErrorBanner } from "../components/ErrorBanner";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { humanConfigValue } from "../lib/configValues";
import { checkNewTopic, placeTopicErrors, type TopicFormErrors } from "../lib/topicForm";
import { clusterPath, topicPath } from "../navigation";
import { PageShell } from "../components/PageShell";

interface ConfigRow {
  id: number;
  key: string;
  value: string;
}

/** A field's messages, one per line, beside it (`field-error-<key>`). */
function FieldErrors({ errors, field }: { errors: TopicFormErrors; field: string }) {
  const messages = errors[field];
  if (!messages?.length) return null;
  return (
    <div className="field-error" role="alert" data-testid={`field-error-${field}`}>
      {messages.map((message, index) => (
        <p key={index} className="field-error-line">
          {message}
        </p>
      ))}
    </div>
  );
}

/**
 * /clusters/:cluster/create-topic — name, partitions (default 3), replication
 * factor (default min(3, live brokers)) and config overrides (a duration or size
 * read back in human units as it is typed). What Kafka would refuse on any cluster
 * is found before sending; the server checks the rest. Every problem shows at
 * once, beside its field, in plain words; a 201 opens the topic.
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
  const [errors, setErrors] = useState<TopicFormErrors>({});
  const [banner, setBanner] = useState<Error | null>(null);

  // Default RF: min(3, live brokers), unless the user already changed it. Asked for once.
  const client = useQueryClient();
  const { data: clusterDetail } = useQuery({ ...clusterDetailQuery(cluster), refetchOnWindowFocus: false });
  const brokerCount = clusterDetail ? (clusterDetail.broker_count ?? clusterDetail.brokers.length) : null;
  useEffect(() => {
    if (!rfTouched.current && brokerCount !== null && brokerCount > 0) setRf(String(Math.min(3, brokerCount)));
  }, [brokerCount]);

  /** Editing a field clears what was said about it. */
  const clear = (...fields: string[]) => {
    if (fields.some((f) => errors[f])) {
      setErrors((current) => Object.fromEntries(Object.entries(current).filter(([f]) => !fields.includes(f))));
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBanner(null);
    const local = checkNewTopic({ name, partitions, replicationFactor: rf, configs });
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    setBusy(true);
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
      const placed = placeTopicErrors(err, configs.map((c) => c.key));
      setErrors(placed.fields);
      setBanner(placed.banner);
      setBusy(false);
    }
  };

  const setConfig = (index: number, id: number, change: Partial<ConfigRow>) => {
    clear(`config-${index}`, "configs");
    setConfigs((rows) => rows.map((r) => (r.id === id ? { ...r, ...change } : r)));
  };

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
      {banner && <ErrorBanner error={banner} title="Could not create the topic" />}

      <form className="form-card" onSubmit={(event) => void onSubmit(event)} noValidate data-testid="create-topic-form">
        <div className="field">
          <label htmlFor="create-name" className="field-label">
            Name
          </label>
          <input
            id="create-name"
            className="input input-wide mono"
            value={name}
            onChange={(event) => {
              clear("name");
              setName(event.target.value);
            }}
            autoComplete="off"
            spellCheck={false}
            autoFocus
            aria-invalid={!!errors.name}
            data-testid="create-name"
          />
          <p className="field-hint">ASCII letters, digits, “.”, “_” and “-”; at most 249 characters.</p>
          <FieldErrors errors={errors} field="name" />
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
              onChange={(event) => {
                clear("partitions");
                setPartitions(event.target.value);
              }}
              aria-invalid={!!errors.partitions}
              data-testid="create-partitions"
            />
            <FieldErrors errors={errors} field="partitions" />
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
                clear("replication_factor");
                setRf(event.target.value);
              }}
              aria-invalid={!!errors.replication_factor}
              data-testid="create-rf"
            />
            {brokerCount !== null && (
              <p className="field-hint">
                {brokerCount} live {brokerCount === 1 ? "broker" : "brokers"}
              </p>
            )}
            <FieldErrors errors={errors} field="replication_factor" />
          </div>
        </div>

        <fieldset className="field">
          <legend className="field-label">Configs</legend>
          {configs.length === 0 && <p className="field-hint">None: the broker defaults apply.</p>}
          {configs.map((row, i) => {
            const human = humanConfigValue(row.key.trim(), row.value);
            return (
              <div key={row.id} className="config-edit-block">
                <div className="config-edit-row" data-testid={`create-config-${i}`}>
                  <input
                    className="input mono"
                    placeholder="name, e.g. retention.ms"
                    aria-label={`Config ${i + 1} name`}
                    value={row.key}
                    onChange={(event) => setConfig(i, row.id, { key: event.target.value })}
                    aria-invalid={!!errors[`config-${i}`]}
                    data-testid={`create-config-key-${i}`}
                  />
                  <input
                    className="input mono"
                    placeholder="value"
                    aria-label={`Config ${i + 1} value`}
                    value={row.value}
                    onChange={(event) => setConfig(i, row.id, { value: event.target.value })}
                    aria-invalid={!!errors[`config-${i}`]}
                    data-testid={`create-config-value-${i}`}
                  />
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() => {
                      setErrors({});
                      setConfigs((rows) => rows.filter((r) => r.id !== row.id));
                    }}
                    aria-label={`Remove config ${i + 1}`}
                    data-testid={`create-config-remove-${i}`}
                  >
                    Remove
                  </button>
                </div>
                {human && (
                  <p className="field-hint config-edit-hint" data-testid={`create-config-hint-${i}`}>
                    = {human.text}
                  </p>
                )}
                <FieldErrors errors={errors} field={`config-${i}`} />
              </div>
            );
          })}
          <button
            type="button"
            className="button button-small"
            onClick={() => setConfigs((rows) => [...rows, { id: nextId.current++, key: "", value: "" }])}
            data-testid="create-config-add"
          >
            Add config
          </button>
          <FieldErrors errors={errors} field="configs" />
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

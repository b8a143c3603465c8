import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import { createTopic } from "../api/endpoints";
import { clusterDetailQuery } from "../api/queries";
import { queryKeys } from "../api/queryKeys";
import { RoleNotice } from "../components/CurrentUser";
import { ErrorBanner } from "../components/ErrorBanner";
import { Field, WholeNumberInput } from "../components/Field";
import { FieldErrors } from "../components/FieldErrors";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { humanConfigValue } from "../lib/configValues";
import { checkNewTopic, placeTopicErrors, type TopicFormErrors } from "../lib/topicForm";
import { clusterPath, topicPath } from "../navigation";
import { clusterCrumbs, PageShell } from "../components/PageShell";

interface ConfigRow {
  id: number;
  key: string;
  value: string;
}

/** The two inputs of a config override: its name and its value. */
const CONFIG_INPUTS = [
  { field: "key", placeholder: "name, e.g. retention.ms", label: "name" },
  { field: "value", placeholder: "value", label: "value" },
] as const;

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

  /** The input of a count (partitions, replication factor: at least 1), its test id its id; editing
   * it clears what was said about `field`. */
  const countInput = (id: string, field: string, value: string, onChange: (value: string) => void) => (
    <WholeNumberInput
      id={id}
      testId={id}
      width="input-number"
      min={1}
      value={value}
      onChange={(next) => {
        clear(field);
        onChange(next);
      }}
      invalid={!!errors[field]}
    />
  );

  const setConfig = (index: number, id: number, change: Partial<ConfigRow>) => {
    clear(`config-${index}`, "configs");
    setConfigs((rows) => rows.map((r) => (r.id === id ? { ...r, ...change } : r)));
  };

  return (
    <PageShell
      crumbs={clusterCrumbs(cluster, "topics", "New topic")}
      title={cluster}
      tabsOf={cluster}
    >
      <h2>Create a topic</h2>

      <RoleNotice role="admin" testId="admin-only">
        Only admins can create topics; the server will refuse this form for your role
      </RoleNotice>
      {banner && <ErrorBanner error={banner} title="Could not create the topic" />}

      <form className="form-card" onSubmit={(event) => void onSubmit(event)} noValidate data-testid="create-topic-form">
        <Field label="Name" htmlFor="create-name">
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
          <FieldErrors messages={errors.name} testId="field-error-name" />
        </Field>

        <div className="field-row">
          <Field label="Partitions" htmlFor="create-partitions">
            {countInput("create-partitions", "partitions", partitions, setPartitions)}
            <FieldErrors messages={errors.partitions} testId="field-error-partitions" />
          </Field>
          <Field label="Replication factor" htmlFor="create-rf">
            {countInput("create-rf", "replication_factor", rf, (value) => {
              rfTouched.current = true;
              setRf(value);
            })}
            {brokerCount !== null && (
              <p className="field-hint">
                {brokerCount} live {brokerCount === 1 ? "broker" : "brokers"}
              </p>
            )}
            <FieldErrors messages={errors.replication_factor} testId="field-error-replication_factor" />
          </Field>
        </div>

        <fieldset className="field">
          <legend className="field-label">Configs</legend>
          {configs.length === 0 && <p className="field-hint">None: the broker defaults apply.</p>}
          {configs.map((row, i) => {
            const human = humanConfigValue(row.key.trim(), row.value);
            return (
              <div key={row.id} className="config-edit-block">
                <div className="config-edit-row" data-testid={`create-config-${i}`}>
                  {CONFIG_INPUTS.map(({ field, placeholder, label }) => (
                    <input
                      key={field}
                      className="input mono"
                      placeholder={placeholder}
                      aria-label={`Config ${i + 1} ${label}`}
                      value={row[field]}
                      onChange={(event) => setConfig(i, row.id, { [field]: event.target.value })}
                      aria-invalid={!!errors[`config-${i}`]}
                      data-testid={`create-config-${field}-${i}`}
                    />
                  ))}
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
                <FieldErrors messages={errors[`config-${i}`]} testId={`field-error-config-${i}`} />
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
          <FieldErrors messages={errors.configs} testId="field-error-configs" />
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

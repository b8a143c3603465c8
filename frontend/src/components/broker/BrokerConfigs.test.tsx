import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { BrokerDetail, ConfigEntry, CurrentUser } from "../../api/types";
import {
  BROKER_2_CONFIGS_URL,
  BROKER_2_EDITABLE,
  BROKER_2_URL,
  BROKER_DEFAULTS,
  BROKER_DEFAULTS_URL,
} from "../../test/brokerFixtures";
import { apiError, json, stubFetch, type StubResponse } from "../../test/fetchStub";
import { ADMIN, ME } from "../../test/fixtures";
import { renderApp } from "../../test/render";

interface Patch {
  url: string;
  method: string | undefined;
  body: unknown;
}

/**
 * A fake server for broker 2's page: the broker, the cluster-wide configs, and the two PATCH
 * endpoints applying `set` and `delete` as Kafka would (or answering `refuse` when given).
 */
async function openBroker2(user: CurrentUser, defaults: ConfigEntry[] = BROKER_DEFAULTS) {
  const server = {
    detail: BROKER_2_EDITABLE as BrokerDetail,
    defaults,
    refuse: null as StubResponse | null,
    patches: [] as Patch[],
  };
  const record = (url: string, init: RequestInit | undefined) => {
    const body = JSON.parse(String(init?.body)) as { set?: Record<string, string>; delete?: string[] };
    server.patches.push({ url, method: init?.method, body });
    return body;
  };
  const fetch = stubFetch({
    "/api/v1/me": json(user),
    [BROKER_2_URL]: () => json(server.detail),
    [BROKER_2_CONFIGS_URL]: (_url, init) => {
      const body = record(BROKER_2_CONFIGS_URL, init);
      if (server.refuse) return server.refuse;
      const configs = server.detail.configs.map((c) =>
        body.set && c.name in body.set
          ? { ...c, value: body.set[c.name]!, source: "DYNAMIC_BROKER_CONFIG", is_default: false }
          : body.delete?.includes(c.name)
            ? { ...c, value: "15000", source: "DEFAULT_CONFIG", is_default: true }
            : c,
      );
      server.detail = { ...server.detail, configs };
      return json(configs);
    },
    [BROKER_DEFAULTS_URL]: (_url, init) => {
      if (init?.method !== "PATCH") return json(server.defaults);
      const body = record(BROKER_DEFAULTS_URL, init);
      if (server.refuse) return server.refuse;
      const added = Object.entries(body.set ?? {}).map(([name, value]) => ({
        name,
        value,
        source: "DYNAMIC_DEFAULT_BROKER_CONFIG",
        is_default: false,
        read_only: false,
        sensitive: false,
      }));
      server.defaults = [
        ...server.defaults.filter((c) => !body.delete?.includes(c.name) && !added.some((a) => a.name === c.name)),
        ...added,
      ];
      return json(server.defaults);
    },
  });
  renderApp("/clusters/local/brokers/2");
  await screen.findByTestId("broker-configs");
  await screen.findByTestId("broker-defaults-table");
  const gets = (url: string) => fetch.mock.calls.filter(([u, init]) => String(u) === url && init?.method === "GET").length;
  return { server, gets };
}

const row = (name: string) => screen.getByTestId(`broker-config-${name}`);
const valueCell = (name: string) => within(row(name)).getAllByRole("cell")[1]!;

function openEditor(name: string) {
  fireEvent.click(screen.getByTestId(`broker-config-edit-${name}`));
  return screen.getByTestId("broker-config-editor");
}

describe("Broker configs, for a user below admin", () => {
  it("offers no Edit or Revert, and shows the cluster-wide configs without Revert", async () => {
    await openBroker2(ME);
    expect(screen.queryAllByTestId(/^broker-config-edit-/)).toEqual([]);
    expect(screen.queryAllByTestId(/^broker-config-revert-/)).toEqual([]);
    expect(screen.queryAllByTestId(/^broker-default-revert-/)).toEqual([]);
    // No actions column.
    expect(within(row("log.cleaner.backoff.ms")).getAllByRole("cell")).toHaveLength(4);
    expect(screen.getByTestId("broker-default-log.cleaner.threads")).toBeInTheDocument();
  });
});

describe("Broker configs, for an admin", () => {
  it("offers Edit on every config that is not read-only, Revert on those set on this broker", async () => {
    await openBroker2(ADMIN);
    const editable = screen.getAllByTestId(/^broker-config-edit-/).map((b) => b.getAttribute("data-testid"));
    expect(editable).toEqual([
      "broker-config-edit-log.cleaner.backoff.ms",
      "broker-config-edit-log.cleaner.threads",
      "broker-config-edit-ssl.keystore.password",
    ]);
    // Read-only: no Edit, the hint why.
    for (const name of ["num.io.threads", "log.retention.hours", "sasl.jaas.config", "auto.create.topics.enable"]) {
      expect(screen.queryByTestId(`broker-config-edit-${name}`)).toBeNull();
      expect(screen.getByTestId(`broker-config-read-only-${name}`)).toHaveAttribute("title", "set in server.properties; needs a restart");
    }
    // Revert only where the value is this broker's own (not the cluster-wide log.cleaner.threads).
    expect(screen.getAllByTestId(/^broker-config-revert-/).map((b) => b.getAttribute("data-testid"))).toEqual([
      "broker-config-revert-ssl.keystore.password",
    ]);
  });

  it("sets a value on this broker only after the confirmation says exactly what changes", async () => {
    const { server, gets } = await openBroker2(ADMIN);
    const editor = openEditor("log.cleaner.backoff.ms");
    const input = within(editor).getByTestId("broker-config-value");
    expect(input).toHaveAttribute("type", "text");
    expect(input).toHaveValue("15000");
    expect(within(editor).getByTestId("broker-config-level-broker")).toBeChecked();
    fireEvent.change(input, { target: { value: "20000" } });
    expect(within(editor).getByTestId("broker-config-value-hint")).toHaveTextContent("= 20 s");

    fireEvent.click(within(editor).getByTestId("broker-config-save"));
    const dialog = screen.getByTestId("confirm-dialog");
    expect(within(dialog).getByTestId("broker-config-change")).toHaveTextContent(/^Set log\.cleaner\.backoff\.ms = 20000 on broker 2$/);
    expect(screen.queryByTestId("broker-config-editor")).toBeNull();
    expect(server.patches).toEqual([]);

    const brokerGets = gets(BROKER_2_URL);
    const defaultsGets = gets(BROKER_DEFAULTS_URL);
    fireEvent.click(within(dialog).getByTestId("confirm-button"));
    expect(await screen.findByTestId("broker-config-saved")).toHaveTextContent("Set log.cleaner.backoff.ms = 20000 on broker 2.");
    expect(server.patches).toEqual([
      { url: BROKER_2_CONFIGS_URL, method: "PATCH", body: { set: { "log.cleaner.backoff.ms": "20000" } } },
    ]);
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
    // The answer shows at once; the broker and the cluster-wide configs are fetched again.
    expect(valueCell("log.cleaner.backoff.ms")).toHaveTextContent("20 s 20000");
    expect(within(row("log.cleaner.backoff.ms")).getAllByRole("cell")[2]).toHaveTextContent("dynamic, this broker");
    expect(screen.getByTestId("broker-config-revert-log.cleaner.backoff.ms")).toBeInTheDocument();
    await waitFor(() => expect(gets(BROKER_2_URL)).toBeGreaterThan(brokerGets));
    await waitFor(() => expect(gets(BROKER_DEFAULTS_URL)).toBeGreaterThan(defaultsGets));
  });

  it("sets a value cluster-wide through broker-defaults", async () => {
    const { server } = await openBroker2(ADMIN);
    const editor = openEditor("log.cleaner.backoff.ms");
    fireEvent.change(within(editor).getByTestId("broker-config-value"), { target: { value: "20000" } });
    fireEvent.click(within(editor).getByTestId("broker-config-level-cluster"));
    expect(within(editor).getByTestId("broker-config-level-broker")).not.toBeChecked();
    fireEvent.click(within(editor).getByTestId("broker-config-save"));
    expect(screen.getByTestId("broker-config-change")).toHaveTextContent(
      /^Set log\.cleaner\.backoff\.ms = 20000 on all brokers \(cluster-wide default\)$/,
    );
    fireEvent.click(screen.getByTestId("confirm-button"));

    await screen.findByTestId("broker-config-saved");
    expect(server.patches).toEqual([
      { url: BROKER_DEFAULTS_URL, method: "PATCH", body: { set: { "log.cleaner.backoff.ms": "20000" } } },
    ]);
    const added = await screen.findByTestId("broker-default-log.cleaner.backoff.ms");
    expect(added).toHaveTextContent("20 s");
  });

  it("starts a cluster-wide value's edit cluster-wide, and warns when this broker's own value wins", async () => {
    await openBroker2(ADMIN);
    let editor = openEditor("log.cleaner.threads");
    expect(within(editor).getByTestId("broker-config-level-cluster")).toBeChecked();
    fireEvent.click(within(editor).getByTestId("broker-config-cancel"));
    expect(screen.queryByTestId("broker-config-editor")).toBeNull();

    editor = openEditor("ssl.keystore.password");
    fireEvent.change(within(editor).getByTestId("broker-config-value"), { target: { value: "pw" } });
    fireEvent.click(within(editor).getByTestId("broker-config-level-cluster"));
    fireEvent.click(within(editor).getByTestId("broker-config-save"));
    expect(screen.getByTestId("broker-config-shadowed")).toHaveTextContent("Broker 2 has a value of its own");
  });

  it("sends nothing when the confirmation is dismissed, and goes back to the value typed", async () => {
    const { server } = await openBroker2(ADMIN);
    const editor = openEditor("log.cleaner.backoff.ms");
    fireEvent.change(within(editor).getByTestId("broker-config-value"), { target: { value: "30000" } });
    fireEvent.click(within(editor).getByTestId("broker-config-save"));
    fireEvent.click(screen.getByTestId("confirm-dismiss"));
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
    expect(screen.getByTestId("broker-config-value")).toHaveValue("30000");
    fireEvent.keyDown(document, { key: "Escape" });
    expect(screen.queryByTestId("broker-config-editor")).toBeNull();
    expect(server.patches).toEqual([]);
    expect(valueCell("log.cleaner.backoff.ms")).toHaveTextContent("15 s 15000");
  });

  it("never prefills nor shows a sensitive value: a password input, the value hidden in the confirmation", async () => {
    const { server } = await openBroker2(ADMIN);
    const editor = openEditor("ssl.keystore.password");
    const input = within(editor).getByTestId("broker-config-value");
    expect(input).toHaveAttribute("type", "password");
    expect(input).toHaveValue("");
    expect(within(editor).getByTestId("broker-config-save")).toBeDisabled();
    fireEvent.change(input, { target: { value: "n3w-s3cret" } });
    fireEvent.click(within(editor).getByTestId("broker-config-save"));
    expect(screen.getByTestId("broker-config-change")).toHaveTextContent(/^Set ssl\.keystore\.password = \(hidden\) on broker 2$/);
    expect(document.body).not.toHaveTextContent("n3w-s3cret");
    fireEvent.click(screen.getByTestId("confirm-button"));
    await screen.findByTestId("broker-config-saved");
    expect(server.patches[0]!.body).toEqual({ set: { "ssl.keystore.password": "n3w-s3cret" } });
    expect(document.body).not.toHaveTextContent("n3w-s3cret");
  });

  it("reverts a value set on this broker with a delete, after confirming", async () => {
    const { server } = await openBroker2(ADMIN);
    fireEvent.click(screen.getByTestId("broker-config-revert-ssl.keystore.password"));
    expect(screen.getByTestId("broker-config-revert-change")).toHaveTextContent(/^Revert ssl\.keystore\.password on broker 2$/);
    expect(server.patches).toEqual([]);
    fireEvent.click(screen.getByTestId("confirm-button"));
    expect(await screen.findByTestId("broker-config-saved")).toHaveTextContent("Revert ssl.keystore.password on broker 2.");
    expect(server.patches).toEqual([{ url: BROKER_2_CONFIGS_URL, method: "PATCH", body: { delete: ["ssl.keystore.password"] } }]);
    expect(screen.queryByTestId("broker-config-revert-ssl.keystore.password")).toBeNull();
  });

  it("shows a refusal (400) beside the value, keeps it, and changes nothing else", async () => {
    const { server } = await openBroker2(ADMIN);
    server.refuse = apiError(
      400,
      "bad_input",
      "set: Invalid value abc for configuration log.cleaner.backoff.ms: Not a number of type LONG",
      { field: "set" },
    );
    const editor = openEditor("log.cleaner.backoff.ms");
    fireEvent.change(within(editor).getByTestId("broker-config-value"), { target: { value: "abc" } });
    fireEvent.click(within(editor).getByTestId("broker-config-save"));
    fireEvent.click(screen.getByTestId("confirm-button"));

    const error = await screen.findByTestId("broker-config-error");
    expect(error).toHaveTextContent(/^Invalid value abc for configuration log\.cleaner\.backoff\.ms: Not a number of type LONG$/);
    expect(screen.getByTestId("broker-config-editor")).toContainElement(error);
    expect(screen.getByTestId("broker-config-value")).toHaveValue("abc");
    expect(screen.getByTestId("broker-config-value")).toHaveAttribute("aria-invalid", "true");
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
    expect(screen.queryByTestId("broker-config-saved")).toBeNull();
    expect(screen.queryByTestId("error-banner")).toBeNull();
    expect(valueCell("log.cleaner.backoff.ms")).toHaveTextContent("15 s 15000");
    expect(server.patches).toHaveLength(1);

    // Typing again clears it.
    fireEvent.change(screen.getByTestId("broker-config-value"), { target: { value: "20000" } });
    expect(screen.queryByTestId("broker-config-error")).toBeNull();
  });

  it("keeps any other failure in the confirmation", async () => {
    const { server } = await openBroker2(ADMIN);
    server.refuse = apiError(403, "forbidden", "Only admins may change broker configs.");
    const editor = openEditor("log.cleaner.backoff.ms");
    fireEvent.click(within(editor).getByTestId("broker-config-save"));
    fireEvent.click(screen.getByTestId("confirm-button"));
    expect(await screen.findByTestId("broker-config-confirm-error")).toHaveTextContent("Only admins may change broker configs.");
    expect(screen.getByTestId("confirm-dialog")).toBeInTheDocument();
    expect(screen.queryByTestId("broker-config-saved")).toBeNull();
  });
});

describe("Cluster-wide dynamic configs", () => {
  it("lists them by name, a sensitive value never shown", async () => {
    await openBroker2(ADMIN);
    const section = screen.getByTestId("broker-defaults");
    expect(section).toHaveTextContent("Cluster-wide dynamic configs");
    const names = within(section)
      .getAllByTestId(/^broker-default-(?!revert)/)
      .map((r) => r.getAttribute("data-testid"));
    expect(names).toEqual(["broker-default-listener.name.internal.ssl.key.password", "broker-default-log.cleaner.threads"]);
    const threads = within(screen.getByTestId("broker-default-log.cleaner.threads")).getAllByRole("cell");
    expect(threads.map((c) => c.textContent)).toEqual(["log.cleaner.threads", "2", "Revert"]);
    expect(screen.getByTestId("broker-default-listener.name.internal.ssl.key.password")).toHaveTextContent("(sensitive)");
  });

  it("says when none is set", async () => {
    await openBroker2(ADMIN, []);
    expect(screen.getByTestId("broker-defaults-empty")).toHaveTextContent("No cluster-wide dynamic config is set.");
    expect(screen.queryAllByTestId(/^broker-default-revert-/)).toEqual([]);
  });

  it("reverts one cluster-wide with a delete on broker-defaults, after confirming", async () => {
    const { server, gets } = await openBroker2(ADMIN);
    const brokerGets = gets(BROKER_2_URL);
    fireEvent.click(screen.getByTestId("broker-default-revert-log.cleaner.threads"));
    expect(screen.getByTestId("broker-config-revert-change")).toHaveTextContent(
      /^Revert log\.cleaner\.threads on all brokers \(cluster-wide default\)$/,
    );
    expect(server.patches).toEqual([]);
    fireEvent.click(screen.getByTestId("confirm-button"));
    expect(await screen.findByTestId("broker-default-saved")).toHaveTextContent(
      "Revert log.cleaner.threads on all brokers (cluster-wide default).",
    );
    expect(server.patches).toEqual([{ url: BROKER_DEFAULTS_URL, method: "PATCH", body: { delete: ["log.cleaner.threads"] } }]);
    expect(screen.queryByTestId("broker-default-log.cleaner.threads")).toBeNull();
    // Every broker's configs change with it: the broker is fetched again.
    await waitFor(() => expect(gets(BROKER_2_URL)).toBeGreaterThan(brokerGets));
  });

  it("says a refused revert in its confirmation and leaves the list", async () => {
    const { server } = await openBroker2(ADMIN);
    server.refuse = apiError(
      400,
      "bad_input",
      "delete: log.cleaner.threads not set dynamically cluster-wide: nothing to delete (kafka-configs.sh refuses it the same way).",
      { field: "delete" },
    );
    fireEvent.click(screen.getByTestId("broker-default-revert-log.cleaner.threads"));
    fireEvent.click(screen.getByTestId("confirm-button"));
    expect(await screen.findByTestId("broker-config-revert-error")).toHaveTextContent(
      /^log\.cleaner\.threads not set dynamically cluster-wide: nothing to delete/,
    );
    expect(screen.getByTestId("broker-default-log.cleaner.threads")).toBeInTheDocument();
    expect(screen.queryByTestId("broker-default-saved")).toBeNull();
  });

  it("says why it could not be read, and shows the rest of the page", async () => {
    stubFetch({
      "/api/v1/me": json(ADMIN),
      [BROKER_2_URL]: json(BROKER_2_EDITABLE),
      [BROKER_DEFAULTS_URL]: apiError(504, "kafka_timeout", "Kafka did not answer in time."),
    });
    renderApp("/clusters/local/brokers/2");
    expect(await screen.findByTestId("broker-defaults-error")).toHaveTextContent("Kafka did not answer in time.");
    expect(screen.queryByTestId("broker-defaults-table")).toBeNull();
    expect(screen.getByTestId("broker-config-edit-log.cleaner.backoff.ms")).toBeInTheDocument();
    expect(screen.queryByTestId("error-banner")).toBeNull();
  });
});

import { act, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AlertRule } from "../api/alerts";
import { ALERT_EVENTS, ALERT_RULES, alertEvent, alertRule, attempt } from "../test/alertFixtures";
import { change, click } from "../test/byTestId";
import { apiError, callsTo, json, stubFetch } from "../test/fetchStub";
import { CLUSTERS, ME, VIEWER } from "../test/fixtures";
import { renderApp } from "../test/render";
import { ALERT_EVENTS_LIMIT, ALERTS_POLL_MS } from "./AlertsPage";

const RULES_URL = "/api/v1/alerts/rules";
const EVENTS_URL = "/api/v1/alerts/events";

afterEach(() => {
  vi.useRealTimers();
});

/** The JSON body of the last `method` call to `path`. */
function lastBody(fetch: ReturnType<typeof stubFetch>, path: string, method: string): unknown {
  const call = callsTo(fetch, path, method).at(-1);
  expect(call, `no ${method} ${path}`).toBeDefined();
  return JSON.parse(String(call![1]!.body));
}

/** The routes of the page: the rules and alerts as given, the clusters, the user. */
function stubAlerts(routes: Record<string, Parameters<typeof stubFetch>[0][string]> = {}, user = ME) {
  return stubFetch({
    "/api/v1/me": json(user),
    "/api/v1/clusters": json(CLUSTERS),
    [RULES_URL]: json(ALERT_RULES),
    [EVENTS_URL]: json(ALERT_EVENTS),
    ...routes,
  });
}

/** Fills the create form's required fields: a name, the cluster, ERR, a Slack URL. */
function fillMinimal() {
  change("rule-name", "billing stopped");
  change("rule-cluster", "local");
  click("rule-status-ERR");
  change("rule-channel", "slack");
  change("rule-target", "https://hooks.slack.com/services/T0/B0/XYZ");
}

describe("AlertsPage", () => {
  it("lists the rules in words and the recent alerts, with the menu entry current", async () => {
    const fetch = stubAlerts();
    renderApp("/alerts");

    const billing = await screen.findByTestId("rule-row-1");
    expect(screen.getByRole("link", { name: "Alerts" })).toHaveClass("active");
    expect(screen.getByTestId("rules-count")).toHaveTextContent("2 rules");
    expect(within(billing).getByText("billing stopped")).toBeInTheDocument();
    expect(screen.getByTestId("rule-pattern-1")).toHaveTextContent("billing-*");
    expect(screen.getByTestId("rule-pattern-1")).toHaveClass("mono");
    expect(screen.getByTestId("rule-conditions-1")).toHaveTextContent(/^status ERR or STOP · lag > 2 m · retention risk$/);
    expect(billing).toHaveTextContent("Slack");
    expect(screen.getByTestId("rule-target-1")).toHaveTextContent("https://hooks.slack.com/…");
    expect(screen.getByTestId("rule-repeat-1")).toHaveTextContent("every hour");
    expect(within(billing).getByText("enabled")).toHaveAttribute("data-tone", "ok");
    // Firing for 5 groups: the count, the first three as links to their pages, the rest counted.
    const firing = screen.getByTestId("rule-firing-1");
    expect(firing).toHaveAttribute("data-count", "5");
    expect(firing).toHaveTextContent("5 groups");
    expect(within(firing).getAllByRole("link").map((a) => a.getAttribute("href"))).toEqual([
      "/clusters/local/groups/billing-1",
      "/clusters/local/groups/billing-2",
      "/clusters/local/groups/billing-3",
    ]);
    expect(firing).toHaveTextContent("and 2 more");

    const orders = screen.getByTestId("rule-row-2");
    expect(screen.getByTestId("rule-conditions-2")).toHaveTextContent(/^status WARN$/);
    expect(screen.getByTestId("rule-repeat-2")).toHaveTextContent(/^once$/);
    expect(screen.getByTestId("rule-target-2")).toHaveTextContent("oncall@example.com, team@example.com");
    expect(within(orders).getByText("disabled")).toHaveAttribute("data-tone", "neutral");
    expect(screen.getByTestId("rule-firing-2")).toHaveTextContent("none");

    // Recent alerts, newest first: time as the locale writes it, kind, rule, group, reason, delivery.
    const table = await screen.findByTestId("alert-events-table");
    const ids = within(table)
      .getAllByRole("row")
      .map((row) => row.getAttribute("data-testid"))
      .filter(Boolean);
    expect(ids).toEqual(["alert-event-14", "alert-event-13", "alert-event-12"]);
    const failed = screen.getByTestId("alert-event-14");
    expect(within(failed).getByText(new Date("2026-11-25T10:05:00Z").toLocaleString())).toBeInTheDocument();
    expect(screen.getByTestId("alert-kind-14")).toHaveTextContent("firing");
    expect(screen.getByTestId("alert-kind-14")).toHaveAttribute("data-tone", "error");
    expect(screen.getByTestId("alert-kind-13")).toHaveAttribute("data-tone", "ok");
    expect(screen.getByTestId("alert-kind-12")).toHaveAttribute("data-tone", "neutral");
    expect(screen.getByTestId("alert-group-14")).toHaveAttribute("href", "/clusters/local/groups/billing-7");
    expect(screen.getByTestId("alert-group-12")).not.toHaveAttribute("href"); // a test names no group
    expect(failed).toHaveTextContent("status STOP; lag 14 m behind, over 2 m");
    expect(screen.getByTestId("alert-delivery-14")).toHaveTextContent("failed2 attempts");
    expect(screen.getByTestId("alert-delivery-13")).toHaveTextContent("delivered1 attempt");

    // Each try with the receiver's answer.
    expect(screen.queryByTestId("alert-attempts-14")).toBeNull();
    click("alert-attempts-toggle-14");
    expect(screen.getByTestId("alert-attempt-14-0")).toHaveTextContent("HTTP 500: internal error");
    expect(screen.getByTestId("alert-attempt-14-0")).toHaveAttribute("data-ok", "false");
    expect(screen.getByTestId("alert-attempt-14-1")).toHaveTextContent("timed out after 5 s");
    expect(screen.getByTestId("alert-attempt-14-1")).toHaveTextContent("5000 ms");
    click("alert-attempts-toggle-14");
    expect(screen.queryByTestId("alert-attempts-14")).toBeNull();

    const query = new URL(String(callsTo(fetch, EVENTS_URL)[0]![0]), "http://localhost").searchParams;
    expect(query.get("limit")).toBe(String(ALERT_EVENTS_LIMIT));
  });

  it("polls the rules and the alerts every 10 s", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    let events = [ALERT_EVENTS[1]!];
    let rules = [ALERT_RULES[1]!];
    stubAlerts({ [RULES_URL]: () => json(rules), [EVENTS_URL]: () => json(events) });
    renderApp("/alerts");
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByTestId("rules-table")).toHaveAttribute("data-count", "1");
    expect(screen.getByTestId("alert-events-table")).toHaveAttribute("data-count", "1");

    rules = ALERT_RULES;
    events = ALERT_EVENTS;
    await act(() => vi.advanceTimersByTimeAsync(ALERTS_POLL_MS));
    expect(ALERTS_POLL_MS).toBe(10_000);
    expect(screen.getByTestId("rules-table")).toHaveAttribute("data-count", "2");
    expect(screen.getByTestId("alert-events-table")).toHaveAttribute("data-count", "3");
  });

  it("says so when there is no rule and no alert yet", async () => {
    stubAlerts({ [RULES_URL]: json([]), [EVENTS_URL]: json([]) });
    renderApp("/alerts");
    expect(await screen.findByTestId("rules-empty")).toHaveTextContent("No alert rule yet: “New rule” adds one.");
    expect(await screen.findByTestId("alert-events-empty")).toHaveTextContent("No alert has been sent yet.");
  });

  it("shows viewers the rules read-only", async () => {
    stubAlerts({}, VIEWER);
    renderApp("/alerts");
    await screen.findByTestId("rule-row-1");
    expect(screen.getByTestId("operator-only")).toHaveTextContent(
      "Only operators can add, change, test or delete alert rules: read-only for your role (viewer).",
    );
    expect(screen.queryByTestId("new-rule")).toBeNull();
    for (const action of ["edit", "test", "delete"]) expect(screen.queryByTestId(`rule-${action}-1`)).toBeNull();
    expect(within(screen.getByTestId("rules-table")).queryByText("Actions")).toBeNull();
  });

  it("creates a rule with exactly the JSON the API takes: units in seconds, statuses, silences with offsets", async () => {
    const created = alertRule({ id: 3, name: "billing stopped" });
    let rules: AlertRule[] = [];
    const fetch = stubAlerts({
      [RULES_URL]: (_url, init) => {
        if (init?.method === "POST") {
          rules = [created];
          return json(created, 201);
        }
        return json(rules);
      },
    });
    renderApp("/alerts");
    await screen.findByTestId("rules-empty");
    expect(screen.queryByTestId("operator-only")).toBeNull();
    click("new-rule");
    const form = screen.getByTestId("rule-form");
    expect(form).toHaveAttribute("data-mode", "create");
    expect(screen.getByTestId("rule-pattern")).toHaveValue("*");
    expect(within(form).getByText(/A glob over group ids/)).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByTestId("rule-cluster")).getByRole("option", { name: "staging" })).toBeInTheDocument());

    // The target's placeholder follows the channel.
    change("rule-channel", "email");
    expect(screen.getByTestId("rule-target")).toHaveAttribute("placeholder", "oncall@example.com, team@example.com");
    fillMinimal();
    expect(screen.getByTestId("rule-target")).toHaveAttribute("placeholder", expect.stringContaining("hooks.slack.com"));
    change("rule-pattern", "billing-*");
    click("rule-status-STOP");
    change("rule-lag", "2");
    change("rule-lag-unit", "m");
    click("rule-retention");
    change("rule-repeat", "30");
    change("rule-repeat-unit", "m");
    expect(screen.getByTestId("rule-repeat-words")).toHaveTextContent("every 30 minutes");

    // Two silence windows, each in a zone of its own; the second removed again.
    click("rule-silence-add");
    click("rule-silence-add");
    change("rule-silence-0-starts-datetime", "2026-12-24 18:00");
    change("rule-silence-0-starts-tz", "+01:00");
    change("rule-silence-0-ends-datetime", "2026-12-26 08:00");
    change("rule-silence-0-ends-tz", "America/New_York");
    expect(screen.getByTestId("rule-silence-0-ends-iso")).toHaveTextContent("2026-12-26T08:00:00.000-05:00");
    click("rule-silence-remove-1");
    expect(screen.queryByTestId("rule-silence-1")).toBeNull();

    click("rule-submit");
    expect(await screen.findByTestId("flash")).toHaveTextContent("Alert rule billing stopped was created.");
    expect(lastBody(fetch, RULES_URL, "POST")).toEqual({
      name: "billing stopped",
      cluster: "local",
      group_pattern: "billing-*",
      statuses: ["ERR", "STOP"],
      lag_seconds_over: 120,
      retention_risk: true,
      channel: "slack",
      target: "https://hooks.slack.com/services/T0/B0/XYZ",
      repeat_interval_s: 1800,
      silences: [{ starts_at: "2026-12-24T18:00:00.000+01:00", ends_at: "2026-12-26T08:00:00.000-05:00" }],
      enabled: true,
    });
    expect(screen.queryByTestId("rule-form")).toBeNull();
    // The list is fetched again: the new rule shows.
    expect(await screen.findByTestId("rule-row-3")).toBeInTheDocument();
  });

  it("sends lag in hours, no lag as null, repeat 0 as once, and a disabled rule", async () => {
    const fetch = stubAlerts({
      [RULES_URL]: (_url, init) => (init?.method === "POST" ? json(alertRule({ id: 4 }), 201) : json([])),
    });
    renderApp("/alerts");
    await screen.findByTestId("rules-empty");
    click("new-rule");
    await waitFor(() => expect(within(screen.getByTestId("rule-cluster")).getByRole("option", { name: "local" })).toBeInTheDocument());
    change("rule-name", "risky");
    change("rule-cluster", "staging");
    click("rule-retention");
    change("rule-channel", "email");
    change("rule-target", " oncall@example.com ");
    change("rule-repeat", "0");
    expect(screen.getByTestId("rule-repeat-words")).toHaveTextContent("once");
    click("rule-enabled");
    click("rule-submit");
    await screen.findByTestId("flash");
    expect(lastBody(fetch, RULES_URL, "POST")).toEqual({
      name: "risky",
      cluster: "staging",
      group_pattern: "*",
      statuses: [],
      lag_seconds_over: null,
      retention_risk: true,
      channel: "email",
      target: "oncall@example.com",
      repeat_interval_s: 0,
      silences: [],
      enabled: false,
    });

    click("new-rule");
    await waitFor(() => expect(within(screen.getByTestId("rule-cluster")).getByRole("option", { name: "local" })).toBeInTheDocument());
    fillMinimal();
    click("rule-status-ERR"); // off again: the lag alone
    change("rule-lag", "1.5");
    change("rule-lag-unit", "h");
    click("rule-submit");
    await waitFor(() => expect(callsTo(fetch, RULES_URL, "POST")).toHaveLength(2));
    expect(lastBody(fetch, RULES_URL, "POST")).toMatchObject({ statuses: [], lag_seconds_over: 5400, repeat_interval_s: 3600 });
  });

  it("asks for at least one condition (and the other fields) before sending anything", async () => {
    const fetch = stubAlerts({ [RULES_URL]: json([]) });
    renderApp("/alerts");
    await screen.findByTestId("rules-empty");
    click("new-rule");
    click("rule-silence-add");
    change("rule-silence-0-starts-datetime", "2026-12-24 18:00");
    change("rule-silence-0-ends-datetime", "2026-12-24 17:00");
    click("rule-submit");

    expect(await screen.findByTestId("field-error-statuses")).toHaveTextContent(
      "Choose at least one condition: a status, a lag or the retention risk.",
    );
    expect(screen.getByTestId("field-error-name")).toHaveTextContent("Give the rule a name.");
    expect(screen.getByTestId("field-error-cluster")).toHaveTextContent("Choose a cluster.");
    expect(screen.getByTestId("field-error-target")).toHaveTextContent("Give the receiver's URL.");
    expect(screen.getByTestId("field-error-silence-0")).toHaveTextContent("The end must be after the start.");
    expect(callsTo(fetch, RULES_URL, "POST")).toHaveLength(0);

    // A condition clears what was said about the conditions, and only that.
    click("rule-status-WARN");
    expect(screen.queryByTestId("field-error-statuses")).toBeNull();
    expect(screen.getByTestId("field-error-name")).toBeInTheDocument();
  });

  it("shows every problem of a 400 beside its field, a silence window's beside its row", async () => {
    let answer = apiError(400, "invalid", "target: 'not-an-address' is not an email address. (and 2 more)", {
      field: "target",
      errors: {
        target: ["'not-an-address' is not an email address."],
        lag_seconds_over: ["Ensure this value is less than or equal to 31536000."],
        silences: [{}, { starts_at: ["Ensure this field has no more than 64 characters."] }],
      },
    });
    stubAlerts({ [RULES_URL]: (_url, init) => (init?.method === "POST" ? answer : json([])) });
    renderApp("/alerts");
    await screen.findByTestId("rules-empty");
    click("new-rule");
    await waitFor(() => expect(within(screen.getByTestId("rule-cluster")).getByRole("option", { name: "local" })).toBeInTheDocument());
    fillMinimal();
    change("rule-lag", "9999999");
    change("rule-lag-unit", "h");
    for (const index of [0, 1]) {
      click("rule-silence-add");
      change(`rule-silence-${index}-starts-datetime`, "2026-12-24 18:00");
      change(`rule-silence-${index}-ends-datetime`, "2026-12-24 19:00");
    }
    click("rule-submit");

    expect(await screen.findByTestId("field-error-target")).toHaveTextContent(/^'not-an-address' is not an email address\.$/);
    expect(screen.getByTestId("field-error-lag_seconds_over")).toHaveTextContent(
      /^Ensure this value is less than or equal to 31536000\.$/,
    );
    expect(screen.getByTestId("field-error-silence-1")).toHaveTextContent(/^Start: ensure this field has no more than 64 characters\.$/);
    expect(screen.queryByTestId("field-error-silence-0")).toBeNull();
    expect(screen.getByTestId("rule-target")).toHaveAttribute("aria-invalid", "true");
    expect(screen.queryByTestId("error-banner")).toBeNull();

    // The server's own checks name one field by its dotted path.
    answer = apiError(400, "invalid", "silences.0.ends_at: must be after starts_at.", { field: "silences.0.ends_at" });
    click("rule-submit");
    expect(await screen.findByTestId("field-error-silence-0")).toHaveTextContent(/^End: must be after the start\.$/);
    expect(screen.queryByTestId("field-error-target")).toBeNull();

    // At least one condition, as the server says it: beside the conditions, in the form's words.
    answer = apiError(400, "invalid", "statuses: give at least one condition (statuses, lag_seconds_over or retention_risk).", {
      field: "statuses",
    });
    click("rule-submit");
    expect(await screen.findByTestId("field-error-statuses")).toHaveTextContent(
      /^Give at least one condition \(statuses, lag behind or retention risk\)\.$/,
    );

    // An unknown cluster (404) beside the cluster; what names no field in the banner.
    answer = apiError(404, "cluster_not_found", "Cluster 'local' is not registered.", { cluster: "local" });
    click("rule-submit");
    expect(await screen.findByTestId("field-error-cluster")).toHaveTextContent("Cluster 'local' is not registered.");
    answer = apiError(400, "invalid", "body: expected a JSON object.", { field: "body" });
    click("rule-submit");
    expect(await screen.findByTestId("error-banner")).toHaveTextContent("Could not create the rule: Expected a JSON object.");
  });

  it("edits a rule: sends only what changed, and no target unless a new one is typed", async () => {
    const silenced = alertRule({
      silences: [{ starts_at: "2026-12-24T18:00:00+01:00", ends_at: "2026-12-26T08:00:00-05:00" }],
    });
    const fetch = stubAlerts({
      [RULES_URL]: json([silenced]),
      [`${RULES_URL}/1`]: (_url, init) => json({ ...silenced, ...JSON.parse(String(init?.body)) }),
    });
    renderApp("/alerts");
    await screen.findByTestId("rule-edit-1");
    click("rule-edit-1");

    const form = screen.getByTestId("rule-form");
    expect(form).toHaveAttribute("data-mode", "edit");
    expect(screen.getByTestId("rule-name")).toHaveValue("billing stopped");
    expect(screen.getByTestId("rule-pattern")).toHaveValue("billing-*");
    expect(screen.getByTestId("rule-status-ERR")).toBeChecked();
    expect(screen.getByTestId("rule-status-WARN")).not.toBeChecked();
    expect(screen.getByTestId("rule-lag")).toHaveValue(2);
    expect(screen.getByTestId("rule-lag-unit")).toHaveValue("m");
    expect(screen.getByTestId("rule-repeat")).toHaveValue(1);
    expect(screen.getByTestId("rule-repeat-unit")).toHaveValue("h");
    expect(screen.getByTestId("rule-silence-0-starts-tz")).toHaveValue("+01:00");
    expect(screen.getByTestId("rule-silence-0-starts-iso")).toHaveTextContent("2026-12-24T18:00:00.000+01:00");
    expect(screen.getByTestId("rule-silence-0-ends-iso")).toHaveTextContent("2026-12-26T08:00:00.000-05:00");
    // The target shows masked; the form says it is kept unless a new one is typed.
    expect(screen.getByTestId("rule-target")).toHaveValue("");
    expect(screen.getByTestId("rule-target-kept")).toHaveTextContent("Now https://hooks.slack.com/…");
    expect(screen.getByTestId("rule-target-kept")).toHaveTextContent("Leave this empty to keep it");

    change("rule-name", "billing stopped (prod)");
    change("rule-repeat", "0");
    click("rule-submit");
    expect(await screen.findByTestId("flash")).toHaveTextContent("Alert rule billing stopped (prod) was saved.");
    expect(lastBody(fetch, `${RULES_URL}/1`, "PATCH")).toEqual({ name: "billing stopped (prod)", repeat_interval_s: 0 });

    // A new target typed: sent.
    click("rule-edit-1");
    change("rule-target", "https://hooks.slack.com/services/T0/B0/NEW");
    click("rule-submit");
    await waitFor(() => expect(callsTo(fetch, `${RULES_URL}/1`, "PATCH")).toHaveLength(2));
    expect(lastBody(fetch, `${RULES_URL}/1`, "PATCH")).toEqual({ target: "https://hooks.slack.com/services/T0/B0/NEW" });

    // Another channel needs its target.
    click("rule-edit-1");
    change("rule-channel", "email");
    click("rule-submit");
    expect(await screen.findByTestId("field-error-target")).toHaveTextContent("The channel changed: give its target.");
    expect(callsTo(fetch, `${RULES_URL}/1`, "PATCH")).toHaveLength(2);
  });

  it("sends a test and shows the receiver's answer, delivered or failed", async () => {
    let answer = json(alertEvent({ id: 20, kind: "test", state: "delivered", attempts: [attempt({ answer: "HTTP 200: ok" })] }));
    const fetch = stubAlerts({ [`${RULES_URL}/1/test`]: () => answer });
    renderApp("/alerts");
    await screen.findByTestId("rule-test-1");
    click("rule-test-1");

    const delivered = await screen.findByTestId("rule-test-result-1");
    expect(delivered).toHaveAttribute("data-state", "delivered");
    expect(delivered).toHaveTextContent("test delivered");
    expect(screen.getByTestId("rule-test-result-1-answer")).toHaveTextContent("HTTP 200: ok");
    expect(callsTo(fetch, `${RULES_URL}/1/test`, "POST")).toHaveLength(1);
    expect(callsTo(fetch, `${RULES_URL}/1/test`, "POST")[0]![1]!.body).toBeUndefined(); // no body

    answer = json(
      alertEvent({ id: 21, kind: "test", state: "failed", attempts: [attempt({ ok: false, answer: "HTTP 404: no such hook" })] }),
    );
    click("rule-test-1");
    await waitFor(() => expect(screen.getByTestId("rule-test-result-1")).toHaveAttribute("data-state", "failed"));
    expect(screen.getByTestId("rule-test-result-1")).toHaveTextContent("test failed");
    expect(screen.getByTestId("rule-test-result-1-answer")).toHaveTextContent("HTTP 404: no such hook");

    // Refused before any try: the server's message.
    answer = apiError(403, "forbidden", "You do not have permission to perform this action.");
    click("rule-test-1");
    await waitFor(() => expect(screen.getByTestId("rule-test-result-1")).toHaveAttribute("data-state", "error"));
    expect(screen.getByTestId("rule-test-result-1")).toHaveTextContent("Could not send the test: You do not have permission");
  });

  it("deletes a rule after a confirm", async () => {
    let rules = ALERT_RULES;
    const fetch = stubAlerts({
      [RULES_URL]: () => json(rules),
      [`${RULES_URL}/2`]: (_url, init) => {
        if (init?.method === "DELETE") rules = [ALERT_RULES[0]!];
        return { status: 204 };
      },
    });
    renderApp("/alerts");
    await screen.findByTestId("rule-delete-2");
    click("rule-delete-2");
    const dialog = screen.getByTestId("confirm-dialog");
    expect(dialog).toHaveTextContent("Delete alert rule “orders slow”");
    click("confirm-dismiss");
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
    expect(callsTo(fetch, `${RULES_URL}/2`, "DELETE")).toHaveLength(0);

    click("rule-delete-2");
    click("confirm-button");
    expect(await screen.findByTestId("flash")).toHaveTextContent("Alert rule orders slow was deleted.");
    expect(callsTo(fetch, `${RULES_URL}/2`, "DELETE")).toHaveLength(1);
    await waitFor(() => expect(screen.queryByTestId("rule-row-2")).toBeNull());
  });
});

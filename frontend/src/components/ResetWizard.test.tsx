import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { OffsetReset, ResetRequest } from "../api/types";
import { apiError, json, stubFetch, type StubResponse } from "../test/fetchStub";
import { executedResetOf, ME, ORDERS_APP, TOPICS, UNDO_9_OF_8, resetOf } from "../test/fixtures";
import { hourCycle } from "../test/locale";
import { renderApp } from "../test/render";

const GROUP_URL = "/api/v1/clusters/local/groups/orders-app";
const RESETS_URL = `${GROUP_URL}/offset-resets`;
// resetOf() previews have id 7: executing one posts {reason} here.
const EXECUTE_URL = "/api/v1/offset-resets/7/execute";

type Answer = (body: ResetRequest) => StubResponse;

/** The group page of orders-app with a resets endpoint answering POSTs with `answer`; records the bodies. */
function setup(answer: Answer = (body) => json(resetOf({ dry_run: body.dry_run }), 201), extra = {}) {
  const posts: ResetRequest[] = [];
  const executes: { reason: string }[] = [];
  let respond = answer;
  const fetch = stubFetch({
    "/api/v1/me": json(ME),
    [GROUP_URL]: json(ORDERS_APP),
    "/api/v1/clusters/local/topics": json(TOPICS.filter((t) => !t.internal)),
    // The page's ACL panel: none applies (its errors would be banners too).
    "/api/v1/clusters/local/acls": json([]),
    [RESETS_URL]: (_url, init) => {
      if (init?.method !== "POST") return json([]);
      const body = JSON.parse(String(init.body)) as ResetRequest;
      posts.push(body);
      return respond(body);
    },
    // Executing the preview answers as `answer` would for the previewed body with dry_run false.
    [EXECUTE_URL]: (_url, init) => {
      const body = JSON.parse(String(init?.body)) as { reason: string };
      executes.push(body);
      const previewed = posts[posts.length - 1]!;
      const answered = respond({ ...previewed, dry_run: false, reason: body.reason });
      return answered.status === 201 ? { ...answered, status: 200 } : answered;
    },
    ...extra,
  });
  renderApp("/clusters/local/groups/orders-app");
  return {
    fetch,
    posts,
    executes,
    answer(next: Answer) {
      respond = next;
    },
  };
}

async function openWizard() {
  fireEvent.click(await screen.findByTestId("reset-open"));
  return screen.getByTestId("reset-wizard");
}

const change = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

/** The wizard open on the to_datetime strategy, in a locale with the `cycle` clock. */
async function openDateTimeStrategy(cycle: "h12" | "h23") {
  hourCycle(cycle);
  const page = setup();
  await openWizard();
  change("strategy-select", "to_datetime");
  return page;
}

/** Click Preview and return the body it POSTed. */
async function preview(posts: ResetRequest[]): Promise<ResetRequest> {
  const before = posts.length;
  fireEvent.click(screen.getByTestId("reset-preview"));
  await waitFor(() => expect(posts.length).toBe(before + 1));
  return posts[posts.length - 1]!;
}

const ALL_TOPICS = { topics: [{ topic: "orders", partitions: null }, { topic: "payments", partitions: null }] };

describe("ResetWizard: request bodies", () => {
  it("defaults to every topic of the group, all partitions, earliest, as a dry run", async () => {
    const { posts } = setup();
    await openWizard();
    expect(screen.getByTestId("scope-topic-orders")).toBeChecked();
    expect(screen.getByTestId("scope-topic-payments")).toBeChecked();
    expect(screen.getByTestId("scope-partitions-orders")).toHaveValue("");
    expect(screen.getByTestId("strategy-select")).toHaveValue("earliest");
    const options = within(screen.getByTestId("strategy-select"))
      .getAllByRole("option")
      .map((o) => o.textContent);
    expect(options).toEqual([
      "Earliest (log start)",
      "Latest (log end)",
      "Current committed",
      "To offset",
      "Shift by N",
      "To date-time",
      "By duration (back from now)",
      "From CSV file",
    ]);
    expect(await preview(posts)).toEqual({
      scope: ALL_TOPICS,
      strategy: { type: "earliest" },
      dry_run: true,
      reason: "",
    });
  });

  it("builds the strategy object of each type", async () => {
    const { posts } = setup();
    await openWizard();
    change("reset-reason", "  INC-7 replay  ");

    const cases: [string, () => void, ResetRequest["strategy"]][] = [
      ["latest", () => {}, { type: "latest" }],
      ["current", () => {}, { type: "current" }],
      ["to_offset", () => change("strategy-offset", "1234"), { type: "to_offset", offset: 1234 }],
      ["to_offset", () => change("strategy-offset", "-5"), { type: "to_offset", offset: -5 }],
      ["shift_by", () => change("strategy-shift", "-1000"), { type: "shift_by", shift: -1000 }],
      ["by_duration", () => change("strategy-duration", "p2dt3h30m"), { type: "by_duration", duration: "P2DT3H30M" }],
      ["by_duration", () => fireEvent.click(screen.getByTestId("duration-PT15M")), { type: "by_duration", duration: "PT15M" }],
    ];
    for (const [type, fill, strategy] of cases) {
      change("strategy-select", type);
      fill();
      const body = await preview(posts);
      expect(body).toEqual({ scope: ALL_TOPICS, strategy, dry_run: true, reason: "INC-7 replay" });
    }
    expect(screen.getByTestId("strategy-duration-meaning")).toHaveTextContent("= 15 minutes");
  });

  it("combines the date-time and the chosen zone into ISO-8601 with the offset, and shows the UTC instant", async () => {
    const { posts } = await openDateTimeStrategy("h23");
    expect(screen.getByTestId("strategy-tz")).toHaveValue("UTC");
    // Typed as text in a 24-hour clock (this locale's), the zone it is read in shown beside it.
    const input = screen.getByTestId("strategy-datetime");
    expect(input).toHaveAttribute("type", "text");
    expect(input).toHaveAttribute("placeholder", "YYYY-MM-DD HH:mm:ss");
    expect(screen.getByLabelText(/Date and time/)).toBe(input);
    expect(screen.getByText("Date and time (24-hour clock)")).toBeInTheDocument();
    expect(screen.getByTestId("strategy-datetime-zone")).toHaveTextContent(/^UTC$/);

    change("strategy-datetime", "2026-07-01T09:30");
    expect(screen.getByTestId("strategy-iso")).toHaveTextContent("2026-07-01T09:30:00.000Z");
    change("strategy-tz", "America/New_York");
    expect(screen.getByTestId("strategy-datetime-zone")).toHaveTextContent("America/New York (UTC-04:00)");
    expect(screen.getByTestId("strategy-iso")).toHaveTextContent("2026-07-01T09:30:00.000-04:00");
    expect(screen.getByTestId("strategy-utc")).toHaveTextContent("2026-07-01 13:30:00.000 UTC");
    expect((await preview(posts)).strategy).toEqual({ type: "to_datetime", datetime: "2026-07-01T09:30:00.000-04:00" });

    // Winter time in the same zone, and a fixed offset with milliseconds.
    change("strategy-datetime", "2026-01-15T09:30");
    expect((await preview(posts)).strategy).toEqual({ type: "to_datetime", datetime: "2026-01-15T09:30:00.000-05:00" });
    change("strategy-tz", "+05:30");
    change("strategy-datetime", "2026-11-21T10:03:12.250");
    expect((await preview(posts)).strategy).toEqual({ type: "to_datetime", datetime: "2026-11-21T10:03:12.250+05:30" });
    expect(screen.getByTestId("strategy-utc")).toHaveTextContent("2026-11-21 04:33:12.250 UTC");
  });

  it("has a calendar picker whose choice lands in the text field in the locale's clock", async () => {
    const { posts } = await openDateTimeStrategy("h23");
    const picker = screen.getByTestId("strategy-datetime-picker");
    expect(picker).toHaveAttribute("type", "datetime-local");
    fireEvent.click(screen.getByTestId("strategy-datetime-pick")); // opens the browser's picker
    change("strategy-datetime-picker", "2026-07-01T21:15");
    expect(screen.getByTestId("strategy-datetime")).toHaveValue("2026-07-01 21:15:00");
    expect((await preview(posts)).strategy).toEqual({ type: "to_datetime", datetime: "2026-07-01T21:15:00.000Z" });
  });

  it("writes and reads 12-hour times where the browser's locale asks for them", async () => {
    const { posts } = await openDateTimeStrategy("h12");
    expect(screen.getByText("Date and time (12-hour clock)")).toBeInTheDocument();
    expect(screen.getByTestId("strategy-datetime")).toHaveAttribute("placeholder", "YYYY-MM-DD hh:mm:ss AM");
    change("strategy-datetime", "2026-07-01 1:30 PM");
    expect(screen.getByTestId("strategy-iso")).toHaveTextContent("2026-07-01T13:30:00.000Z");
    expect(screen.getByTestId("strategy-utc")).toHaveTextContent("2026-07-01 1:30:00.000 PM UTC");
    // A 24-hour time is read as well.
    change("strategy-datetime", "2026-07-01 18:45");
    expect((await preview(posts)).strategy).toEqual({ type: "to_datetime", datetime: "2026-07-01T18:45:00.000Z" });
    // "Now" writes the time in the locale's clock, in the zone chosen.
    fireEvent.click(screen.getByTestId("datetime-now"));
    expect((screen.getByTestId("strategy-datetime") as HTMLInputElement).value).toMatch(/^\d{4}-\d\d-\d\d \d{1,2}:\d\d:\d\d(\.\d{3})? [AP]M$/);
  });

  it("writes 24-hour times where the locale does", async () => {
    await openDateTimeStrategy("h23");
    fireEvent.click(screen.getByTestId("datetime-now"));
    expect((screen.getByTestId("strategy-datetime") as HTMLInputElement).value).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{3})?$/);
    expect(screen.getByTestId("strategy-datetime")).toHaveAttribute("data-hour-cycle", "h23");
  });

  it("sends CSV without a scope for from_file", async () => {
    const { posts } = setup();
    await openWizard();
    change("strategy-select", "from_file");
    expect(screen.queryByTestId("scope-topic-orders")).toBeNull();
    change("strategy-csv", "orders,0,5\norders,1,7\n");
    expect(await preview(posts)).toEqual({
      strategy: { type: "from_file", csv: "orders,0,5\norders,1,7\n" },
      dry_run: true,
      reason: "",
    });
  });

  it("limits the scope to picked topics and partitions, and adds topics of the cluster", async () => {
    const { posts } = setup();
    await openWizard();
    fireEvent.click(screen.getByTestId("scope-topic-payments"));
    change("scope-partitions-orders", "0, 2,4-5");
    expect((await preview(posts)).scope).toEqual({ topics: [{ topic: "orders", partitions: [0, 2, 4, 5] }] });

    change("scope-search", "aud");
    fireEvent.click(await screen.findByTestId("scope-add-audit"));
    expect(screen.getByTestId("scope-topic-audit")).toBeChecked();
    change("scope-partitions-audit", "0");
    expect((await preview(posts)).scope).toEqual({
      topics: [
        { topic: "orders", partitions: [0, 2, 4, 5] },
        { topic: "audit", partitions: [0] },
      ],
    });
  });

  it("checks inputs locally before sending anything", async () => {
    const { posts } = setup();
    await openWizard();
    // orders has 6 partitions (topic list)
    await waitFor(() => expect(screen.getByTestId("scope-partitions-orders")).toHaveAttribute("placeholder", "all 6"));
    change("scope-partitions-orders", "1,9");
    expect(screen.getByTestId("field-error-scope-orders")).toHaveTextContent("No partition 9: the topic has 6 (0–5).");
    change("strategy-select", "to_offset");
    fireEvent.click(screen.getByTestId("reset-preview"));
    expect(screen.getByTestId("field-error-strategy")).toHaveTextContent("Give the offset as a whole number.");
    expect(screen.getByTestId("preview-blocked")).toBeInTheDocument();
    change("scope-partitions-orders", "");
    fireEvent.click(screen.getByTestId("scope-topic-orders"));
    fireEvent.click(screen.getByTestId("scope-topic-payments"));
    expect(screen.getByTestId("field-error-scope-empty")).toHaveTextContent("Choose at least one topic.");
    expect(posts).toHaveLength(0);
  });
});

describe("ResetWizard: preview", () => {
  it("shows the plan: current -> new with the change, clamped markers, lag and record times", async () => {
    const { posts } = setup();
    await openWizard();
    await preview(posts);
    const plan = await screen.findByTestId("reset-plan");
    expect(within(plan).getAllByTestId(/^plan-row-/)).toHaveLength(4);

    const row0 = screen.getByTestId("plan-row-orders-0");
    expect(row0).toHaveTextContent("90 → 10");
    expect(row0).toHaveTextContent("−80");
    expect(row0).toHaveTextContent("20 → 100");
    const clamped = within(row0).getByTestId("clamped-orders-0");
    expect(clamped).toHaveAttribute("title", expect.stringContaining("outside this partition's log [10, 110]"));
    expect(within(row0).getByTestId("plan-time-orders-0")).toHaveTextContent("2026-07-01 13:30:00.250 UTC");
    expect(within(row0).getByTestId("plan-time-orders-0")).toHaveTextContent("local");

    expect(screen.queryByTestId("clamped-orders-1")).toBeNull();
    expect(screen.getByTestId("plan-row-orders-1")).toHaveTextContent("+50");
    expect(screen.getByTestId("plan-row-orders-2")).toHaveTextContent("none → 50");
    expect(screen.getByTestId("plan-time-orders-2")).toHaveTextContent("log end");

    const totals = screen.getByTestId("plan-totals");
    expect(totals).toHaveAttribute("data-partitions", "4");
    expect(totals).toHaveAttribute("data-lag-after", "150");
    expect(totals).toHaveTextContent("total lag 120 → 150");
    expect(totals).toHaveTextContent("80 records read again");
    expect(totals).toHaveTextContent("50 records skipped");
    expect(totals).toHaveTextContent("1 clamped");
  });

  it("shows a 400 next to the field it names", async () => {
    const bad = (field: string, message: string, details: Record<string, unknown> = {}): Answer => () =>
      apiError(400, "invalid", message, { field, ...details });
    const { posts, answer } = setup(bad("strategy.offset", "strategy.offset: must be a whole number."));
    await openWizard();
    change("strategy-select", "to_offset");
    change("strategy-offset", "12");
    await preview(posts);
    const error = await screen.findByTestId("field-error-strategy");
    // Beside the field, in plain words: no "strategy.offset:" in front.
    expect(error).toHaveTextContent(/^Must be a whole number\.$/);
    expect(error).toHaveAttribute("data-field", "strategy.offset");
    expect(screen.getByTestId("strategy-offset")).toHaveAttribute("aria-invalid", "true");
    expect(screen.queryByTestId("error-banner")).toBeNull();

    answer(bad("scope.topics[1].partitions", "scope.topics[1].partitions: topic 'payments' has no partition 2."));
    change("scope-partitions-payments", "2");
    await preview(posts);
    expect(await screen.findByTestId("field-error-scope-payments")).toHaveTextContent("has no partition 2");
    expect(screen.queryByTestId("field-error-strategy")).toBeNull();

    answer(bad("strategy.csv", "strategy.csv: line 2: partition and offset must be whole numbers (got 'x', '5').", { line: 2 }));
    change("strategy-select", "from_file");
    change("strategy-csv", "orders,0,5\norders,x,5");
    await preview(posts);
    expect(await screen.findByTestId("field-error-strategy")).toHaveTextContent(/^Line 2: partition and offset/);
    expect(screen.getByTestId("csv-error-line")).toHaveTextContent("line 2: orders,x,5");

    answer(() => apiError(504, "kafka_timeout", "Kafka did not answer in time."));
    await preview(posts);
    expect(await screen.findByTestId("error-banner")).toHaveTextContent("Kafka did not answer in time.");
  });

  it("shows every problem a 400 lists at once, each beside its part of the wizard", async () => {
    const { posts } = setup(() =>
      json(
        {
          error: {
            code: "invalid",
            message: "strategy.offset: must be a whole number (a JSON integer). (and 2 more)",
            details: {
              field: "strategy.offset",
              errors: {
                "strategy.offset": "must be a whole number (a JSON integer).",
                "scope.topics[0].partitions": "must be a list (a JSON array).",
                reason: "reason: must be text (a JSON string).",
              },
            },
          },
        },
        400,
      ),
    );
    await openWizard();
    change("strategy-select", "to_offset");
    change("strategy-offset", "12");
    await preview(posts);
    expect(await screen.findByTestId("field-error-strategy")).toHaveTextContent(/^Must be a whole number \(a JSON integer\)\.$/);
    expect(screen.getByTestId("field-error-scope-orders")).toHaveTextContent(/^Must be a list \(a JSON array\)\.$/);
    expect(screen.getByTestId("field-error-reason")).toHaveTextContent(/^Must be text \(a JSON string\)\.$/);
    expect(screen.getByTestId("reset-reason")).toHaveAttribute("aria-invalid", "true");
    expect(screen.queryByTestId("error-banner")).toBeNull();
    expect(screen.getByTestId("reset-wizard")).not.toHaveTextContent("strategy.offset");
  });
});

describe("ResetWizard: execute and undo", () => {
  const executed = (body: ResetRequest): OffsetReset =>
    executedResetOf({
      id: 8,
      reason: body.reason,
      result: [
        { topic: "orders", partition: 0, new_offset: 10, committed: true, error: null },
        { topic: "orders", partition: 1, new_offset: 150, committed: true, error: null },
      ],
    });

  it("enables Execute only for the previewed inputs, a reason and the exact group id", async () => {
    const { posts, executes } = setup((body) => json(body.dry_run ? resetOf() : executed(body), 201));
    await openWizard();
    const execute = screen.getByTestId("reset-execute");
    expect(execute).toBeDisabled();
    expect(screen.getByTestId("execute-hint")).toHaveTextContent("Preview first");

    change("strategy-select", "shift_by");
    change("strategy-shift", "-80");
    await preview(posts);
    await screen.findByTestId("reset-plan");
    change("confirm-group-input", "orders-app");
    expect(execute).toBeDisabled(); // no reason yet
    expect(screen.getByTestId("execute-hint")).toHaveTextContent("Give a reason");
    change("reset-reason", "INC-9");
    expect(execute).toBeEnabled();

    for (const wrong of ["orders-ap", "Orders-app", " orders-app", "orders-app "]) {
      change("confirm-group-input", wrong);
      expect(execute).toBeDisabled();
    }
    change("confirm-group-input", "orders-app");
    expect(execute).toBeEnabled();

    // Changing a plan input makes the preview stale.
    change("strategy-shift", "-81");
    expect(execute).toBeDisabled();
    expect(screen.getByTestId("preview-stale")).toBeInTheDocument();
    change("strategy-shift", "-80");
    expect(execute).toBeEnabled();

    fireEvent.click(execute);
    // Execution runs the preview's own plan: by its id, with the reason; nothing re-planned.
    await waitFor(() => expect(executes).toEqual([{ reason: "INC-9" }]));
    expect(posts).toHaveLength(1);
    const result = await screen.findByTestId("reset-result");
    expect(result).toHaveAttribute("data-state", "succeeded");
    expect(result).toHaveTextContent("all 2 partitions committed");
    expect(screen.getByTestId("result-row-orders-0")).toHaveAttribute("data-committed", "true");
  });

  it("shows a 409 group_active prominently and changes nothing", async () => {
    const message =
      "Offsets can only be changed while group 'orders-app' is inactive, but it is Stable with 2 members. Stop its consumers first.";
    const { posts } = setup((body) =>
      body.dry_run
        ? json(resetOf(), 201)
        : apiError(409, "group_active", message, { state: "Stable", member_count: 2 }),
    );
    await openWizard();
    await preview(posts);
    change("reset-reason", "INC-9");
    change("confirm-group-input", "orders-app");
    fireEvent.click(screen.getByTestId("reset-execute"));
    const blocked = await screen.findByTestId("reset-blocked");
    expect(blocked).toHaveTextContent("Not executed: the group is active.");
    expect(blocked).toHaveTextContent(message);
    expect(screen.queryByTestId("reset-result")).toBeNull();
    expect(screen.getByTestId("reset-execute")).toBeEnabled(); // try again once the consumers are stopped
  });

  it("makes partial failures visible, then undoes with a reason", async () => {
    const { posts, fetch } = setup(
      (body) =>
        json(
          body.dry_run
            ? resetOf()
            : {
                ...executed(body),
                state: "partially_failed",
                result: [
                  { topic: "orders", partition: 0, new_offset: 10, committed: true, error: null },
                  { topic: "orders", partition: 1, new_offset: 150, committed: false, error: "COORDINATOR_NOT_AVAILABLE" },
                ],
              },
          201,
        ),
      { "/api/v1/offset-resets/8/undo": json(UNDO_9_OF_8, 201) },
    );
    await openWizard();
    await preview(posts);
    change("reset-reason", "INC-9");
    change("confirm-group-input", "orders-app");
    fireEvent.click(screen.getByTestId("reset-execute"));

    const result = await screen.findByTestId("reset-result");
    expect(result).toHaveAttribute("data-state", "partially_failed");
    expect(result).toHaveTextContent("1 of 2 partitions committed, 1 failed");
    expect(screen.getByTestId("result-row-orders-1")).toHaveAttribute("data-committed", "false");
    expect(screen.getByTestId("result-row-orders-1")).toHaveTextContent("COORDINATOR_NOT_AVAILABLE");

    expect(screen.getByTestId("undo-reason")).toHaveValue("Undo of reset #8");
    change("undo-reason", "INC-9 rollback");
    fireEvent.click(screen.getByTestId("reset-undo"));
    expect(await screen.findByTestId("undo-result")).toHaveTextContent("Undo of reset #8 (#9)");
    expect(screen.getByTestId("undo-result-row-orders-0")).toHaveAttribute("data-committed", "true");
    const undoCalls = fetch.mock.calls.filter(([url]) => url === "/api/v1/offset-resets/8/undo");
    expect(undoCalls).toHaveLength(1);
    expect(undoCalls[0]![1]!.method).toBe("POST");
    expect(JSON.parse(String(undoCalls[0]![1]!.body))).toEqual({ reason: "INC-9 rollback" });
    expect(screen.queryByTestId("reset-undo")).toBeNull();
  });

  it("warns before executing on a group with members", async () => {
    stubFetch({
      "/api/v1/me": json(ME),
      [GROUP_URL]: json({ ...ORDERS_APP, state: "Stable", members: [{ member_id: "m1", client_id: "c1", host: "/h", assignments: [] }] }),
      "/api/v1/clusters/local/topics": json(TOPICS),
      [RESETS_URL]: json([]),
    });
    renderApp("/clusters/local/groups/orders-app");
    await openWizard();
    expect(screen.getByTestId("reset-active-warning")).toHaveTextContent("1 running member (state Stable)");
  });

  it("shows what changed when the preview no longer holds (409 plan_stale), then previews again", async () => {
    const message = "The plan of preview 7 no longer holds: 2 partitions changed since. Preview again.";
    const changes = [
      // Sorted by topic and partition on screen; only the first four fields are promised.
      { topic: "orders", partition: 1, planned_current_offset: 100, current_offset: 135 },
      { topic: "orders", partition: 0, planned_current_offset: 90, current_offset: null },
    ];
    const { posts, executes, answer, fetch } = setup(
      (body) => (body.dry_run ? json(resetOf(), 201) : apiError(409, "plan_stale", message, { changes })),
      {
        "/api/v1/offset-resets/11/execute": (_url: string, init?: RequestInit) =>
          json(executed({ ...posts[posts.length - 1]!, reason: JSON.parse(String(init?.body)).reason }), 200),
      },
    );
    await openWizard();
    await preview(posts);
    change("reset-reason", "INC-9");
    change("confirm-group-input", "orders-app");
    expect(screen.getByTestId("reset-execute")).toHaveTextContent("Execute preview #7 on 4 partitions");
    fireEvent.click(screen.getByTestId("reset-execute"));

    expect(await screen.findByTestId("error-banner")).toHaveTextContent(message);
    const stale = screen.getByTestId("plan-stale");
    expect(stale).toHaveAttribute("data-count", "2");
    const rows = within(stale).getAllByTestId(/^plan-stale-row-/);
    expect(rows.map((r) => r.dataset.testid)).toEqual(["plan-stale-row-orders-0", "plan-stale-row-orders-1"]);
    expect(rows[0]).toHaveTextContent(/orders\s*0\s*90\s*none/);
    expect(rows[1]).toHaveTextContent(/orders\s*1\s*100\s*135/);
    expect(within(stale).queryByText("Log start – end now")).toBeNull(); // not sent: no column
    expect(executes).toEqual([{ reason: "INC-9" }]);
    expect(screen.queryByTestId("reset-result")).toBeNull();

    // "Preview again" plans the same inputs anew; the new preview has to be confirmed again.
    answer((body) => json(body.dry_run ? resetOf({ id: 11 }) : executed(body), 201));
    fireEvent.click(screen.getByTestId("preview-again"));
    await waitFor(() => expect(posts).toHaveLength(2));
    expect(posts[1]).toEqual({ ...posts[0], reason: "INC-9" });
    await waitFor(() => expect(screen.queryByTestId("plan-stale")).toBeNull());
    expect(screen.queryByTestId("error-banner")).toBeNull();
    expect(screen.getByTestId("confirm-group-input")).toHaveValue("");
    expect(screen.getByTestId("reset-execute")).toBeDisabled();
    change("confirm-group-input", "orders-app");
    expect(screen.getByTestId("reset-execute")).toHaveTextContent("Execute preview #11");
    fireEvent.click(screen.getByTestId("reset-execute"));
    expect(await screen.findByTestId("reset-result")).toHaveAttribute("data-state", "succeeded");
    const executeCalls = fetch.mock.calls.map(([url]) => String(url)).filter((url) => url.endsWith("/execute"));
    expect(executeCalls).toEqual(["/api/v1/offset-resets/7/execute", "/api/v1/offset-resets/11/execute"]);
  });

  it("shows the log range and planned offset of a stale plan when the server sends them", async () => {
    const changes = [
      { topic: "orders", partition: 2, planned_current_offset: null, current_offset: null, new_offset: 50, log_start_offset: 60, log_end_offset: 230 },
    ];
    const { posts } = setup((body) =>
      body.dry_run
        ? json(resetOf(), 201)
        : apiError(409, "plan_stale", "No longer holds.", { changes }),
    );
    await openWizard();
    await preview(posts);
    change("reset-reason", "INC-9");
    change("confirm-group-input", "orders-app");
    fireEvent.click(screen.getByTestId("reset-execute"));
    const row = await screen.findByTestId("plan-stale-row-orders-2");
    expect(row).toHaveTextContent(/none\s*none\s*50\s*60 – 230/);
    expect(screen.getByText("Log start – end now")).toBeInTheDocument();
  });

  it("on a protected cluster says the execution was sent for approval (202), not executed, with a link to the request", async () => {
    const approval = {
      id: 12,
      summary: "Execute preview 7: reset group orders-app on 4 partitions as planned (to_datetime).",
      expires_at: "2026-07-01T15:00:00.000+00:00",
      state: "pending",
    };
    const { posts, executes } = setup((body) => (body.dry_run ? json(resetOf(), 201) : json({ approval }, 202)));
    await openWizard();
    await preview(posts);
    change("reset-reason", "INC-9");
    change("confirm-group-input", "orders-app");
    fireEvent.click(screen.getByTestId("reset-execute"));

    const notice = await screen.findByTestId("approval-notice");
    expect(notice).toHaveTextContent(
      `Sent for approval as request #12: ${approval.summary} It runs once someone else with the role approves it.`,
    );
    expect(notice).toHaveClass("notice-info");
    expect(screen.getByTestId("approval-notice-link")).toHaveAttribute("href", "/approvals?id=12");
    expect(screen.getByTestId("reset-requested")).toHaveAttribute("data-approval", "12");
    expect(executes).toEqual([{ reason: "INC-9" }]);
    // Not an execution: no result, no undo, no red banner, and no second request from here.
    expect(screen.queryByTestId("reset-executed")).toBeNull();
    expect(screen.queryByTestId("reset-result")).toBeNull();
    expect(screen.queryByTestId("error-banner")).toBeNull();
    expect(screen.queryByTestId("reset-execute")).toBeNull();

    fireEvent.click(screen.getByTestId("reset-again"));
    expect(screen.queryByTestId("approval-notice")).toBeNull();
    expect(screen.getByTestId("reset-execute")).toBeDisabled();
  });

  it("shows the message of any other refusal (409 already_executed), without the stale table", async () => {
    const message = "Reset 7 was already executed; preview again to reset anew.";
    const { posts } = setup((body) =>
      body.dry_run ? json(resetOf(), 201) : apiError(409, "already_executed", message),
    );
    await openWizard();
    await preview(posts);
    change("reset-reason", "INC-9");
    change("confirm-group-input", "orders-app");
    fireEvent.click(screen.getByTestId("reset-execute"));
    const banner = await screen.findByTestId("error-banner");
    expect(banner).toHaveTextContent("The reset was not executed");
    expect(banner).toHaveTextContent(message);
    expect(banner).toHaveTextContent("HTTP 409 · already_executed");
    expect(screen.queryByTestId("plan-stale")).toBeNull();
    expect(screen.queryByTestId("reset-blocked")).toBeNull();
    expect(screen.queryByTestId("reset-result")).toBeNull();
  });
});

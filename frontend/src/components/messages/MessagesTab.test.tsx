import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { MessagePage, MessageRecord } from "../../api/messages";
import { apiError, json, stubFetch } from "../../test/fetchStub";
import { LOCAL, ME, ORDERS } from "../../test/fixtures";
import { renderApp } from "../../test/render";
import { expectScreenful, giveScrollBoxHeight, renderedRowIds } from "../../test/virtualTable";

const TOPIC_URL = "/api/v1/clusters/local/topics/orders";
const MESSAGES_URL = "/api/v1/clusters/local/topics/orders/messages";
const CLUSTER_URL = "/api/v1/clusters/local";
const TAB = "/clusters/local/topics/orders?tab=messages";

giveScrollBoxHeight("messages");

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function record(partition: number, offset: number, change: Partial<MessageRecord> = {}): MessageRecord {
  return {
    partition,
    offset,
    timestamp: "2026-11-27T08:00:00.000Z",
    timestamp_ms: Date.parse("2026-11-27T08:00:00.000Z") + offset * 1000,
    timestamp_type: "CreateTime",
    key: { format: "text", data: `truck-${offset}`, size: 8, schema_id: null, note: null },
    value: { format: "json", data: { amount: offset * 100, id: `o-${offset}` }, size: 30, schema_id: null, note: null },
    headers: [],
    ...change,
  };
}

function page(records: MessageRecord[], change: Partial<MessagePage> = {}): MessagePage {
  return {
    records,
    next_cursor: "c1.next",
    prev_cursor: "c1.prev",
    isolation: "read_committed",
    scan: { scanned: records.length, matched: records.length, stopped_by: "limit", positions: {}, elapsed_ms: 3 },
    ...change,
  };
}

/** The query strings the messages endpoint was called with, in order. */
function messageCalls(fetch: ReturnType<typeof stubFetch>): URLSearchParams[] {
  return fetch.mock.calls
    .map(([url]) => String(url))
    .filter((url) => url.split("?")[0] === MESSAGES_URL)
    .map((url) => new URLSearchParams(url.split("?")[1] ?? ""));
}

function lastCall(fetch: ReturnType<typeof stubFetch>): URLSearchParams {
  const calls = messageCalls(fetch);
  expect(calls.length).toBeGreaterThan(0);
  return calls[calls.length - 1]!;
}

function stub(messages: MessagePage | ((url: string) => ReturnType<typeof json>)) {
  return stubFetch({
    "/api/v1/me": json(ME),
    [TOPIC_URL]: json(ORDERS),
    [CLUSTER_URL]: json(LOCAL),
    [MESSAGES_URL]: typeof messages === "function" ? (url) => messages(url) : json(messages),
  });
}

describe("MessagesTab", () => {
  it("opens on the latest records, newest first, from the topic page's Messages tab", async () => {
    const fetch = stub(page([record(0, 2), record(1, 7)], { scan: { scanned: 2, matched: 2, stopped_by: "end", positions: {}, elapsed_ms: 1 } }));
    renderApp("/clusters/local/topics/orders");
    fireEvent.click(await screen.findByTestId("topic-tab-messages"));

    expect(await screen.findByTestId("message-row-0:2")).toBeInTheDocument();
    expect(screen.getByTestId("topic-tab-messages")).toHaveAttribute("aria-current", "page");
    // The defaults: nothing but the page size is sent.
    expect([...lastCall(fetch).entries()]).toEqual([["limit", "50"]]);
    expect(screen.getByTestId("messages-count")).toHaveTextContent("2 records, newest first");
    expect(screen.getByTestId("messages-stopped")).toHaveTextContent("Reached the end of every chosen partition.");
    const row = screen.getByTestId("message-row-1:7");
    expect(within(row).getByTestId("message-key")).toHaveTextContent("truck-7");
    expect(within(row).getByTestId("message-value")).toHaveTextContent('{"amount":700,"id":"o-7"}');
    // UTC in the timestamp's tooltip.
    expect(within(row).getByRole("time")).toHaveAttribute("title", "2026-11-27 08:00:07.000 UTC");
  });

  it("builds the query from the controls and keeps it in the URL", async () => {
    const fetch = stub(page([record(0, 5)]));
    renderApp(TAB);
    await screen.findByTestId("message-row-0:5");

    fireEvent.click(screen.getByTestId("messages-position-offset"));
    fireEvent.change(screen.getByTestId("messages-offset"), { target: { value: "120" } });
    fireEvent.change(screen.getByTestId("messages-direction"), { target: { value: "backward" } });
    fireEvent.change(screen.getByTestId("messages-partitions"), { target: { value: "2, 0-1" } });
    fireEvent.click(screen.getByTestId("messages-read"));
    await waitFor(() => expect(lastCall(fetch).get("offset")).toBe("120"));
    let q = lastCall(fetch);
    expect(q.get("position")).toBe("offset");
    expect(q.get("direction")).toBe("backward");
    expect(q.getAll("partition")).toEqual(["0", "1", "2"]);

    // Page size, decoders and isolation apply at once.
    fireEvent.change(screen.getByTestId("messages-limit"), { target: { value: "200" } });
    fireEvent.change(screen.getByTestId("messages-value-format"), { target: { value: "msgpack" } });
    fireEvent.change(screen.getByTestId("messages-key-format"), { target: { value: "long" } });
    fireEvent.change(screen.getByTestId("messages-isolation"), { target: { value: "read_uncommitted" } });
    await waitFor(() => expect(lastCall(fetch).get("isolation")).toBe("read_uncommitted"));
    q = lastCall(fetch);
    expect(q.get("limit")).toBe("200");
    expect(q.get("value_format")).toBe("msgpack");
    expect(q.get("key_format")).toBe("long");
    expect(q.get("offset")).toBe("120");

    // Earliest: no offset, the server's direction unless one is chosen.
    fireEvent.click(screen.getByTestId("messages-position-earliest"));
    fireEvent.change(screen.getByTestId("messages-direction"), { target: { value: "" } });
    fireEvent.change(screen.getByTestId("messages-partitions"), { target: { value: "" } });
    fireEvent.click(screen.getByTestId("messages-read"));
    await waitFor(() => expect(lastCall(fetch).get("position")).toBe("earliest"));
    q = lastCall(fetch);
    expect(q.has("offset")).toBe(false);
    expect(q.has("direction")).toBe(false);
    expect(q.has("partition")).toBe(false);

    // Avro says it needs a Schema Registry.
    fireEvent.change(screen.getByTestId("messages-value-format"), { target: { value: "avro" } });
    expect(await screen.findByTestId("messages-registry-notice")).toHaveTextContent("Schema Registry");
  });

  it("reads from a date-time in an explicit zone", async () => {
    const fetch = stub(page([record(0, 1)]));
    renderApp(TAB);
    await screen.findByTestId("message-row-0:1");
    fireEvent.click(screen.getByTestId("messages-position-timestamp"));
    fireEvent.change(screen.getByTestId("messages-ts-datetime"), { target: { value: "2026-11-27 09:30:00" } });
    fireEvent.change(screen.getByTestId("messages-ts-tz"), { target: { value: "+02:00" } });
    fireEvent.click(screen.getByTestId("messages-read"));
    await waitFor(() => expect(lastCall(fetch).get("position")).toBe("timestamp"));
    expect(lastCall(fetch).get("timestamp")).toBe("2026-11-27T09:30:00.000+02:00");
  });

  it("reads the same view again on Read, and keeps the drawer's focus while the page polls", async () => {
    const fetch = stub(page([record(0, 1)]));
    renderApp(TAB);
    await screen.findByTestId("message-row-0:1");
    const before = messageCalls(fetch).length;
    fireEvent.click(screen.getByTestId("messages-read"));
    await waitFor(() => expect(messageCalls(fetch).length).toBe(before + 1));

    fireEvent.click(screen.getByTestId("message-row-0:1"));
    expect(await screen.findByTestId("record-close")).toHaveFocus();
    const input = screen.getByTestId("messages-filter-input");
    input.focus();
    fireEvent.change(input, { target: { value: "offset" } });
    expect(input).toHaveFocus();
    fireEvent.click(screen.getByTestId("record-close"));
    await waitFor(() => expect(screen.queryByTestId("record-drawer")).toBeNull());
  });

  it("refuses a partition the topic does not have before asking", async () => {
    const fetch = stub(page([record(0, 1)]));
    renderApp(TAB);
    await screen.findByTestId("message-row-0:1");
    const before = messageCalls(fetch).length;
    fireEvent.change(screen.getByTestId("messages-partitions"), { target: { value: "7" } });
    fireEvent.click(screen.getByTestId("messages-read"));
    expect(await screen.findByText(/The topic has partitions 0 to 2/)).toBeInTheDocument();
    expect(messageCalls(fetch).length).toBe(before);
  });

  it("pages with the cursors, keeping formats, limit, isolation and filter", async () => {
    const fetch = stub((url) => {
      const q = new URLSearchParams(url.split("?")[1]);
      const cursor = q.get("cursor");
      if (cursor === "c1.older") return json(page([record(0, 1)], { next_cursor: "c1.older2", prev_cursor: "c1.newer2" }));
      if (cursor === "c1.newer2") return json(page([record(0, 2)], { next_cursor: "c1.newer3", prev_cursor: "c1.older3" }));
      return json(page([record(0, 3)], { next_cursor: "c1.older", prev_cursor: "c1.newer" }));
    });
    renderApp(`${TAB}&vf=json&limit=20&iso=read_uncommitted&filter=${encodeURIComponent("value.amount > 1")}&p=0`);
    await screen.findByTestId("message-row-0:3");
    expect(lastCall(fetch).getAll("partition")).toEqual(["0"]);

    // Newest first: "Older" is the next cursor.
    fireEvent.click(screen.getByTestId("messages-older"));
    await screen.findByTestId("message-row-0:1");
    let q = lastCall(fetch);
    expect(q.get("cursor")).toBe("c1.older");
    expect(q.get("value_format")).toBe("json");
    expect(q.get("limit")).toBe("20");
    expect(q.get("isolation")).toBe("read_uncommitted");
    expect(q.get("filter")).toBe("value.amount > 1");
    for (const name of ["position", "partition", "direction", "offset", "timestamp"]) expect(q.has(name)).toBe(false);

    // Still newest first: "Newer" is the previous cursor, and reads oldest first from there.
    fireEvent.click(screen.getByTestId("messages-newer"));
    await screen.findByTestId("message-row-0:2");
    expect(lastCall(fetch).get("cursor")).toBe("c1.newer2");
    expect(screen.getByTestId("messages-count")).toHaveTextContent("oldest first");
    // Oldest first: "Newer" is the next cursor.
    fireEvent.click(screen.getByTestId("messages-newer"));
    await waitFor(() => expect(lastCall(fetch).get("cursor")).toBe("c1.newer3"));

    // Back to the start: the position again, no cursor.
    fireEvent.click(screen.getByTestId("messages-restart"));
    await waitFor(() => expect(lastCall(fetch).has("cursor")).toBe(false));
    expect(lastCall(fetch).getAll("partition")).toEqual(["0"]);
  }, 20_000);

  it("shows a filter's syntax error beside the box, pointing at the column", async () => {
    const fetch = stub((url) => {
      const filter = new URLSearchParams(url.split("?")[1]).get("filter");
      if (filter === "value.amount >> 6000") {
        return apiError(400, "invalid", "filter: Syntax error: extraneous input '>' expecting {'[', '{', NUM_INT, IDENTIFIER} (line 1, column 15).", {
          field: "filter",
          line: 1,
          column: 15,
        });
      }
      return json(
        page([record(0, 9)], {
          scan: {
            scanned: 100_000,
            matched: 1,
            stopped_by: "records",
            positions: {},
            elapsed_ms: 2000,
            filter_errors: 12,
            filter_error: "no such key: amount",
          },
        }),
      );
    });
    renderApp(TAB);
    await screen.findByTestId("message-row-0:9");

    fireEvent.change(screen.getByTestId("messages-filter-input"), { target: { value: "value.amount >> 6000" } });
    fireEvent.click(screen.getByTestId("messages-filter-apply"));
    const box = await screen.findByTestId("messages-filter-error");
    expect(box).toHaveTextContent("The filter was refused: Syntax error: extraneous input '>'.");
    expect(box).not.toHaveTextContent("expecting");
    expect(screen.getByTestId("messages-filter-error-place")).toHaveTextContent("At line 1, column 15");
    expect(screen.getByTestId("messages-filter-caret").textContent).toBe(`value.amount >> 6000\n${" ".repeat(14)}^`);
    expect(screen.getByTestId("messages-filter-input")).toHaveAttribute("aria-invalid", "true");
    // Not a banner: the error is the filter's.
    expect(screen.queryByTestId("error-banner")).toBeNull();

    // An example replaces it and is applied.
    fireEvent.click(screen.getAllByTestId("messages-filter-example")[0]!);
    await waitFor(() => expect(lastCall(fetch).get("filter")).toBe("value.amount > 6000"));
    await waitFor(() => expect(screen.queryByTestId("messages-filter-error")).toBeNull());
    expect(screen.getByTestId("messages-filter-input")).toHaveValue("value.amount > 6000");
    expect(await screen.findByTestId("messages-matched")).toHaveTextContent("1 matched of 100,000 scanned");
    expect(screen.getByTestId("messages-stopped")).toHaveTextContent("Stopped after 100,000 records examined");
    expect(screen.getByTestId("messages-filter-errors")).toHaveTextContent("filter failed on 12 records: no such key: amount");
    fireEvent.click(screen.getByTestId("messages-go-on"));
    await waitFor(() => expect(lastCall(fetch).get("cursor")).toBe("c1.next"));
  });

  it("opens a record in the drawer: pretty value, key, headers in order, copy and kcat", async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
    stub(
      page([
        record(2, 41, {
          headers: [
            { key: "trace-id", value: { format: "text", data: "a1", size: 2, schema_id: null, note: null } },
            { key: "trace-id", value: { format: "text", data: "b2", size: 2, schema_id: null, note: null } },
            { key: "empty", value: null },
          ],
          aborted: true,
        }),
        record(1, 3, {
          value: { format: "bytes", data: "AAEC/w==", size: 4, schema_id: null, note: "not UTF-8 text nor JSON" },
        }),
      ]),
    );
    renderApp(TAB);
    const row = await screen.findByTestId("message-row-2:41");
    expect(within(row).getByTestId("message-aborted")).toHaveTextContent("aborted");
    const bytesRow = screen.getByTestId("message-row-1:3");
    expect(within(bytesRow).getByTestId("message-format")).toHaveAttribute("title", "not UTF-8 text nor JSON");

    fireEvent.click(row);
    const drawer = await screen.findByTestId("record-drawer");
    expect(within(drawer).getByTestId("record-value-text").textContent).toBe('{\n  "amount": 4100,\n  "id": "o-41"\n}');
    expect(within(drawer).getByTestId("record-key-text")).toHaveTextContent("truck-41");
    expect(within(drawer).getAllByTestId("record-header").map((r) => r.textContent?.trim())).toEqual(["trace-ida1", "trace-idb2", "emptynull"]);
    expect(within(drawer).getByTestId("record-partition")).toHaveTextContent("2");
    expect(within(drawer).getByTestId("record-offset")).toHaveTextContent("41");
    expect(within(drawer).getByTestId("record-timestamp")).toHaveTextContent("2026-11-27 08:00:41.000 UTC");
    expect(drawer).toHaveTextContent("Timestamp (CreateTime)");

    fireEvent.click(within(drawer).getByTestId("record-copy-value"));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('{\n  "amount": 4100,\n  "id": "o-41"\n}'));
    await waitFor(() => expect(within(drawer).getByTestId("record-copy-kcat")).toHaveAttribute("title", expect.stringContaining("127.0.0.1")));
    fireEvent.click(within(drawer).getByTestId("record-copy-kcat"));
    await waitFor(() =>
      expect(writeText).toHaveBeenLastCalledWith("kcat -C -b 127.0.0.1:19092,127.0.0.1:19093,127.0.0.1:19094 -t orders -p 2 -o 41 -c 1"),
    );
    expect(within(drawer).getByTestId("record-said")).toHaveTextContent("Copied the kcat command.");

    // Bytes: hex and base64.
    fireEvent.click(bytesRow);
    const hex = await screen.findByTestId("record-value-hex");
    expect(hex).toHaveTextContent("00000000 00 01 02 ff");
    expect(screen.getByTestId("record-value-base64")).toHaveTextContent("AAEC/w==");
    expect(screen.getByTestId("record-value-note")).toHaveTextContent("not UTF-8 text nor JSON");

    // Escape closes it.
    act(() => {
      fireEvent.keyDown(document, { key: "Escape" });
    });
    await waitFor(() => expect(screen.queryByTestId("record-drawer")).toBeNull());
  });

  it("renders only a screenful of a 500-record page", async () => {
    stub(page(Array.from({ length: 500 }, (_, i) => record(i % 3, 1000 - i))));
    renderApp(`${TAB}&limit=500`);
    await screen.findByTestId("messages-table");
    await waitFor(() => expectScreenful(renderedRowIds("messages", "message-row-")));
  });
});

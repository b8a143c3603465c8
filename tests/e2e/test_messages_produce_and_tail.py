"""The Messages tab's write side in real Chromium: seek to a time, filter, open a record, copy
it to the Produce form, produce it, and see it arrive in the live tail at the offset the
produce answered."""

import re
from datetime import UTC, datetime

import orjson
import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import login, screenshot
from tests.e2e.orders import BASE_MS, PARTITIONS, RECORDS, message_rows, write_orders

pytestmark = pytest.mark.e2e


@pytest.fixture
def orders_topic(stack) -> str:
    return write_orders("e2e-produce")


def test_copy_a_record_to_the_producer_and_see_it_in_the_live_tail(page, orders_topic):
    login(page)
    page.goto(f"/clusters/local/topics/{orders_topic}?tab=messages")
    expect(message_rows(page)).to_have_count(RECORDS)

    # Seek to the time of order 10 (UTC): oldest first from there, order 10 on top.
    at = datetime.fromtimestamp((BASE_MS + 10_000) / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S")
    page.click("[data-testid=messages-position-timestamp]")
    page.fill("[data-testid=messages-ts-datetime]", at)
    page.click("[data-testid=messages-read]")
    expect(message_rows(page)).to_have_count(RECORDS - 10)
    expect(message_rows(page).first.get_by_test_id("message-key")).to_have_text("order-10")
    expect(page.get_by_test_id("messages-count")).to_contain_text("15 records, oldest first")
    screenshot(page, "produce-tail-1-seek")

    # A CEL filter on the decoded JSON: orders 16 to 24 from that time on.
    page.fill("[data-testid=messages-filter-input]", "value.amount > 15000")
    page.click("[data-testid=messages-filter-apply]")
    expect(message_rows(page)).to_have_count(9)
    expect(page.get_by_test_id("messages-matched")).to_contain_text("9 matched of 15 scanned")
    expect(message_rows(page).first.get_by_test_id("message-key")).to_have_text("order-16")
    screenshot(page, "produce-tail-2-filtered")

    # Order 17 is partition 1, offset 8: its drawer, then "Copy to producer".
    page.click("[data-testid='message-row-1:8']")
    drawer = page.get_by_test_id("record-drawer")
    expect(drawer.get_by_test_id("record-key-text")).to_have_text("order-17")
    screenshot(page, "produce-tail-3-drawer")
    drawer.get_by_test_id("record-copy-to-producer").click()
    expect(drawer).to_have_count(0)

    form = page.get_by_test_id("produce-form")
    expect(form.get_by_test_id("produce-copied-from")).to_contain_text("partition 1 · offset 8")
    expect(form.get_by_test_id("produce-key-format")).to_have_value("text")
    expect(form.get_by_test_id("produce-key-text")).to_have_value("order-17")
    expect(form.get_by_test_id("produce-value-format")).to_have_value("json")
    value_text = form.get_by_test_id("produce-value-text").input_value()
    assert orjson.loads(value_text) == {"id": "o-17", "amount": 17000, "customer": {"id": "c-2"}}
    headers = form.get_by_test_id("produce-header")
    expect(headers).to_have_count(2)
    expect(form.get_by_test_id("produce-header-key").first).to_have_value("trace-id")
    expect(form.get_by_test_id("produce-header-value").first).to_have_value("t-17")
    expect(form.get_by_test_id("produce-header-key").last).to_have_value("trace-id")
    expect(form.get_by_test_id("produce-header-value").last).to_have_value("again")
    expect(form.get_by_test_id("produce-partition")).to_have_value("")
    screenshot(page, "produce-tail-4-copied")

    # The live tail (with the same filter), following every partition from its end.
    page.click("[data-testid=messages-tail-toggle]")
    expect(page.get_by_test_id("messages-tail-toggle")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("messages-tail-status")).to_have_attribute("data-status", "tailing")
    expect(page.get_by_test_id("messages-tail-partitions")).to_contain_text("partitions 0, 1")
    expect(message_rows(page)).to_have_count(0)

    # Produce the copy: the answer says where it went ...
    form.get_by_test_id("produce-submit").click()
    result = form.get_by_test_id("produce-result")
    expect(result).to_contain_text("Written to partition")
    partition = int(result.get_attribute("data-partition"))
    offset = int(result.get_attribute("data-offset"))
    assert partition in range(PARTITIONS)
    # ... after the 13 (partition 0) or 12 (partition 1) records written above.
    assert offset == (13 if partition == 0 else 12)
    expect(result).to_contain_text(re.compile(rf"partition {partition} at offset {offset}\b"))

    # ... and the tail shows it arriving there.
    row = page.get_by_test_id(f"message-row-{partition}:{offset}")
    expect(row).to_be_visible()
    expect(message_rows(page)).to_have_count(1)
    expect(row.get_by_test_id("message-key")).to_have_text("order-17")
    expect(row.get_by_test_id("message-value")).to_contain_text('"amount":17000')
    expect(page.get_by_test_id("messages-tail-count")).to_contain_text("1 record")
    screenshot(page, "produce-tail-5-arrived")

    # The arrived record opens like any other: the headers kept in order, duplicates too.
    row.click()
    drawer = page.get_by_test_id("record-drawer")
    expect(drawer.get_by_test_id("record-offset")).to_have_text(str(offset))
    expect(drawer.get_by_test_id("record-header")).to_have_count(2)
    expect(drawer.get_by_test_id("record-header").first).to_contain_text("t-17")
    page.keyboard.press("Escape")

    # Off: the socket is closed and the page's records are back.
    page.click("[data-testid=messages-tail-toggle]")
    expect(page.get_by_test_id("messages-tail")).to_have_count(0)
    expect(message_rows(page)).to_have_count(9)

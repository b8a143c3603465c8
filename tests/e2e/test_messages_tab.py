"""The topic page's Messages tab in real Chromium: the latest records, seeking to the earliest,
a CEL filter (and its syntax error beside the box), a record's drawer, and a link that
reproduces the view."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import login, screenshot
from tests.e2e.orders import RECORDS, message_rows, write_orders

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def orders_topic(stack) -> str:
    return write_orders("e2e-msg")


def test_messages_tab_seek_filter_and_drawer(page, orders_topic):
    login(page)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"/clusters/local/topics/{orders_topic}")
    page.click("[data-testid=topic-tab-messages]")

    # Latest, newest first: order 24 (partition 0, offset 12) on top.
    expect(message_rows(page)).to_have_count(RECORDS)
    expect(page.get_by_test_id("messages-count")).to_contain_text("25 records, newest first")
    expect(message_rows(page).first).to_have_attribute("data-testid", "message-row-0:12")
    expect(message_rows(page).first.get_by_test_id("message-value")).to_contain_text(
        '"amount":24000'
    )
    screenshot(page, "messages-latest")

    # Pages of 20: the older page holds orders 4..0, the newer one from there 5..24.
    page.select_option("[data-testid=messages-limit]", "20")
    expect(message_rows(page)).to_have_count(20)
    page.click("[data-testid=messages-older]")
    expect(message_rows(page)).to_have_count(5)
    expect(message_rows(page).first.get_by_test_id("message-key")).to_have_text("order-4")
    expect(page.get_by_test_id("messages-count")).to_contain_text("newest first")
    page.click("[data-testid=messages-newer]")
    expect(page.get_by_test_id("messages-count")).to_contain_text("20 records, oldest first")
    expect(message_rows(page).first.get_by_test_id("message-key")).to_have_text("order-5")
    expect(page).to_have_url(re.compile(r"cursor="))
    screenshot(page, "messages-paged")

    # Earliest, oldest first: order 0 on top, the cursor gone, the page size kept.
    page.click("[data-testid=messages-position-earliest]")
    page.click("[data-testid=messages-read]")
    expect(message_rows(page).first).to_have_attribute("data-testid", "message-row-0:0")
    expect(message_rows(page)).to_have_count(20)
    expect(page).not_to_have_url(re.compile(r"cursor="))
    expect(page).to_have_url(re.compile(r"tab=messages.*pos=earliest|pos=earliest.*tab=messages"))

    # The date-time position reuses the reset wizard's input with its zone.
    page.click("[data-testid=messages-position-timestamp]")
    page.fill("[data-testid=messages-ts-datetime]", "2026-11-27 08:00:00")
    page.select_option("[data-testid=messages-ts-tz]", "+02:00")
    expect(page.get_by_test_id("messages-ts-iso")).to_have_text("2026-11-27T08:00:00.000+02:00")
    screenshot(page, "messages-datetime")
    page.click("[data-testid=messages-position-earliest]")

    # A syntax error is shown beside the box, pointing at its column.
    page.fill("[data-testid=messages-filter-input]", "value.amount >> 6000")
    page.click("[data-testid=messages-filter-apply]")
    error = page.get_by_test_id("messages-filter-error")
    expect(error).to_contain_text("The filter was refused")
    expect(page.get_by_test_id("messages-filter-error-place")).to_contain_text("At line 1, column")
    expect(page.get_by_test_id("messages-filter-caret")).to_contain_text("^")
    screenshot(page, "messages-filter-error")

    # A filter: orders above 6000 (7 to 24), oldest first.
    page.fill("[data-testid=messages-filter-input]", "value.amount > 6000")
    page.click("[data-testid=messages-filter-apply]")
    expect(error).to_have_count(0)
    expect(message_rows(page)).to_have_count(18)
    expect(page.get_by_test_id("messages-matched")).to_contain_text("18 matched of 25 scanned")
    expect(page.get_by_test_id("messages-stopped")).to_contain_text("end of every chosen partition")
    expect(message_rows(page).first.get_by_test_id("message-key")).to_have_text("order-7")
    screenshot(page, "messages-filtered")

    # The record's drawer: pretty JSON, both headers in order, where it is, kcat.
    page.click("[data-testid='message-row-0:4']")
    drawer = page.get_by_test_id("record-drawer")
    expect(drawer.get_by_test_id("record-value-text")).to_contain_text('"amount": 8000')
    expect(drawer.get_by_test_id("record-key-text")).to_have_text("order-8")
    expect(drawer.get_by_test_id("record-header")).to_have_count(2)
    expect(drawer.get_by_test_id("record-header").first).to_contain_text("t-8")
    expect(drawer.get_by_test_id("record-header").last).to_contain_text("again")
    expect(drawer.get_by_test_id("record-partition")).to_have_text("0")
    expect(drawer.get_by_test_id("record-offset")).to_have_text("4")
    expect(drawer.get_by_test_id("record-timestamp")).to_contain_text("UTC")
    expect(drawer.get_by_test_id("record-copy-kcat")).to_have_attribute(
        "title", re.compile(rf"^kcat -C -b \S+:\d+\S* -t {orders_topic} -p 0 -o 4 -c 1$")
    )
    drawer.get_by_test_id("record-copy-value").click()
    expect(drawer.get_by_test_id("record-said")).to_have_text("Copied the value.")
    screenshot(page, "messages-record-drawer")
    page.keyboard.press("Escape")
    expect(drawer).to_have_count(0)

    # The URL reproduces the view: reload and the same 18 records are there.
    page.reload()
    expect(message_rows(page)).to_have_count(18)
    expect(page.get_by_test_id("messages-filter-input")).to_have_value("value.amount > 6000")
    expect(page.get_by_test_id("messages-position-earliest")).to_have_attribute(
        "aria-pressed", "true"
    )

    # Values read as bytes: the filter cannot be evaluated on base64 text, and says so.
    page.select_option("[data-testid=messages-value-format]", "bytes")
    expect(page.get_by_test_id("messages-filter-errors")).to_contain_text("filter failed on 25")
    screenshot(page, "messages-filter-errors")
    page.click("[data-testid=messages-filter-clear]")
    expect(message_rows(page)).to_have_count(20)
    badge = message_rows(page).first.get_by_test_id("message-format")
    expect(badge).to_have_text("bytes")
    message_rows(page).first.click()
    expect(page.get_by_test_id("record-value-hex")).to_contain_text(
        re.compile(r"00000000\s+7b 22 69 64")
    )
    expect(page.get_by_test_id("record-value-base64")).to_contain_text("eyJpZCI6")
    screenshot(page, "messages-bytes-drawer")

"""The Alerts page in real Chromium: an operator creates a rule with the form, sends a test
alert to a real HTTP receiver and sees it delivered, and the alert is listed with its attempt."""

from __future__ import annotations

import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import login, screenshot

pytestmark = pytest.mark.e2e


class Receiver(BaseHTTPRequestHandler):
    got: list[dict] = []

    def do_POST(self):  # noqa: N802
        Receiver.got.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def receiver():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    Receiver.got = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hook"
    server.shutdown()


def test_create_a_rule_send_a_test_alert_and_see_it_delivered(page, receiver):
    name = f"billing behind {uuid.uuid4().hex[:6]}"
    login(page)
    page.goto("/alerts")
    page.click("[data-testid=new-rule]")
    page.fill("[data-testid=rule-name]", name)
    page.select_option("[data-testid=rule-cluster]", "local")
    page.fill("[data-testid=rule-pattern]", "billing-*")
    page.check("[data-testid=rule-status-ERR]")
    page.check("[data-testid=rule-status-STOP]")
    page.select_option("[data-testid=rule-channel]", "webhook")
    page.fill("[data-testid=rule-target]", receiver)
    screenshot(page, "alerts-new-rule")
    page.click("[data-testid=rule-submit]")

    row = page.locator("[data-testid^=rule-row-]", has_text=name)
    expect(row).to_be_visible(timeout=15_000)
    expect(row).to_contain_text("status ERR or STOP")
    expect(row).to_contain_text("http://127.0.0.1")  # scheme and host only
    expect(row).not_to_contain_text("/hook")
    rule_id = row.get_attribute("data-testid").rsplit("-", 1)[1]
    page.click(f"[data-testid=rule-test-{rule_id}]")
    outcome = page.locator(f"[data-testid=rule-test-result-{rule_id}]")
    expect(outcome).to_have_attribute("data-state", "delivered", timeout=15_000)
    expect(page.locator(f"[data-testid=rule-test-result-{rule_id}-answer]")).to_have_text(
        "HTTP 204"
    )
    assert [b["alert"]["kind"] for b in Receiver.got] == ["test"]
    assert Receiver.got[0]["alert"]["rule_name"] == name
    event = page.locator("[data-testid=alert-events-table] tr[data-kind=test]").first
    expect(event).to_have_attribute("data-state", "delivered", timeout=15_000)
    screenshot(page, "alerts-page")

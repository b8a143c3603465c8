"""Lag alert rules over the API (strict input, roles, secrets kept), the listener that turns a
sampler pass into alerts, and delivery to a real local HTTP receiver and to Django's mail
outbox. No Kafka: the listener is handed evaluations as the sampler makes them."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from alerts import delivery, listener
from alerts.models import AlertEvent, AlertRule, AlertState
from console.models import AuditEntry

pytestmark = pytest.mark.django_db

SLACK = "https://hooks.slack.com/services/T000/B000/secretsecret"
RULE = {
    "name": "billing stopped",
    "cluster": "local",
    "group_pattern": "billing-*",
    "statuses": ["STOP", "ERR"],
    "channel": "slack",
    "target": SLACK,
}


def create(client, **changes):
    return client.post("/api/v1/alerts/rules", {**RULE, **changes}, format="json")


def test_a_rule_is_created_by_an_operator_and_its_secret_url_never_shown(
    operator_client, viewer_client
):
    answer = create(operator_client)
    assert answer.status_code == 201, answer.json()
    rule = answer.json()
    assert rule["target"] == "https://hooks.slack.com/…" and rule["statuses"] == ["ERR", "STOP"]
    assert rule["repeat_interval_s"] == 3600 and rule["firing_groups"] == []
    assert AlertRule.objects.get().target == SLACK  # kept whole, for delivery
    listed = viewer_client.get("/api/v1/alerts/rules").json()
    assert [r["id"] for r in listed] == [rule["id"]] and SLACK not in json.dumps(listed)
    entry = AuditEntry.objects.get(action="alert.rule.create")
    assert "secretsecret" not in json.dumps(entry.request)
    assert create(viewer_client).status_code == 403


@pytest.mark.parametrize(
    "changes,field",
    [
        ({"statuses": [], "lag_seconds_over": None}, "statuses"),  # no condition at all
        ({"statuses": ["BAD"]}, "statuses"),
        ({"target": "ftp://x/y"}, "target"),
        ({"target": "https://user:pw@hooks.example.com/x"}, "target"),
        ({"channel": "email", "target": "not-an-address"}, "target"),
        ({"channel": "pager"}, "channel"),
        ({"lag_seconds_over": -1}, "lag_seconds_over"),
        ({"repeat_interval_s": "600"}, "repeat_interval_s"),  # JSON numbers only
        ({"silences": [{"starts_at": "2026-12-24T18:00:00+01:00"}]}, "silences"),
        ({"silences": [{"starts_at": "2026-12-24T18:00:00", "ends_at": "2026-12-25T18:00:00"}]},
         "silences.0.starts_at"),  # no zone
        ({"silences": [{"starts_at": "2026-12-25T18:00:00Z", "ends_at": "2026-12-24T18:00:00Z"}]},
         "silences.0.ends_at"),
        ({"statsues": ["ERR"]}, "statsues"),  # a misspelt key is refused, not ignored
    ],
)  # fmt: skip
def test_bad_rules_are_400_naming_the_field_and_nothing_is_saved(operator_client, changes, field):
    answer = create(operator_client, **changes)
    assert answer.status_code == 400, answer.json()
    error = answer.json()["error"]
    assert field in json.dumps(error["details"]) or error["message"].startswith(field)
    assert AlertRule.objects.count() == 0


def test_an_unknown_cluster_is_404(operator_client):
    assert create(operator_client, cluster="nope").status_code == 404


def test_patch_changes_only_what_is_given_and_delete_removes_it(operator_client):
    rule = create(operator_client).json()
    url = f"/api/v1/alerts/rules/{rule['id']}"
    changed = operator_client.patch(url, {"enabled": False, "repeat_interval_s": 0}, format="json")
    assert changed.status_code == 200, changed.json()
    assert changed.json()["enabled"] is False and changed.json()["statuses"] == ["ERR", "STOP"]
    assert operator_client.patch(url, {"statuses": []}, format="json").status_code == 400
    assert operator_client.delete(url).status_code == 204
    assert operator_client.get(url).status_code == 404


ERR = {"status": "ERR", "max_lag_seconds": 90.0, "retention_risk": "none", "total_lag": 5}
OK = {"status": "OK", "max_lag_seconds": 0.0, "retention_risk": "none", "total_lag": 0}


def test_a_pass_fires_once_then_resolves_and_queues_each_delivery(
    operator_client, django_capture_on_commit_callbacks
):
    rule_id = create(operator_client).json()["id"]
    with django_capture_on_commit_callbacks() as queued:
        first = listener.on_pass("local", {"billing-1": ERR, "orders": ERR}, time.time())
    assert len(first) == 1 and len(queued) == 1  # one delivery task, after the commit
    event = AlertEvent.objects.get(pk=first[0])
    assert (event.kind, event.group_id, event.reason) == ("firing", "billing-1", "status ERR")
    assert event.snapshot["total_lag"] == 5 and event.state == "pending"
    assert AlertState.objects.get().notified
    assert listener.on_pass("local", {"billing-1": ERR}, time.time()) == []  # still firing
    rule = operator_client.get(f"/api/v1/alerts/rules/{rule_id}").json()
    assert rule["firing_groups"] == ["billing-1"]
    resolved = listener.on_pass("local", {"billing-1": OK}, time.time())
    assert AlertEvent.objects.get(pk=resolved[0]).kind == "resolved"
    assert AlertState.objects.count() == 0
    assert listener.on_pass("other", {"billing-1": ERR}, time.time()) == []  # other cluster


class Receiver(BaseHTTPRequestHandler):
    bodies: list = []
    status = 200

    def do_POST(self):  # noqa: N802
        size = int(self.headers["Content-Length"])
        Receiver.bodies.append(json.loads(self.rfile.read(size)))
        self.send_response(Receiver.status)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def receiver():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    Receiver.bodies, Receiver.status = [], 200
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hook"
    server.shutdown()


def test_webhook_delivery_posts_the_alert_and_records_each_attempt(
    operator_client, receiver, settings
):
    settings.CONSOLE_PUBLIC_URL = "https://console.example.com/"
    create(operator_client, channel="webhook", target=receiver)
    event = AlertEvent.objects.get(pk=listener.on_pass("local", {"billing-1": ERR}, time.time())[0])
    assert delivery.attempt(event, event.rule)
    alert = Receiver.bodies[0]["alert"]
    assert alert["group_id"] == "billing-1" and alert["kind"] == "firing"
    assert alert["url"] == "https://console.example.com/clusters/local/groups/billing-1"
    Receiver.status = 503
    assert not delivery.attempt(event, event.rule)
    answers = [(a.ok, a.answer) for a in event.attempts.all()]
    assert answers == [(True, "HTTP 200"), (False, "HTTP 503 Service Unavailable")]


def test_a_dead_receiver_is_a_recorded_failure_not_an_error(operator_client):
    create(operator_client, channel="teams", target="http://127.0.0.1:9/hook")
    event = AlertEvent.objects.get(pk=listener.on_pass("local", {"billing-1": ERR}, time.time())[0])
    assert not delivery.attempt(event, event.rule)
    attempt = event.attempts.get()
    assert not attempt.ok and "refused" in attempt.answer.lower()


def test_email_alerts_go_through_the_mail_backend(operator_client, mailoutbox):
    rule = create(operator_client, channel="email", target="oncall@example.com, b@example.com")
    assert rule.json()["target"] == "oncall@example.com, b@example.com"
    event = AlertEvent.objects.get(pk=listener.on_pass("local", {"billing-1": ERR}, time.time())[0])
    assert delivery.attempt(event, event.rule)
    (mail,) = mailoutbox
    assert mail.to == ["oncall@example.com", "b@example.com"]
    assert mail.subject == "[FIRING] billing stopped: group billing-1 on local"
    assert "status ERR" in mail.body
    assert event.attempts.get().answer == "sent to 2"


def test_the_test_button_sends_one_alert_now(operator_client, receiver):
    rule = create(operator_client, channel="webhook", target=receiver).json()
    answer = operator_client.post(f"/api/v1/alerts/rules/{rule['id']}/test")
    assert answer.status_code == 200, answer.json()
    sent = answer.json()
    assert sent["kind"] == "test" and sent["state"] == "delivered"
    assert sent["attempts"][0]["answer"] == "HTTP 200"
    assert Receiver.bodies[0]["alert"]["kind"] == "test"
    events = operator_client.get(f"/api/v1/alerts/events?rule={rule['id']}").json()
    assert [e["id"] for e in events] == [sent["id"]]

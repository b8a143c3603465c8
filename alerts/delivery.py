"""Sending one alert to its rule's channel, once; every try is recorded (`DeliveryAttempt`).
Retries with backoff are the Celery task's (alerts.tasks)."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.utils import timezone

from alerts import messages
from alerts.models import AlertEvent, AlertRule, DeliveryAttempt

ANSWER_CHARS = 500


def alert_object(event: AlertEvent) -> dict[str, Any]:
    """The alert as the webhook body and the API show it."""
    base = settings.CONSOLE_PUBLIC_URL.rstrip("/")
    url = f"{base}/clusters/{event.cluster}/groups/{event.group_id}" if base else None
    return {
        "id": event.pk,
        "kind": event.kind,
        "rule_id": event.rule_id,
        "rule_name": event.rule_name,
        "cluster": event.cluster,
        "group_id": event.group_id,
        "reason": event.reason,
        "snapshot": event.snapshot,
        "at": event.at.isoformat(),
        "url": url,
    }


def send(channel: str, target: str, alert: dict[str, Any]) -> str:
    """Deliver; returns the receiver's answer in words, raises OSError when it failed."""
    if channel == "email":
        subject, text = messages.email(alert)
        recipients = [a.strip() for a in target.split(",") if a.strip()]
        sent = send_mail(subject, text, settings.ALERT_EMAIL_FROM, recipients)
        return f"sent to {len(recipients)}" if sent else "the mail backend sent nothing"
    data = json.dumps(messages.body(channel, alert)).encode()
    request = urllib.request.Request(
        target, data=data, method="POST", headers={"Content-Type": "application/json"}
    )
    timeout = settings.ALERT_HTTP_TIMEOUT_SECONDS
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            return f"HTTP {response.status}"
    except urllib.error.HTTPError as exc:
        raise OSError(f"HTTP {exc.code} {exc.reason}") from None
    except urllib.error.URLError as exc:
        raise OSError(str(exc.reason)) from None


def attempt(event: AlertEvent, rule: AlertRule | None) -> bool:
    """One try at delivering `event`; records it and the event's state; True when delivered."""
    started = time.monotonic()
    if rule is None:
        ok, answer = False, "the rule was deleted"
    else:
        try:
            ok, answer = True, send(rule.channel, rule.target, alert_object(event))
        except (OSError, TimeoutError) as exc:  # refused, reset, timed out, HTTP error
            ok, answer = False, str(exc) or type(exc).__name__
    DeliveryAttempt.objects.create(
        event=event,
        at=timezone.now(),
        ok=ok,
        answer=answer[:ANSWER_CHARS],
        duration_ms=round((time.monotonic() - started) * 1000, 1),
    )
    return ok

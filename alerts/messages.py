"""What a notification says, per channel. Pure.

- `webhook`: the console's own JSON (documented in docs/alerts.md), for any receiver;
- `slack`: Slack's incoming-webhook body (`text`, with mrkdwn);
- `teams`: a Microsoft Teams incoming-webhook MessageCard (`summary`, `title`, `text`,
  `themeColor`), which Teams' connectors and Power Automate's "post to a channel" accept;
- `email`: a subject line and a plain-text body.
"""

from __future__ import annotations

from typing import Any

CHANNELS = ("webhook", "slack", "teams", "email")
_VERB = {"firing": "FIRING", "repeat": "STILL FIRING", "resolved": "RESOLVED"}
_COLOR = {"firing": "D13438", "repeat": "D13438", "resolved": "2EB886"}


def headline(alert: dict[str, Any]) -> str:
    return (
        f"[{_VERB.get(alert['kind'], alert['kind'])}] {alert['rule_name']}: group "
        f"{alert['group_id']} on {alert['cluster']}"
    )


def _figures(alert: dict[str, Any]) -> str:
    snap = alert.get("snapshot") or {}
    parts = [f"{key} {snap[key]}" for key in ("status", "total_lag") if snap.get(key) is not None]
    if snap.get("max_lag_seconds") is not None:
        parts.append(f"lag seconds {snap['max_lag_seconds']:.0f}")
    if snap.get("retention_risk") not in (None, "none"):
        parts.append(f"retention risk {snap['retention_risk']}")
    return ", ".join(parts)


def body(channel: str, alert: dict[str, Any]) -> dict[str, Any]:
    """The JSON body of a webhook-like channel for `alert` (the console's alert object)."""
    text = f"{alert['reason']}" + (f" ({_figures(alert)})" if _figures(alert) else "")
    link = alert.get("url")
    if channel == "slack":
        more = f"\n<{link}|Open the group>" if link else ""
        return {"text": f"*{headline(alert)}*\n{text}{more}"}
    if channel == "teams":
        card: dict[str, Any] = {
            "@type": "MessageCard",
            "@context": "https://schema.org/extensions",
            "summary": headline(alert),
            "themeColor": _COLOR.get(alert["kind"], "808080"),
            "title": headline(alert),
            "text": text,
        }
        if link:
            card["potentialAction"] = [
                {
                    "@type": "OpenUri",
                    "name": "Open the group",
                    "targets": [{"os": "default", "uri": link}],
                }
            ]
        return card
    return {"alert": alert}


def email(alert: dict[str, Any]) -> tuple[str, str]:
    """Subject and plain-text body of the alert's email."""
    lines = [headline(alert), "", alert["reason"]]
    if _figures(alert):
        lines += ["", _figures(alert)]
    if alert.get("url"):
        lines += ["", alert["url"]]
    lines += ["", f"Sent at {alert['at']} by Kafka Console (rule {alert['rule_id']})."]
    return headline(alert), "\n".join(lines)

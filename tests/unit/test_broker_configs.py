"""Broker config changes refused as kafka-configs.sh refuses them (and a delete of a key not set
at that level, which Kafka 4.3's tool ignores silently), before anything is sent."""

from __future__ import annotations

import pytest

from console.errors import BadInput
from console.kafka.types import ConfigValue
from topics.broker_configs import REDACTED, check_change, redacted


def _value(value: str | None, source: str, read_only: bool = False) -> ConfigValue:
    return ConfigValue(value, source, source == "DEFAULT_CONFIG", read_only, False)


CURRENT = {
    "node.id": _value("1", "STATIC_BROKER_CONFIG", read_only=True),
    "log.cleaner.threads": _value("2", "DYNAMIC_BROKER_CONFIG"),
    "log.cleaner.backoff.ms": _value("15000", "DEFAULT_CONFIG"),
    "message.max.bytes": _value("2000000", "DYNAMIC_DEFAULT_BROKER_CONFIG"),
}


@pytest.mark.parametrize(
    "broker, set_configs, delete, field, words",
    [
        (1, {}, [], "set", "at least one"),
        (1, {"log.cleaner.threads": "3"}, ["log.cleaner.threads"], "delete", "both"),
        (1, {"node.id": "7"}, [], "set", "node.id cannot be changed while the broker runs"),
        (1, {}, ["log.cleaner.backoff.ms"], "delete", "not set dynamically on broker 1"),
        (1, {}, ["message.max.bytes"], "delete", "not set dynamically on broker 1"),
        (None, {}, ["log.cleaner.threads"], "delete", "not set dynamically cluster-wide"),
        (1, {}, ["no.such.key"], "delete", "no.such.key not set"),
    ],
    ids=["empty", "both", "read-only", "default", "set-elsewhere", "per-broker", "unknown"],
)
def test_refusals_name_the_field(broker, set_configs, delete, field, words):
    with pytest.raises(BadInput) as refused:
        check_change(CURRENT, broker, set_configs, delete)
    assert refused.value.field == field
    assert words in refused.value.message


@pytest.mark.parametrize(
    "broker, set_configs, delete",
    [
        (1, {"log.cleaner.backoff.ms": "20000"}, ["log.cleaner.threads"]),
        (None, {"log.cleaner.threads": "3"}, ["message.max.bytes"]),
        (1, {"some.plugin.setting": "x"}, []),  # unknown keys: Kafka's validation decides
    ],
    ids=["per-broker", "cluster-wide", "left-to-kafka"],
)
def test_accepted_changes(broker, set_configs, delete):
    check_change(CURRENT, broker, set_configs, delete)


def test_secret_values_never_reach_the_audit_log():
    body = {
        "set": {
            "listener.name.secure.ssl.key.password": "hunter2",
            "sasl.jaas.config": "x",
            "ssl.keystore.key": "k",
            "log.cleaner.threads": "3",
        },
        "delete": [],
    }
    assert redacted(body)["set"] == {
        "listener.name.secure.ssl.key.password": REDACTED,
        "sasl.jaas.config": REDACTED,
        "ssl.keystore.key": REDACTED,
        "log.cleaner.threads": "3",
    }
    assert redacted(["not", "a", "dict"]) == ["not", "a", "dict"]

"""Dynamic broker configs, set and deleted with kafka-configs.sh --entity-type brokers's
semantics: per broker (`--entity-name N`) or cluster-wide (`--entity-default`).

- `set` adds or replaces a dynamic value at that level (IncrementalAlterConfigs SET);
- `delete` removes a dynamic value set at that level, and only one that is set there: a key
  the entity does not set is refused, naming it, as kafka-configs.sh 4.0-4.2 refused it
  ("Invalid config(s)"). Kafka 4.3's tool made that delete a silent no-op (KAFKA-20506);
  the console keeps the refusal, so a misspelt key is caught instead of reported done;
- a key Kafka cannot change while the broker runs (DescribeConfigs marks it read-only, it
  lives in server.properties) is refused before anything is sent;
- everything else is validated by Kafka first (validate_only), then applied, so a request
  that Kafka refuses in part changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from console import kafka
from console.clusters import ClusterConfig
from console.errors import BadInput, NotFound
from console.metadata import cache
from topics.changes import await_visible
from topics.listing import config_entries

# Values never written to the audit log (Kafka's PASSWORD-type configs are named so).
_SECRET = re.compile(r"password|secret|jaas|credential|\.key$", re.IGNORECASE)
REDACTED = "(redacted)"


def redacted(body: Any) -> Any:
    """The request body with the values of secret-looking keys replaced, for the audit log."""
    if not isinstance(body, dict) or not isinstance(body.get("set"), dict):
        return body
    return {
        **body,
        "set": {k: REDACTED if _SECRET.search(str(k)) else v for k, v in body["set"].items()},
    }


def _entity_configs(client: kafka.ClusterClient, broker_id: int | None) -> dict[str, Any]:
    if broker_id is None:
        return client.describe_broker_defaults()
    return client.describe_broker_configs(broker_id)


def _dynamic_source(broker_id: int | None) -> str:
    return "DYNAMIC_DEFAULT_BROKER_CONFIG" if broker_id is None else "DYNAMIC_BROKER_CONFIG"


def check_change(
    current: Mapping[str, kafka.ConfigValue],
    broker_id: int | None,
    set_configs: Mapping[str, str],
    delete: list[str],
) -> None:
    """Refuse, naming the field, what kafka-configs.sh would refuse (pure)."""
    if not set_configs and not delete:
        raise BadInput("set", "set: give at least one config to set or delete.")
    both = sorted(set(set_configs) & set(delete))
    if both:
        raise BadInput("delete", f"delete: {', '.join(both)} cannot be both set and deleted.")
    fixed = sorted(k for k in set_configs if k in current and current[k].read_only)
    if fixed:
        raise BadInput(
            "set",
            f"set: {', '.join(fixed)} cannot be changed while the broker runs (read-only: "
            "set it in server.properties and restart the broker).",
        )
    source = _dynamic_source(broker_id)
    unset = sorted(k for k in delete if k not in current or current[k].source != source)
    if unset:
        level = "cluster-wide" if broker_id is None else f"on broker {broker_id}"
        raise BadInput(
            "delete",
            f"delete: {', '.join(unset)} not set dynamically {level}: nothing to delete "
            "(kafka-configs.sh refuses it the same way).",
        )


def check_request(
    cfg: ClusterConfig,
    broker_id: int | None,
    set_configs: Mapping[str, str],
    delete: list[str],
) -> dict[str, kafka.ConfigValue]:
    """Refuse what kafka-configs.sh would refuse, against the configs as they are now (404 for
    a broker that is not live); answers the entity's configs."""
    if broker_id is not None and broker_id not in cache.snapshot(cfg).live_broker_ids:
        raise NotFound(
            f"Broker {broker_id} is not a live broker of cluster {cfg.name!r}.",
            code="broker_not_found",
        )
    client = kafka.for_cluster(cfg)
    # Per broker, the broker's own answer says what is read-only; the default entity lists
    # only what is set there, so any live broker's answer says which keys are read-only.
    current = _entity_configs(client, broker_id)
    known = (
        current
        if broker_id is not None
        else client.describe_broker_configs(min(cache.snapshot(cfg).live_broker_ids))
    )
    check_change({**known, **current}, broker_id, set_configs, delete)
    return current


def level_state(
    current: Mapping[str, kafka.ConfigValue], broker_id: int | None, keys: list[str]
) -> dict[str, str | None]:
    """Each key's value set at the entity's own level (None: not set there)."""
    source = _dynamic_source(broker_id)
    return {
        k: current[k].value if k in current and current[k].source == source else None
        for k in sorted(keys)
    }


def secret_keys(keys: list[str]) -> list[str]:
    return sorted(k for k in keys if _SECRET.search(k))


def alter_broker_configs(
    cfg: ClusterConfig,
    broker_id: int | None,
    set_configs: Mapping[str, str],
    delete: list[str],
) -> list[dict[str, Any]]:
    """Apply the change at the broker's (or the cluster-wide) level; its configs after it."""
    client = kafka.for_cluster(cfg)
    check_request(cfg, broker_id, set_configs, delete)
    for validate_only in (True, False):
        try:
            client.alter_broker_configs(broker_id, set_configs, delete, validate_only)
        except kafka.KafkaCallFailed as exc:
            if exc.kafka_error in ("INVALID_CONFIG", "INVALID_REQUEST", "POLICY_VIOLATION"):
                field = "set" if set_configs else "delete"
                raise BadInput(field, f"{field}: {exc.message}") from exc
            raise
    source = _dynamic_source(broker_id)

    def applied(values: dict[str, kafka.ConfigValue]) -> bool:
        # A sensitive value reads back as None: its source says it is set.
        return all(
            k in values
            and values[k].source == source
            and (values[k].sensitive or values[k].value == str(v))
            for k, v in set_configs.items()
        ) and all(k not in values or values[k].source != source for k in delete)

    after = await_visible(lambda: _entity_configs(client, broker_id), applied)
    return config_entries(after or {})


def broker_defaults(cfg: ClusterConfig) -> list[dict[str, Any]]:
    """The cluster-wide dynamic broker configs (kafka-configs.sh --entity-default)."""
    return config_entries(kafka.for_cluster(cfg).describe_broker_defaults())

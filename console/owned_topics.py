"""Topics the console itself writes (the lag export, and any an app adds): jobs may read them,
but nothing the console runs for a user may write into them (a replay once wrote a foreign
record into the lag history). Apps register what they own in their `ready()`."""

from __future__ import annotations

from collections.abc import Callable, Iterable

_providers: list[Callable[[], Iterable[str]]] = []

# Kafka's own topics, also when a cluster does not mark them internal (KRaft's metadata log is
# not a topic a client sees; the name is refused all the same).
KAFKA_INTERNAL_TOPICS = frozenset(
    {"__consumer_offsets", "__transaction_state", "__cluster_metadata", "__share_group_state"}
)


def register(provider: Callable[[], Iterable[str]]) -> None:
    """`provider` names topics an app writes; read at each check (settings may change)."""
    _providers.append(provider)


def owned_topics() -> frozenset[str]:
    return frozenset(name for provider in _providers for name in provider() if name)

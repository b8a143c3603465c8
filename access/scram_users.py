"""SCRAM users as `kafka-configs.sh --entity-type users` manages them: list, create or rotate a
password, delete a mechanism's credential.

A password goes to the Kafka client, which salts and hashes it (only the salted password
reaches Kafka); it is never stored, logged, audited or answered. Checked as the CLI and the
controller check it, before anything is sent.
"""

from __future__ import annotations

from typing import Any

from console import kafka
from console.clusters import ClusterConfig
from console.errors import BadInput, NotFound
from console.kafka import KafkaCallFailed
from console.settle import read_until

MECHANISMS: tuple[str, ...] = ("SCRAM-SHA-256", "SCRAM-SHA-512")
# The client refuses fewer than 4096 iterations, the controller more than 16384.
MIN_ITERATIONS, MAX_ITERATIONS = 4096, 16384


def mechanism(value: object, field: str = "mechanism") -> str:
    """Exactly one of MECHANISMS (case-sensitive, as kafka-configs.sh)."""
    if value not in MECHANISMS:
        raise BadInput(field, f"{field} must be one of {', '.join(MECHANISMS)}; got {value!r}.")
    return str(value)


def list_users(cfg: ClusterConfig) -> list[dict[str, Any]]:
    """Each user with its credentials: mechanism and iterations (nothing else exists to show)."""
    users: dict[str, list[dict[str, Any]]] = {}
    for cred in kafka.for_cluster(cfg).describe_scram_credentials():
        users.setdefault(cred.user, []).append(
            {"mechanism": cred.mechanism, "iterations": cred.iterations}
        )
    return [{"user": user, "credentials": creds} for user, creds in sorted(users.items())]


def _user(cfg: ClusterConfig, user: str) -> dict[str, Any]:
    for row in list_users(cfg):
        if row["user"] == user:
            return row
    return {"user": user, "credentials": []}


def _held(row: dict[str, Any]) -> dict[str, int]:
    return {c["mechanism"]: c["iterations"] for c in row["credentials"]}


def upsert(cfg: ClusterConfig, user: str, body: dict[str, Any]) -> dict[str, Any]:
    """Create the credential, or rotate its password; the user as Kafka then lists it."""
    kind, iterations = body["mechanism"], body["iterations"]
    kafka.for_cluster(cfg).upsert_scram_credential(user, kind, body["password"], iterations)
    # A rotation with the same iterations cannot be told from the old one by a listing.
    return read_until(lambda: _user(cfg, user), lambda row: _held(row).get(kind) == iterations)


def delete(cfg: ClusterConfig, user: str, kind: str) -> dict[str, Any]:
    """Delete one mechanism's credential; 404 when the user has none of that mechanism."""
    if kind not in _held(_user(cfg, user)):
        raise NotFound(f"User {user} has no {kind} credential on {cfg.name}.")
    try:
        kafka.for_cluster(cfg).delete_scram_credential(user, kind)
    except KafkaCallFailed as exc:  # deleted by someone else in between
        if exc.details.get("kafka_error") == "RESOURCE_NOT_FOUND":
            raise NotFound(f"User {user} has no {kind} credential on {cfg.name}.") from exc
        raise
    return read_until(lambda: _user(cfg, user), lambda row: kind not in _held(row))

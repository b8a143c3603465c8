"""Kafka's own rules for topic names (org.apache.kafka.common.internals.Topic)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from console.errors import BadInput

MAX_NAME_LENGTH = 249
_LEGAL = re.compile(r"[a-zA-Z0-9._-]+")


def check_topic_name(name: str, existing: Iterable[str] = ()) -> None:
    """Raise BadInput naming the problem, as Kafka would refuse the name."""
    if not name:
        raise BadInput("name", "name: a topic name cannot be empty.")
    if name in (".", ".."):
        raise BadInput("name", "name: a topic name cannot be '.' or '..'.")
    if len(name) > MAX_NAME_LENGTH:
        raise BadInput(
            "name", f"name: a topic name can be at most {MAX_NAME_LENGTH} characters long."
        )
    if not _LEGAL.fullmatch(name):  # fullmatch: `$` would let a trailing newline pass
        raise BadInput(
            "name",
            f"name: {name!r} has characters Kafka does not allow; use only ASCII letters, "
            "digits, '.', '_' and '-'.",
        )
    # Kafka metric names replace '.' with '_', so such names would collide.
    if "." in name or "_" in name:
        unified = name.replace(".", "_")
        for other in existing:
            if other != name and other.replace(".", "_") == unified:
                raise BadInput(
                    "name",
                    f"name: {name!r} collides with existing topic {other!r} "
                    "('.' and '_' are the same in metric names).",
                )

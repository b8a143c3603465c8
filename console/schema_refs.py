"""A registry schema's references (the other subjects it imports: Avro named types, .proto
files), followed to the end: every schema it needs, directly or through another, each once,
and each after the schemas it needs itself. Pure (the registry calls are given), so the web
process's registry client and a Spark job's REST reader follow references alike."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

# More imports than any real schema has: a bound on what one record's decoding may fetch.
MAX_REFERENCES = 100


@dataclass(frozen=True)
class ReferencedSchema:
    name: str  # as the importing schema names it: an Avro full name, a .proto file path
    subject: str
    version: int
    type: str  # AVRO, PROTOBUF or JSON
    text: str


class ReferenceProblem(Exception):
    """The references cannot be followed; the message says why (shown with the record)."""


Reference = tuple[str, str, int]  # (name, subject, version), as the registry lists them
# (subject, version) -> (type, text, its own references)
FetchVersion = Callable[[str, int], tuple[str, str, list[Reference]]]


def resolve(references: Iterable[Reference], fetch: FetchVersion) -> tuple[ReferencedSchema, ...]:
    """Every schema `references` import, in the order to load them (dependencies first)."""
    done: dict[tuple[str, int], ReferencedSchema] = {}
    fetched = 0

    def visit(name: str, subject: str, version: int, path: tuple[tuple[str, int], ...]) -> None:
        key = (subject, version)
        if key in path:
            chain = " -> ".join(f"{s} v{v}" for s, v in (*path, key))
            raise ReferenceProblem(f"schema references go round in a circle: {chain}")
        if key in done:
            return
        nonlocal fetched
        if fetched >= MAX_REFERENCES:  # counted as fetched, so a deep chain stops too
            raise ReferenceProblem(f"more than {MAX_REFERENCES} referenced schemas")
        fetched += 1
        kind, text, own = fetch(subject, version)
        for ref in own:
            visit(*ref, (*path, key))
        done[key] = ReferencedSchema(name, subject, version, kind.upper(), text)

    for ref in references:
        visit(*ref, ())
    return tuple(done.values())

"""Malformed variants of a valid JSON body, for the "a change can never widen" tests: every
key misspelt or dropped, every value replaced by one of another JSON type or a look-alike,
and an extra key in every object, at every depth."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

# Values that a lenient reader could take for something else: booleans spelt as text or
# numbers, numbers spelt as text or floats, "all"-like empties.
LOOK_ALIKES: list[Any] = [
    None, True, False, 0, 1, -1, 1.0, 50.0, "", "no", "0", "false", "true", "50", "all", "*",
    [], {}, [0], {"x": 1},
]  # fmt: skip


def _misspellings(key: str) -> list[str]:
    return sorted({key[:-1], key + "s", key.upper(), f" {key}", key.rstrip("s")} - {key, ""})


def _paths(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, (*path, index))


def _at(node: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        node = node[part]
    return node


def variants(body: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(what was changed, the changed body), each differing from `body` in one place."""
    for path in _paths(body):
        holder = _at(body, path)
        if isinstance(holder, dict):
            extra = copy.deepcopy(body)
            _at(extra, path)["surplus"] = True
            yield f"{path}+surplus", extra
            for key in holder:
                dropped = copy.deepcopy(body)
                del _at(dropped, path)[key]
                yield f"{path}-{key}", dropped
                for wrong in _misspellings(key):
                    renamed = copy.deepcopy(body)
                    target = _at(renamed, path)
                    target[wrong] = target.pop(key)
                    yield f"{path}:{key}->{wrong!r}", renamed
        if path:
            for value in LOOK_ALIKES:
                if value == holder and type(value) is type(holder):
                    continue
                replaced = copy.deepcopy(body)
                _at(replaced, path[:-1])[path[-1]] = copy.deepcopy(value)
                yield f"{path}={value!r}", replaced

"""The changes a protected cluster holds for approval, each registered by the app it belongs
to (its `approval_actions.py`, loaded when the app is ready): the role that may approve it,
and how to carry out a stored plan, refusing (ConsoleError, 409) when what the plan was made
on has moved."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from console.clusters import ClusterConfig


@dataclass(frozen=True)
class Action:
    name: str  # as the audit log names the change, e.g. offsets.reset.execute
    role: str  # needed on the cluster to ask for it and to approve it
    # (the cluster, the plan, the approver) -> the change's answer
    run: Callable[[ClusterConfig, Mapping[str, Any], Any], Any]


ACTIONS: dict[str, Action] = {}


def register(action: Action) -> None:
    ACTIONS[action.name] = action


def get(name: str) -> Action:
    return ACTIONS[name]

"""How the lag samplers share the clusters' leases: pure decisions, no Redis, no Kafka.

Each sampler process holds some clusters' leases; the live ones publish how many they hold
(`store.publish_sampler`). Without a rule, the first process to start would take every
cluster and the others would only stand by: one process doing all the work, and all of it
moving at once when it dies. With these two rules, among the processes that serve a cluster
the held counts differ by at most one once settled:

- a free lease goes to a process holding no more than any other live process that serves the
  cluster (ties: whoever asks first; the lease itself is taken atomically);
- a process gives one lease up when another live process serving that cluster holds at
  least two fewer (one fewer would only move the imbalance over: hysteresis).
"""

from __future__ import annotations

from collections.abc import Collection


def should_take(my_held: int, others_held: Collection[int]) -> bool:
    """Whether to take a free lease, holding `my_held` leases, when the other live samplers
    that serve the cluster hold `others_held` (none: nobody else can take it)."""
    return not others_held or my_held <= min(others_held)


def should_release(my_held: int, others_held: Collection[int]) -> bool:
    """Whether to give a held lease up so that another live sampler serving the cluster, one
    holding at least two fewer, takes it."""
    return bool(others_held) and min(others_held) <= my_held - 2

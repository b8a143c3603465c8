"""Fixtures for the unit tier only."""

from __future__ import annotations

import pytest


@pytest.fixture
def no_kafka(monkeypatch):
    """Kafka unplugged: a request that gets as far as asking Kafka (a client, or the metadata
    snapshot) fails loudly instead of waiting for a timeout. For tests of input refused before
    any Kafka call."""
    from console import kafka
    from console.metadata import cache

    def unplugged(*args, **kwargs):
        raise AssertionError("bad input reached Kafka")

    monkeypatch.setattr(kafka, "for_cluster", unplugged)
    monkeypatch.setattr(cache, "snapshot", unplugged)

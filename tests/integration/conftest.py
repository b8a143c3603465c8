import pytest

from tests.stack import status


@pytest.fixture(scope="session")
def stack():
    """The running dev stack; the test command starts it (`manage.py devstack up`)."""
    info = status()
    down = [b["id"] for b in info["brokers"] if not b["running"]]
    assert not down, f"brokers {down} are not running: run `python manage.py devstack up` first"
    return info


@pytest.fixture(scope="session")
def demo_topics(stack):
    """The demo topics (my-failsafe-topic: 13 partitions, RF 3, and the others)."""
    from console import kafka
    from console.demo.traffic import DEMO_TOPICS, ensure_topics

    ensure_topics(stack["bootstrap_servers"])
    # A committed offset makes Kafka create __consumer_offsets, so internal topics exist.
    kafka.commit_offsets(stack["bootstrap_servers"], "it-bootstrap", {("truck-gps", 0): 0})
    return {name: (partitions, rf) for name, partitions, rf, _ in DEMO_TOPICS}

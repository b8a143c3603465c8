import pytest

from tests.stack import status


@pytest.fixture(scope="session")
def stack():
    """The running dev stack; the test command starts it (`manage.py devstack up`)."""
    info = status()
    down = [b["id"] for b in info["brokers"] if not b["running"]]
    assert not down, f"brokers {down} are not running: run `python manage.py devstack up` first"
    return info

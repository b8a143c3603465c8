from celery import shared_task


@shared_task
def ping() -> str:
    """A round trip through Redis and a worker: used by health checks and the test suite."""
    return "pong"

"""The Django project: settings, root URLs, ASGI and WebSocket routing, the Celery app, the
web server entry point. It wires the core (`console`) and the apps together; the core never
imports the apps, and each app lists its own routes in its `routes.py`."""

# Load the Celery app with Django so @shared_task binds to it.
from project.celery import app as celery_app

__all__ = ["celery_app"]

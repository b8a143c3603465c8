"""WebSocket routes of the sparkjobs app (gathered in console/ws_routing.py)."""

from django.urls import re_path

from sparkjobs.consumers import JobConsumer

websocket_urlpatterns: list = [
    # Ids up to 18 digits: a longer one cannot name a job (and would overflow the lookup).
    re_path(r"^ws/spark/jobs/(?P<job_id>[0-9]{1,18})$", JobConsumer.as_asgi()),
]

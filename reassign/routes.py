"""Every route the reassign app serves, mounted by the project (project/urls.py, ws_routing.py)."""

from django.urls import re_path

from reassign.api.urls import urlpatterns as api_urlpatterns
from reassign.consumers import ReassignmentConsumer

__all__ = ["api_urlpatterns", "urlpatterns", "websocket_urlpatterns"]

# Under /api/v1/: api_urlpatterns (plans, executions, progress, throttle, cancel).
urlpatterns: list = []
websocket_urlpatterns: list = [
    # Ids up to 18 digits: a longer one cannot name a reassignment.
    re_path(
        r"^ws/clusters/(?P<cluster>[^/]+)/reassignments/(?P<reassignment_id>[0-9]{1,18})$",
        ReassignmentConsumer.as_asgi(),
    ),
]

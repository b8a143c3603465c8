"""Every route the groups app serves, mounted by the project (project/urls.py, ws_routing.py)."""

from django.urls import path, re_path

from groups.api.urls import urlpatterns as api_urlpatterns
from groups.consumers import LagConsumer
from groups.lag.metrics_view import metrics_view

__all__ = ["api_urlpatterns", "urlpatterns", "websocket_urlpatterns"]

# Under /api/v1/: api_urlpatterns (groups, lag, offsets, resets).
urlpatterns: list = [
    # Prometheus scrape: its own guard (token or network), no session (groups/lag/metrics_view.py).
    path("metrics", metrics_view, name="metrics"),
]
websocket_urlpatterns: list = [
    re_path(r"^ws/clusters/(?P<cluster>[^/]+)/lag$", LagConsumer.as_asgi()),
]

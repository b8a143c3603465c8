"""Every route the messages app serves, mounted by the project (project/urls.py,
ws_routing.py)."""

from messages.api.urls import urlpatterns as api_urlpatterns

__all__ = ["api_urlpatterns", "urlpatterns", "websocket_urlpatterns"]

# Under /api/v1/: api_urlpatterns (a topic's records).
urlpatterns: list = []
websocket_urlpatterns: list = []

"""Every route the messages app serves, mounted by the project (project/urls.py,
ws_routing.py)."""

from django.urls import re_path

from messages.api.urls import urlpatterns as api_urlpatterns
from messages.consumers import MessagesConsumer

__all__ = ["api_urlpatterns", "urlpatterns", "websocket_urlpatterns"]

# Under /api/v1/: api_urlpatterns (a topic's records, producing one).
urlpatterns: list = []
websocket_urlpatterns: list = [
    re_path(
        r"^ws/clusters/(?P<cluster>[^/]+)/topics/(?P<topic>[^/]+)/messages$",
        MessagesConsumer.as_asgi(),
    ),
]

"""All WebSocket routes, gathered from the apps; anything else is closed with 4404."""

from channels.generic.websocket import WebsocketConsumer
from django.urls import re_path

from groups.lag_socket import LagConsumer
from topics.metadata_socket import MetadataConsumer


class UnknownPath(WebsocketConsumer):
    """A socket to a path no app serves: accepted only to be closed with a clear code."""

    def connect(self) -> None:
        self.accept()
        self.close(code=4404)


websocket_urlpatterns: list = [
    # App routes go before the catch-all.
    re_path(r"^ws/clusters/(?P<cluster>[^/]+)/lag$", LagConsumer.as_asgi()),
    re_path(r"^ws/clusters/(?P<cluster>[^/]+)/metadata$", MetadataConsumer.as_asgi()),
    re_path(r"^.*$", UnknownPath.as_asgi()),
]

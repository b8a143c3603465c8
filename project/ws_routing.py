"""All WebSocket routes, gathered from the apps; anything else is closed with 4404."""

from channels.generic.websocket import WebsocketConsumer
from django.urls import re_path

from project.routes import gathered


class UnknownPath(WebsocketConsumer):
    """A socket to a path no app serves: accepted only to be closed with a clear code."""

    # No channel layer: the socket receives nothing from it, and a Redis outage (which the
    # layer reports to every channel as `layer.down`) must not turn the 4404 into a crash.
    channel_layer_alias = "none"

    def connect(self) -> None:
        self.accept()
        self.close(code=4404)


websocket_urlpatterns: list = [
    # App routes go before the catch-all.
    *gathered("websocket_urlpatterns"),
    re_path(r"^.*$", UnknownPath.as_asgi()),
]

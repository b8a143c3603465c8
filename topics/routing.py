"""WebSocket routes of the topics app (gathered in console/ws_routing.py)."""

from django.urls import re_path

from topics.consumers import MetadataConsumer

websocket_urlpatterns: list = [
    re_path(r"^ws/clusters/(?P<cluster>[^/]+)/metadata$", MetadataConsumer.as_asgi()),
]

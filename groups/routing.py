"""WebSocket routes of the groups app (gathered in console/ws_routing.py)."""

from django.urls import re_path

from groups.consumers import LagConsumer

websocket_urlpatterns: list = [
    re_path(r"^ws/clusters/(?P<cluster>[^/]+)/lag$", LagConsumer.as_asgi()),
]

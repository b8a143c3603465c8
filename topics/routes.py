"""Every route the topics app serves, mounted by the project (project/urls.py, ws_routing.py)."""

from django.urls import re_path

from topics.api.urls import urlpatterns as api_urlpatterns
from topics.consumers import MetadataConsumer

__all__ = ["api_urlpatterns", "urlpatterns", "websocket_urlpatterns"]

# Under /api/v1/: api_urlpatterns (clusters, brokers, topics, elections).
urlpatterns: list = []
websocket_urlpatterns: list = [
    re_path(r"^ws/clusters/(?P<cluster>[^/]+)/metadata$", MetadataConsumer.as_asgi()),
]

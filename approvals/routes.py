"""Every route the approvals app serves, mounted by the project (project/urls.py)."""

from django.urls import re_path

from approvals.api.urls import urlpatterns as api_urlpatterns
from approvals.consumers import ApprovalConsumer

__all__ = ["api_urlpatterns", "urlpatterns", "websocket_urlpatterns"]

# Under /api/v1/: api_urlpatterns (approval requests and their decisions).
urlpatterns: list = []
websocket_urlpatterns: list = [
    re_path(r"^ws/clusters/(?P<cluster>[^/]+)/approvals$", ApprovalConsumer.as_asgi()),
]

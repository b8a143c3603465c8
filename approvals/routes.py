"""Every route the approvals app serves, mounted by the project (project/urls.py)."""

from approvals.api.urls import urlpatterns as api_urlpatterns

__all__ = ["api_urlpatterns", "urlpatterns", "websocket_urlpatterns"]

# Under /api/v1/: api_urlpatterns (approval requests and their decisions).
urlpatterns: list = []
websocket_urlpatterns: list = []

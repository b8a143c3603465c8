"""Every route the access app serves, mounted by the project (project/urls.py)."""

from access.api.urls import urlpatterns as api_urlpatterns

__all__ = ["api_urlpatterns", "urlpatterns", "websocket_urlpatterns"]

# Under /api/v1/: api_urlpatterns (ACLs).
urlpatterns: list = []
websocket_urlpatterns: list = []

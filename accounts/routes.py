"""Every route the accounts app serves, mounted by the project (project/urls.py)."""

from accounts.api.urls import urlpatterns as api_urlpatterns

__all__ = ["api_urlpatterns", "urlpatterns", "websocket_urlpatterns"]

# Under /api/v1/: api_urlpatterns (users, their roles and API tokens).
urlpatterns: list = []
websocket_urlpatterns: list = []

"""Every route the alerts app serves, mounted by the project (project/urls.py)."""

from alerts.api.urls import urlpatterns as api_urlpatterns

__all__ = ["api_urlpatterns", "urlpatterns", "websocket_urlpatterns"]

# Under /api/v1/: api_urlpatterns (rules, alerts sent).
urlpatterns: list = []
websocket_urlpatterns: list = []

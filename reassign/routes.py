"""Every route the reassign app serves, mounted by the project (project/urls.py)."""

from reassign.api.urls import urlpatterns as api_urlpatterns

__all__ = ["api_urlpatterns", "urlpatterns", "websocket_urlpatterns"]

# Under /api/v1/: api_urlpatterns (plans; executions to come).
urlpatterns: list = []
websocket_urlpatterns: list = []

"""Every route the predictive-maintenance app serves, mounted by the project (project/urls.py,
ws_routing.py)."""

from maintenance.api.urls import urlpatterns as api_urlpatterns

__all__ = ["api_urlpatterns", "urlpatterns", "websocket_urlpatterns"]

# Under /api/v1/: api_urlpatterns (trained models, the latest predictions). Its pipeline's live
# updates are the platform's job socket, /ws/spark/jobs/{id}.
urlpatterns: list = []
websocket_urlpatterns: list = []

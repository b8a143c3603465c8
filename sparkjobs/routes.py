"""Every route the Spark job platform serves, mounted by the project (project/urls.py,
ws_routing.py)."""

from django.urls import re_path

from sparkjobs.api.urls import urlpatterns as api_urlpatterns
from sparkjobs.consumers import JobConsumer

__all__ = ["api_urlpatterns", "urlpatterns", "websocket_urlpatterns"]

# Under /api/v1/: api_urlpatterns (job types, jobs, cancel, log).
urlpatterns: list = []
websocket_urlpatterns: list = [
    # Ids up to 18 digits: a longer one cannot name a job (and would overflow the lookup).
    re_path(r"^ws/spark/jobs/(?P<job_id>[0-9]{1,18})$", JobConsumer.as_asgi()),
]

"""The core's own API: who am I, the audit log, the OpenAPI schema and its docs (the apps'
routes are in their routes.py)."""

from django.urls import path

from console.api import views
from console.api.schema_views import SchemaDocsView, SchemaView

urlpatterns = [
    path("me", views.MeView.as_view(), name="me"),
    path("audit", views.AuditListView.as_view(), name="audit-list"),
    path("audit/export", views.AuditExportView.as_view(), name="audit-export"),
    path("schema/", SchemaView.as_view(), name="schema"),
    # The split view serves its start-up script as a file: no inline script, CSP holds.
    path("docs/", SchemaDocsView.as_view(url_name="schema"), name="docs"),
]

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from console.api import views

urlpatterns = [
    path("me", views.MeView.as_view(), name="me"),
    path("audit", views.AuditListView.as_view(), name="audit-list"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("", include("topics.api.urls")),
    path("", include("groups.api.urls")),
]

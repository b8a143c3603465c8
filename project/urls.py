from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path

from console import health, views
from console.signin_limit import signin_limited
from groups.lag.store import read_meta
from project.routes import gathered

urlpatterns = [
    path("login/", views.login, name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Django admin's own sign-in, ahead of admin.site.urls: the same limit answers 429 here
    # too (it holds without this; console/signin_limit.py).
    path("admin/login/", signin_limited(admin.site.login)),
    path("admin/", admin.site.urls),
    # Single sign-on's two steps: off to the provider, and back (accounts/sso.py).
    *([path("oidc/", include("mozilla_django_oidc.urls"))] if settings.SSO_ENABLED else []),
    path("healthz", views.healthz, name="healthz"),
    # Readiness: database, Redis, the lag sampler's last pass; no auth (console/health.py).
    path("readyz", health.readiness_view(read_meta), name="readyz"),
    # The core's own API (me, audit, the schema and its docs), then each app's.
    path("api/v1/", include("console.api.urls")),
    path("api/v1/", include(gathered("api_urlpatterns"))),
    # Other paths the apps serve at the root (the groups app's /metrics).
    *gathered("urlpatterns"),
    # Anything under api/ that matched nothing is an API 404, not the SPA.
    re_path(r"^api/", views.api_not_found),
    # Every other path is a client-side route of the SPA.
    re_path(r"^(?!static/|ws/).*$", views.spa, name="spa"),
]

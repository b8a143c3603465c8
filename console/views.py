"""Server-rendered bits: the SPA's shell and a liveness probe. The rest is the REST API."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.http import FileResponse, HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.views.decorators.csrf import csrf_exempt

from console.signin_limit import signin_limited


@login_required
def spa(request: HttpRequest) -> HttpResponseBase:
    index = settings.FRONTEND_DIST / "index.html"
    if not index.is_file():
        return HttpResponse(
            "The frontend is not built yet: run `npm --prefix frontend ci && "
            "npm --prefix frontend run build`.",
            status=503,
            content_type="text/plain",
        )
    response = FileResponse(index.open("rb"), content_type="text/html")
    response["Cache-Control"] = "no-cache"
    return response


def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"ok": True})


@csrf_exempt  # changes nothing; without this a token POST got Django's HTML CSRF page
def api_not_found(request: HttpRequest) -> JsonResponse:
    body = {"error": {"code": "not_found", "message": "No such API endpoint.", "details": {}}}
    return JsonResponse(body, status=404)


# Django's login page, the SPA's sign-in. The failure limit is enforced inside authenticate()
# (console/signin_limit.py), so it also holds for /admin/login/; this only turns its refusal
# into a 429 (503 with Redis down) instead of "didn't match".
# With single sign-on it also offers the provider's button; with local sign-in off, only that.
login = signin_limited(
    LoginView.as_view(
        extra_context={
            "sso_enabled": settings.SSO_ENABLED,
            "sso_label": settings.OIDC_PROVIDER_LABEL,
            "local_signin": settings.LOCAL_SIGNIN,
        }
    )
)

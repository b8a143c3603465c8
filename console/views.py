"""Server-rendered bits: the SPA's shell and a liveness probe. The rest is the REST API."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.core.cache import cache
from django.http import FileResponse, HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.views.decorators.csrf import csrf_exempt


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


LOGIN_MAX_FAILURES = 10
LOGIN_WINDOW_S = 15 * 60


class RateLimitedLoginView(LoginView):
    """Django's login page, refusing (429) after LOGIN_MAX_FAILURES failed sign-ins of one
    user name from one address within LOGIN_WINDOW_S (counted in the default cache)."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        name = str(request.POST.get("username", ""))[:150].lower()
        key = f"login-failures:{request.META.get('REMOTE_ADDR', '')}:{name}"
        if cache.get(key, 0) >= LOGIN_MAX_FAILURES:
            return HttpResponse(
                "Too many failed sign-ins for this user from this address; "
                "try again in 15 minutes.",
                status=429,
                content_type="text/plain",
            )
        response = super().post(request, *args, **kwargs)
        if response.status_code == 200:  # the form again: the sign-in failed
            cache.add(key, 0, LOGIN_WINDOW_S)
            cache.incr(key)
        else:
            cache.delete(key)
        return response

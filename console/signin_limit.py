"""The sign-in limit: at most MAX_FAILURES failed sign-ins per user name and client address
within WINDOW_S, on every path that signs in through django.contrib.auth.authenticate().

Where it is enforced: `SignInLimitBackend`, first in AUTHENTICATION_BACKENDS. It holds no
users; it counts the attempt (in Django's cache, i.e. Redis, shared by every web process)
before any real backend checks a password, and past the limit it raises PermissionDenied,
which makes authenticate() stop there: no backend after it sees the password. Counting
before checking, atomically, means parallel guesses cannot slip past a check-then-count
race. A successful login() (the `user_logged_in` signal) clears the count.

- The key is the user name exactly as authenticate() receives it, the form's cleaned value
  (AuthenticationForm's UsernameField strips surrounding whitespace and applies NFKC, as
  User.normalize_username does; ModelBackend looks that up as given), case-folded on top:
  every spelling that can sign in as a user (`"admin "`, `"ａｄｍｉｎ"`) counts against it.
- The address is `console.client_address.client_address` (TRUSTED_PROXIES); an IPv6 client
  counts by its /64, the block one subscriber gets, or it could rotate addresses for free.
- Redis down: sign-in fails closed (503). A per-process fallback would quietly multiply the
  limit by the number of processes and reset it on every restart; sessions already signed
  in and API tokens do not depend on it.

Paths: the SPA's `/login/` (console/views.py) and Django admin's `/admin/login/`
(project/urls.py), both wrapped in `signin_limited`, which answers a refusal with 429 or 503
instead of "wrong user name or password". A future SSO callback plugs in the same way: it
signs in with authenticate() + login(); if its credentials carry a user name (pass it as
`username=`) the backend counts them, if not (an IdP-verified assertion) there is nothing to
guess and it passes; wrap its view in `signin_limited`. A path that authenticate()s on every
request without login() (HTTP Basic) would never clear its count: it must not be added
without clearing it on success.
"""

from __future__ import annotations

import functools
import hashlib
import ipaddress
import logging
import unicodedata
from collections.abc import Callable
from typing import Any, NoReturn

from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase

from console.client_address import client_address

log = logging.getLogger(__name__)

MAX_FAILURES = 10
WINDOW_S = 15 * 60
UNAVAILABLE_RETRY_S = 30
_KEY = "signin-failures"
# Set on the request by the backend, read by `signin_limited` to answer 429/503.
_REFUSAL = "_console_signin_refusal"
LIMITED, UNAVAILABLE = "limited", "unavailable"


def canonical_username(name: str) -> str:
    """One form for every spelling that can authenticate as the same user: what the login
    form does (strip, NFKC), then Unicode's compatibility caseless match (D146:
    NFKC(casefold(NFKD(casefold(NFD(x)))))), so case-insensitive lookups are covered too."""
    text = unicodedata.normalize("NFKC", name.strip())
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFD", text).casefold())
    return unicodedata.normalize("NFKC", text.casefold()).strip()


def _address_key(address: str) -> str:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address  # no IP (a Unix socket peer): all such clients share one count
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def counter_key(address: str, username: str) -> str:
    """The cache key of one (address, user name) count; the name hashed, so any name makes
    a short, safe key."""
    name = hashlib.sha256(canonical_username(username).encode("utf-8", "surrogatepass"))
    return f"{_KEY}:{_address_key(address)}:{name.hexdigest()[:32]}"


def count_attempt(key: str) -> int:
    """Count one attempt under `key` (atomically: Redis INCR) and return the count in the
    current window, which starts at the first attempt. Raises whatever the cache raises."""
    for _ in range(3):
        cache.add(key, 0, WINDOW_S)
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add() and incr(): start a new window
            continue
        if count == 1:
            # Redis' INCR recreates a key that expired just before it without a TTL: set one.
            cache.touch(key, WINDOW_S)
        return int(count)
    raise RuntimeError(f"could not count a sign-in attempt under {key}")


def _refuse(request: HttpRequest, why: str) -> NoReturn:
    setattr(request, _REFUSAL, why)
    raise PermissionDenied(why)


class SignInLimitBackend:
    """An authentication backend that authenticates nobody: it counts each sign-in attempt
    that carries a user name and a request, and stops authenticate() past the limit. It has
    no get_user(), so sessions and the test client's force_login() never pick it."""

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, **credentials: Any
    ) -> None:
        if username is None:
            username = credentials.get(get_user_model().USERNAME_FIELD)
        if request is None or not isinstance(username, str):
            return None  # management commands, the test client's login(): no client address
        key = counter_key(client_address(request), username)
        try:
            count = count_attempt(key)
        except Exception:
            # Fail closed: without the shared count there is no limit (module docstring).
            log.warning("sign-in refused: the failure counter (Redis) failed", exc_info=True)
            _refuse(request, UNAVAILABLE)
        if count > MAX_FAILURES:
            log.info("sign-in refused by the limit (client %s)", client_address(request))
            _refuse(request, LIMITED)
        return None

    async def aauthenticate(
        self, request: HttpRequest | None, username: str | None = None, **credentials: Any
    ) -> None:
        return await sync_to_async(self.authenticate)(request, username, **credentials)


@receiver(user_logged_in, dispatch_uid="console.signin_limit.clear")
def _clear_on_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    if request is None:
        return
    try:
        cache.delete(counter_key(client_address(request), user.get_username()))
    except Exception:
        # The sign-in succeeded; the stale count just runs out with its window.
        log.warning("could not clear a sign-in failure count", exc_info=True)


def refusal(request: HttpRequest) -> HttpResponse | None:
    """The answer to a sign-in the backend refused during this request, else None."""
    why = getattr(request, _REFUSAL, None)
    if why == LIMITED:
        response = HttpResponse(
            "Too many failed sign-ins for this user from this address; "
            f"try again in {WINDOW_S // 60} minutes.",
            status=429,
            content_type="text/plain",
        )
        response["Retry-After"] = str(WINDOW_S)  # at most: the window began earlier
        return response
    if why == UNAVAILABLE:
        response = HttpResponse(
            "Sign-in is unavailable: its failure counter (Redis) does not answer; "
            "try again shortly.",
            status=503,
            content_type="text/plain",
        )
        response["Retry-After"] = str(UNAVAILABLE_RETRY_S)
        return response
    return None


def signin_limited(
    view: Callable[..., HttpResponseBase],
) -> Callable[..., HttpResponseBase]:
    """Wrap a sign-in view: a refusal by the limit answers 429 (or 503, Redis down) instead
    of the view's "wrong user name or password" page. The limit holds without it."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response = view(request, *args, **kwargs)
        return refusal(request) or response

    return wrapped

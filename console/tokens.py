"""Named API tokens with an expiry (`ApiToken`): made, checked and revoked here.

A key is 40 random characters shown once; only its SHA-256 is kept, so a database leak yields
no usable token. `Authorization: Token <key>` takes these and, for scripts made before them,
the single key of `manage.py apitoken` (DRF's token), which the class after this one checks.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from console.models import ApiToken

KEY_BYTES = 30  # 40 characters of URL-safe base64
# A token's last use is written at most this often: not one write per request.
LAST_USED_EVERY = timedelta(minutes=1)


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def make_token(user: Any, name: str, expires_at: datetime | None) -> tuple[ApiToken, str]:
    """A new token and its key (the only time the key exists outside the client)."""
    key = secrets.token_urlsafe(KEY_BYTES)
    token = ApiToken.objects.create(
        user=user, name=name, key_hash=_hash(key), prefix=key[:8], expires_at=expires_at
    )
    return token, key


def user_for_key(key: str) -> tuple[Any, ApiToken] | None:
    """(user, token) for a live key of an active user; None for a key that is not one of
    these tokens; AuthenticationFailed for an expired one (said, not silently refused)."""
    token = ApiToken.objects.select_related("user").filter(key_hash=_hash(key)).first()
    if token is None:
        return None
    now = timezone.now()
    if token.expires_at is not None and token.expires_at <= now:
        raise exceptions.AuthenticationFailed("This API token has expired.")
    if not token.user.is_active:
        raise exceptions.AuthenticationFailed("User inactive or deleted.")
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.user, token


class ApiTokenAuthentication(TokenAuthentication):
    """`Authorization: Token <key>` for named tokens; a key that is not one is left to the next
    class (DRF's own tokens)."""

    def authenticate_credentials(self, key: str) -> Any:
        found = user_for_key(key)
        return found  # None: not ours, the next authentication class decides


class ApiTokenScheme(OpenApiAuthenticationExtension):
    """The schema's name for named tokens; drf-spectacular's own extension names DRF's."""

    target_class = ApiTokenAuthentication
    name = "apiToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix="Token"
        )

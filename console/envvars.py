"""Typed helpers over environment variables: loud on bad values, with working defaults."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def envbool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {raw!r}")


def envint(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {raw!r}") from None


def envlist(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def envsecret(name: str, default: str) -> str:
    """A secret from NAME, or from the file NAME_FILE points at (container secrets)."""
    path = os.environ.get(f"{name}_FILE")
    if path:
        return Path(path).read_text().strip()
    return os.environ.get(name, default)


def redis_database(url: str) -> int:
    """The database number a redis:// URL names (its path, else `?db=`, else 0)."""
    parts = urlsplit(url)
    raw = parts.path.strip("/") or dict(parse_qsl(parts.query)).get("db", "0")
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"REDIS_URL names no database number: {url!r}") from None


def channel_prefix(redis_url: str) -> str:
    """The Channels layer's prefix on the Redis of `redis_url`. Pub/sub channels belong to the
    whole server, not to a database: the database number in the prefix keeps consoles that
    share one server on different databases from hearing each other's pushes."""
    return f"kafka-console.{redis_database(redis_url)}"

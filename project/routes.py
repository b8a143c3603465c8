"""The apps' routes, read from each app's `routes.py` (settings.CONSOLE_APPS, in order).

Each `routes.py` holds three lists: `api_urlpatterns` (mounted under /api/v1/), `urlpatterns`
(at the site root) and `websocket_urlpatterns`. Adding an app to the console is adding it to
CONSOLE_APPS; nothing in the core names it.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from django.conf import settings


def app_routes() -> list[ModuleType]:
    return [import_module(f"{app}.routes") for app in settings.CONSOLE_APPS]


def gathered(kind: str) -> list:
    """One list of every app's `kind` routes (`api_urlpatterns`, `urlpatterns`, ...)."""
    return [route for module in app_routes() for route in getattr(module, kind)]

"""Route tables: the API's paths under one prefix, each written once as (suffix, view, name).

A resource and its sub-resources share a prefix ("clusters/<str:cluster>/topics/<str:topic>",
then "/configs", "/partitions"): the table names the prefix once, so the two cannot drift.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.urls import URLPattern, path
from django.views import View

Route = tuple[str, type[View], str]  # (suffix after the prefix, class-based view, route name)


def routes(prefix: str, table: Iterable[Route]) -> list[URLPattern]:
    """One `path` per row of `table`, in its order (Django tries them in that order)."""
    return [path(prefix + suffix, view.as_view(), name=name) for suffix, view, name in table]

"""`GET /metrics`: the lag sampler's latest evaluations for Prometheus (groups.lag.metrics).

A plain Django view, not DRF: scrapers carry neither a session nor an API token, and the
view stays out of the OpenAPI schema and the role matrix. It reads Redis only, so a scrape
costs no Kafka call: each cluster's latest evaluations and its sampler's last pass record,
whose Kafka cluster id tells registry entries of one cluster apart (exported once:
metrics.one_per_cluster). Who may scrape: METRICS_BEARER_TOKEN, else METRICS_ALLOWED_NETWORKS.
"""

from __future__ import annotations

import functools
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from prometheus_client import CONTENT_TYPE_LATEST

from console.clusters import all_clusters
from groups.lag import metrics, store


def _error(
    status: int, code: str, message: str, details: dict[str, Any] | None = None
) -> JsonResponse:
    """The API's one error shape (console.api.errors.error_response), without DRF."""
    body = {"error": {"code": code, "message": message, "details": details or {}}}
    return JsonResponse(body, status=status)


@functools.cache
def _networks(cidrs: tuple[str, ...]) -> tuple[metrics.IPNetwork, ...]:
    # settings.py has validated them already; parse once per distinct value.
    return metrics.parse_networks(cidrs)


def _refusal(request: HttpRequest) -> JsonResponse | None:
    token: str = settings.METRICS_BEARER_TOKEN
    ok = metrics.allowed(
        token=token,
        networks=_networks(tuple(settings.METRICS_ALLOWED_NETWORKS)),
        authorization=request.headers.get("Authorization", ""),
        # The socket's peer (daphne sets it); X-Forwarded-For is the client's to write.
        remote_addr=request.META.get("REMOTE_ADDR") or "",
    )
    if ok:
        return None
    if token:
        response = _error(401, "not_authenticated", "A valid bearer token is required.")
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    return _error(
        403,
        "permission_denied",
        "This address may not scrape /metrics (see METRICS_ALLOWED_NETWORKS).",
    )


def _entry(cluster: str) -> metrics.Entry:
    groups, meta = store.read_latest_and_meta(cluster)
    cluster_id = (meta or {}).get("cluster_id")
    return metrics.Entry(cluster, cluster_id if isinstance(cluster_id, str) else None, groups)


@csrf_exempt  # changes nothing; a POST gets the JSON 405, not Django's HTML CSRF page
def metrics_view(request: HttpRequest) -> HttpResponse:
    if request.method not in ("GET", "HEAD"):
        refused = _error(405, "method_not_allowed", f'Method "{request.method}" not allowed.')
        refused["Allow"] = "GET, HEAD"
        return refused
    if refusal := _refusal(request):
        return refusal
    try:
        entries = [_entry(cfg.name) for cfg in all_clusters()]  # registry order
    except store.StoreUnavailable:
        # Better no scrape (Prometheus records `up` 0) than an empty one that reads as
        # "every group gone".
        return _error(
            503,
            "lag_store_unavailable",
            "The lag samples are kept in Redis, which does not answer; try again shortly.",
        )
    data, left_out = metrics.one_per_cluster(entries)
    response = HttpResponse(metrics.render(data, left_out), content_type=CONTENT_TYPE_LATEST)
    response["Cache-Control"] = "no-store"
    return response

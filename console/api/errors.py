"""The API's one error shape: {"error": {"code", "message", "details"}}, never a stack trace."""

from __future__ import annotations

import logging
from typing import Any

from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response

from console.clusters import ClusterNotFound
from console.errors import ConsoleError
from console.kafka import KafkaCallFailed, KafkaTimeout

log = logging.getLogger(__name__)


def error_response(
    http_status: int, code: str, message: str, details: dict[str, Any] | None = None
) -> Response:
    body = {"error": {"code": code, "message": message, "details": details or {}}}
    return Response(body, status=http_status)


def _first_problem(detail: Any, path: str = "") -> tuple[str, str]:
    """The first (field path, message) in a DRF validation detail, for a readable sentence."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            # DRF keys a list's item errors by index in some versions: scope.topics[0].
            sub = f"{path}[{key}]" if isinstance(key, int) else key if not path else f"{path}.{key}"
            if key == "non_field_errors":
                sub = path
            return _first_problem(value, sub)
    if isinstance(detail, list) and detail:
        if all(isinstance(d, (str, exceptions.ErrorDetail)) for d in detail):
            return path, str(detail[0])
        for index, item in enumerate(detail):
            if item:
                return _first_problem(item, f"{path}[{index}]")
    return path, str(detail)


def _validation_message(detail: Any) -> tuple[str, str]:
    field, problem = _first_problem(detail)
    if field:
        return field, f"{field}: {problem}"
    return "", problem


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    if isinstance(exc, ClusterNotFound):
        return error_response(404, "cluster_not_found", str(exc), {"cluster": exc.name})
    if isinstance(exc, KafkaTimeout):
        return error_response(504, exc.code, exc.message, exc.details)
    if isinstance(exc, KafkaCallFailed):
        return error_response(502, exc.code, exc.message, exc.details)
    if isinstance(exc, ConsoleError):
        return error_response(exc.status, exc.code, exc.message, exc.details)
    if isinstance(exc, exceptions.ValidationError):
        field, message = _validation_message(exc.detail)
        return error_response(400, "invalid", message, {"field": field, "errors": exc.detail})
    if isinstance(exc, Http404):
        return error_response(404, "not_found", "Not found.")
    if isinstance(exc, exceptions.APIException):
        code = exc.default_code if isinstance(exc.default_code, str) else "error"
        details: dict[str, Any] = {}
        if isinstance(exc, (exceptions.ParseError, exceptions.UnsupportedMediaType)):
            # The body as a whole (or where in it, when the parser knows): bad input.
            details["field"] = getattr(exc, "field", "body")
        if limit := getattr(exc, "limit", None):
            details.update(field="body", limit=limit)
        response = error_response(exc.status_code, code, str(exc.detail), details)
        if isinstance(exc, (exceptions.NotAuthenticated, exceptions.AuthenticationFailed)):
            response["WWW-Authenticate"] = 'Token realm="api"'
        wait = getattr(exc, "wait", None)
        if wait:
            response["Retry-After"] = str(int(wait))
        return response
    log.exception("unhandled error in %s", context.get("view"))
    return error_response(
        status.HTTP_500_INTERNAL_SERVER_ERROR,
        "internal_error",
        "The server failed to handle this request; the error has been logged.",
    )

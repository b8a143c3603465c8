"""The OpenAPI schema and its Swagger UI, answering errors in the API's JSON error shape."""

from __future__ import annotations

from typing import Any

from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response


class _JsonErrors:
    """A 401/403 from these views would otherwise be rendered as YAML or an HTML page."""

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(response, Response) and response.status_code >= 400:
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = "application/json"
        return super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]


class SchemaView(_JsonErrors, SpectacularAPIView):
    pass


class SchemaDocsView(_JsonErrors, SpectacularSwaggerSplitView):
    pass

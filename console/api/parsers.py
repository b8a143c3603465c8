"""The one request parser: JSON only, bounded in size and depth, every string encodable.

Form and multipart bodies are refused (415) rather than parsed: a field a form cannot
express (a list of partitions) would otherwise read as absent, and "absent" can mean "all".
"""

from __future__ import annotations

import json
import math
from typing import Any

from rest_framework import exceptions, status
from rest_framework.parsers import JSONParser

from console.api.limits import MAX_JSON_DEPTH, MAX_REQUEST_BYTES


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "payload_too_large"
    default_detail = f"body: the request body is larger than {MAX_REQUEST_BYTES} bytes."


def _check_shape(data: Any) -> None:
    """Depth at most MAX_JSON_DEPTH; no string (key or value) that UTF-8 cannot encode."""
    stack: list[tuple[Any, int, str]] = [(data, 1, "body")]
    while stack:
        value, depth, where = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise exceptions.ParseError(f"body: nested deeper than {MAX_JSON_DEPTH} levels.")
        if isinstance(value, dict):
            for key, item in value.items():
                _check_text(key, f"{where}.{key!r}")
                stack.append((item, depth + 1, f"{where}.{key}"))
        elif isinstance(value, list):
            stack.extend((item, depth + 1, f"{where}[{i}]") for i, item in enumerate(value))
        elif isinstance(value, str):
            _check_text(value, where)


def _check_text(text: str, where: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise exceptions.ParseError(
            f"{where}: not valid Unicode (a lone surrogate such as \\ud800)."
        ) from None


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text} is out of range")
    return value


def _no_constant(text: str) -> float:
    raise ValueError(f"{text} is not JSON")


class StrictJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        request = (parser_context or {}).get("request")
        declared = request.META.get("CONTENT_LENGTH") if request is not None else None
        try:
            if declared and int(declared) > MAX_REQUEST_BYTES:
                raise PayloadTooLarge()
        except ValueError:
            raise exceptions.ParseError("body: Content-Length is not a number.") from None
        raw = stream.read(MAX_REQUEST_BYTES + 1) if stream is not None else b""
        if len(raw) > MAX_REQUEST_BYTES:
            raise PayloadTooLarge()
        try:
            data = json.loads(raw.decode("utf-8"), parse_float=_finite, parse_constant=_no_constant)
        except RecursionError:
            raise exceptions.ParseError(
                f"body: nested deeper than {MAX_JSON_DEPTH} levels."
            ) from None
        except (UnicodeDecodeError, ValueError) as exc:
            raise exceptions.ParseError(f"body: not valid JSON ({exc}).") from None
        _check_shape(data)
        return data

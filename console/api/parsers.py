"""The one request parser: JSON only, bounded in size and depth, every string encodable.

Form and multipart bodies are refused (415) rather than parsed: a field a form cannot
express (a list of partitions) would otherwise read as absent, and "absent" can mean "all".
For the same reason a key given twice in one object is refused rather than read as its last
value (`{"partitions": [...], "partitions": null}` would elect every partition).
"""

from __future__ import annotations

import json
import math
from typing import Any

from rest_framework import exceptions, status
from rest_framework.parsers import JSONParser

from console.api.limits import MAX_JSON_DEPTH, max_request_bytes


class BodyError(exceptions.ParseError):
    """A body that is not the JSON this API reads; `field` names where (`body` if anywhere)."""

    def __init__(self, message: str, field: str = "body"):
        super().__init__(message)
        self.field = field


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "payload_too_large"
    field = "body"

    def __init__(self, limit: int):
        super().__init__(f"body: the request body is larger than {limit} bytes.")
        self.limit = limit


def _join(path: str, key: str) -> str:
    """`path.key` as the serializers name fields; a key UTF-8 cannot encode is escaped."""
    key = key.encode("utf-8", "backslashreplace").decode("utf-8")
    return key if path == "body" else f"{path}.{key}"


def _check_shape(data: Any) -> None:
    """Depth at most MAX_JSON_DEPTH; no key given twice in an object; no string (key or
    value) that UTF-8 cannot encode."""
    stack: list[tuple[Any, int, str]] = [(data, 1, "body")]
    while stack:
        value, depth, where = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise BodyError(f"body: nested deeper than {MAX_JSON_DEPTH} levels.")
        if isinstance(value, _Repeated):
            field = _join(where, value.key)
            raise BodyError(f"{field}: given twice in one object.", field)
        if isinstance(value, dict):
            for key, item in value.items():
                _check_text(key, _join(where, key))
                stack.append((item, depth + 1, _join(where, key)))
        elif isinstance(value, list):
            stack.extend((item, depth + 1, f"{where}[{i}]") for i, item in enumerate(value))
        elif isinstance(value, str):
            _check_text(value, where)


def _check_text(text: str, where: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise BodyError(
            f"{where}: not valid Unicode (a lone surrogate such as \\ud800).", where
        ) from None


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text} is out of range")
    return value


def _no_constant(text: str) -> float:
    raise ValueError(f"{text} is not JSON")


class _Repeated(dict):
    """An object that gave a key twice; `_check_shape` refuses it, naming where."""

    key = ""


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            repeated = _Repeated(result)
            repeated.key = key
            return repeated
        result[key] = value
    return result


class StrictJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = max_request_bytes()
        request = (parser_context or {}).get("request")
        declared = request.META.get("CONTENT_LENGTH") if request is not None else None
        try:
            too_large = int(declared or 0) > limit
        except ValueError:
            raise BodyError("body: Content-Length is not a number.") from None
        if too_large:
            raise PayloadTooLarge(limit)
        # Never more than the limit (and one byte to tell) in memory, whatever was declared.
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise PayloadTooLarge(limit)
        try:
            data = json.loads(
                raw.decode("utf-8"),
                parse_float=_finite,
                parse_constant=_no_constant,
                object_pairs_hook=_object,
            )
        except RecursionError:
            raise BodyError(f"body: nested deeper than {MAX_JSON_DEPTH} levels.") from None
        except (UnicodeDecodeError, ValueError) as exc:
            raise BodyError(f"body: not valid JSON ({exc}).") from None
        _check_shape(data)
        return data

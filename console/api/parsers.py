"""The one request parser: JSON only, bounded in size and depth, every string encodable.

Form and multipart bodies are refused (415) rather than parsed: a field a form cannot
express (a list of partitions) would otherwise read as absent, and "absent" can mean "all".
For the same reason a key given twice in one object is refused rather than read as its last
value (`{"partitions": [...], "partitions": null}` would elect every partition).
`loads_strict` is the one JSON reader: WebSocket frames go through it too (console/ws_frames.py).
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


def _join(path: str, key: str, root: str) -> str:
    """`path.key` as the serializers name fields; a key UTF-8 cannot encode is escaped."""
    key = key.encode("utf-8", "backslashreplace").decode("utf-8")
    return key if path == root else f"{path}.{key}"


def _check_shape(data: Any, root: str = "body") -> None:
    """Depth at most MAX_JSON_DEPTH; no key given twice in an object; no string (key or
    value) that UTF-8 cannot encode. `root` names the whole document in messages."""
    stack: list[tuple[Any, int, str]] = [(data, 1, root)]
    while stack:
        value, depth, where = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise BodyError(f"{root}: nested deeper than {MAX_JSON_DEPTH} levels.", root)
        if isinstance(value, _Repeated):
            field = _join(where, value.key, root)
            raise BodyError(f"{field}: given twice in one object.", field)
        if isinstance(value, dict):
            for key, item in value.items():
                _check_text(key, _join(where, key, root))
                stack.append((item, depth + 1, _join(where, key, root)))
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
        return loads_strict(raw, limit)


def loads_strict(raw: bytes, limit: int, root: str = "body") -> Any:
    """`raw` (UTF-8 JSON) read by this API's rules, or PayloadTooLarge / BodyError: at most
    `limit` bytes, nested at most MAX_JSON_DEPTH levels, no key twice in an object, no NaN,
    Infinity or out-of-range number, no lone surrogate. `root` names the whole document in
    messages and `BodyError.field` (`body` for REST, `frame` for a WebSocket frame)."""
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
        raise BodyError(f"{root}: nested deeper than {MAX_JSON_DEPTH} levels.", root) from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise BodyError(f"{root}: not valid JSON ({exc}).", root) from None
    _check_shape(data, root)
    return data

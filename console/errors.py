"""Domain errors that carry their API status, so plain modules can refuse without HTTP."""

from __future__ import annotations

from typing import Any


class ConsoleError(Exception):
    status = 400
    code = "bad_request"

    def __init__(
        self, message: str, *, code: str | None = None, details: dict[str, Any] | None = None
    ):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        self.details = details or {}


class BadInput(ConsoleError):
    status = 400
    code = "invalid"

    def __init__(self, field: str, message: str, **kwargs: Any):
        kwargs.setdefault("details", {"field": field})
        super().__init__(message, **kwargs)
        self.field = field


class NotFound(ConsoleError):
    status = 404
    code = "not_found"


class Conflict(ConsoleError):
    status = 409
    code = "conflict"


class TooMany(ConsoleError):
    """A per-user limit on work in progress; the client may retry once some has finished."""

    status = 429
    code = "too_many"


class Unavailable(ConsoleError):
    """A service of our own (Redis) did not answer; Kafka's own failures are 502/504."""

    status = 503
    code = "unavailable"

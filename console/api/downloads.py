"""What every file download of the API shares."""

from __future__ import annotations

import re
from urllib.parse import quote


def content_disposition(filename: str) -> str:
    """An attachment header safe for any name (a group id, a topic): an ASCII fallback name
    (no quotes, no control characters) and the exact name percent-encoded (RFC 6266)."""
    fallback = re.sub(r"[^A-Za-z0-9._-]", "_", filename)
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(filename, safe='')}"

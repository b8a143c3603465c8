"""The offsets CSV download's Content-Disposition header is safe for any group id: no line
break, an ASCII fallback file name, the real name in RFC 5987 form."""

from __future__ import annotations

import pytest

from console.api.downloads import content_disposition


@pytest.mark.parametrize(
    "group",
    ['q"uote', "semi;colon", "a/b", "üñí", "crlf\r\nX-Injected: 1"],
)
def test_csv_download_header_is_safe_for_any_group_id(group):
    header = content_disposition(f"{group}-offsets.csv")
    assert "\r" not in header and "\n" not in header
    fallback = header.split('filename="', 1)[1].split('"', 1)[0]
    assert all(c.isascii() and (c.isalnum() or c in "._-") for c in fallback)
    assert "filename*=UTF-8''" in header

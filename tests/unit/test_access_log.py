"""No credential in the access log, and none accepted in a REST query string."""

from __future__ import annotations

import datetime
import io

import pytest

from project.serve import RedactingAccessLog, redact
from tests.conftest import assert_error
from tests.stack import ROOT


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("GET /api/v1/me?token=abc123", "GET /api/v1/me?token=***"),
        ("GET /x?a=1&token=abc&b=2", "GET /x?a=1&token=***&b=2"),
        ("GET /x?api_key=k1;password=p", "GET /x?api_key=***;password=***"),
        ("GET /x?Access_Token=T#frag", "GET /x?Access_Token=***#frag"),
        ("GET /x?search=tokens", "GET /x?search=tokens"),  # a value, not a name
        ("GET /api/v1/clusters/local/topics", "GET /api/v1/clusters/local/topics"),
    ],
)
def test_secrets_in_query_strings_are_redacted(line, expected):
    assert redact(line) == expected


def test_the_access_log_writes_no_token():
    stream = io.StringIO()
    log = RedactingAccessLog(stream)
    log(
        "http",
        "complete",
        {"client": "127.0.0.1:5", "method": "GET", "path": "/api/v1/me?token=s3cr3t",
         "status": 400, "size": 10},
    )  # fmt: skip
    assert "s3cr3t" not in stream.getvalue() and "token=***" in stream.getvalue()
    assert datetime.date.today().strftime("%Y") in stream.getvalue()


def test_the_web_process_runs_with_the_redacting_log():
    web = [line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web:")]
    assert "-m project.serve" in web[0]


@pytest.mark.django_db
def test_a_token_in_a_rest_query_string_is_refused(viewer_client):
    response = viewer_client.get("/api/v1/me?token=anything")
    assert assert_error(response, 400, "invalid")["details"]["field"] == "token"

"""Single sign-on's settings are checked at start: a half-configured provider or a mapping that
cannot be read stops the console with the missing or faulty names, before anyone signs in."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.stack import ROOT


def _check(**env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": "sqlite:///:memory:", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_client_id_without_the_providers_endpoints_stops_the_console():
    done = _check(OIDC_RP_CLIENT_ID="console", OIDC_OP_TOKEN_ENDPOINT="https://idp/token")
    assert done.returncode != 0
    assert "OIDC_OP_AUTHORIZATION_ENDPOINT" in done.stderr
    assert "OIDC_RP_CLIENT_SECRET" in done.stderr
    assert "OIDC_OP_TOKEN_ENDPOINT," not in done.stderr  # given, so not named


def test_a_mapping_naming_no_role_stops_the_console_naming_the_group():
    done = _check(CONSOLE_OIDC_GROUP_ROLES='{"ops": "operater"}')
    assert done.returncode != 0
    assert "CONSOLE_OIDC_GROUP_ROLES: group 'ops': 'operater' is not a role" in done.stderr

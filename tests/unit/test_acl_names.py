"""Kafka's ACL names are written once, in access/acls.py; the SPA's copies (its selects, in
frontend/src/lib/acls.ts) are checked against them here, as the pipeline's steps are."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from access import acls

ACLS_TS = Path(__file__).resolve().parents[2] / "frontend" / "src" / "lib" / "acls.ts"


def _ts_array(name: str) -> list[str]:
    found = re.search(rf"export const {name}\b[^=]*=\s*\[(.*?)\]", ACLS_TS.read_text(), re.S)
    assert found, f"{name} is not in {ACLS_TS}"
    return re.findall(r'"([A-Za-z_]+)"', found.group(1))


@pytest.mark.parametrize(
    "name, expected",
    [
        ("ACL_RESOURCE_TYPES", acls.RESOURCE_TYPES),
        ("ACL_OPERATIONS", acls.OPERATIONS),
        ("ACL_BINDING_PATTERNS", acls.BINDING_PATTERN_TYPES),
        ("ACL_PERMISSIONS", acls.PERMISSIONS),
    ],
)
def test_the_spas_names_are_the_servers(name, expected):
    assert sorted(_ts_array(name)) == sorted(expected)

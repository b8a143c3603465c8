"""ACL files: CSV and JSON read back to the bindings they were written from; a bad line is
named."""

from __future__ import annotations

import pytest

from access import acl_files
from console.errors import BadInput

ROWS = [
    {"resource_type": "TOPIC", "resource_name": "orders", "pattern_type": "LITERAL",
     "principal": "User:alice", "host": "*", "operation": "READ", "permission": "ALLOW"},
    {"resource_type": "GROUP", "resource_name": "app-", "pattern_type": "PREFIXED",
     "principal": "User:bob,x", "host": "10.0.0.1", "operation": "READ", "permission": "DENY"},
]  # fmt: skip


@pytest.mark.parametrize("fmt", acl_files.FORMATS)
def test_a_file_reads_back_to_its_bindings(fmt):
    text = acl_files.to_csv(ROWS) if fmt == "csv" else acl_files.to_json(ROWS)
    assert [b.as_dict() for b in acl_files.read(text, fmt)] == ROWS


def test_csv_defaults_and_any_column_order():
    text = "operation,principal,resource_name,resource_type\nread,User:a,t,topic\n"
    (only,) = acl_files.read(text, "csv")
    assert (only.pattern_type, only.host, only.permission, only.operation) == (
        "LITERAL",
        "*",
        "ALLOW",
        "READ",
    )


H = "resource_type,resource_name,principal,operation\n"


@pytest.mark.parametrize(
    "text, fmt, line, words",
    [
        (H + "TOPIC,t,User:a,READ\nTOPIC,t,alice,READ\n", "csv", 3, "principal"),
        (H + "TOPIC,t,User:a,FLY\n", "csv", 2, "operation"),
        (H[:-1] + ",colour\nTOPIC,t,User:a,READ,red\n", "csv", 2, "colour"),
        ("resource_type,principal\nTOPIC,User:a\n", "csv", 1, "lacks"),
        (H + "TOPIC,t,User:a,READ,extra\n", "csv", 2, "more cells"),
        ('{"bindings": [{"resource_type": "TOPIC"}]}', "json", None, "resource_name"),
        ('{"acls": []}', "json", None, "bindings"),
        ("{not json", "json", 1, "not JSON"),
    ],
)  # fmt: skip
def test_a_bad_line_is_named(text, fmt, line, words):
    with pytest.raises(BadInput) as caught:
        acl_files.read(text, fmt)
    assert caught.value.details == {"field": "content", "line": line}
    assert words in caught.value.message

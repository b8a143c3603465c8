"""Following a registry schema's references: everything it imports, once each, dependencies
first; a circle or a missing subject is a problem that names it."""

from __future__ import annotations

import pytest

from console.schema_refs import MAX_REFERENCES, ReferenceProblem, resolve

REGISTRY = {
    ("common", 1): ("AVRO", "C", []),
    ("address", 2): ("AVRO", "A", [("acme.Common", "common", 1)]),
    ("phone", 1): ("AVRO", "P", [("acme.Common", "common", 1)]),
}


def fetch(subject: str, version: int):
    if (subject, version) not in REGISTRY:
        raise ReferenceProblem(f"{subject} v{version} is not in the registry")
    return REGISTRY[(subject, version)]


def test_every_import_once_and_after_what_it_imports():
    found = resolve([("acme.Address", "address", 2), ("acme.Phone", "phone", 1)], fetch)
    assert [(r.subject, r.text) for r in found] == [
        ("common", "C"),
        ("address", "A"),
        ("phone", "P"),
    ]
    assert found[0].name == "acme.Common" and found[1].name == "acme.Address"


def test_a_circle_and_a_missing_subject_are_problems_naming_them(monkeypatch):
    monkeypatch.setitem(REGISTRY, ("common", 1), ("AVRO", "C", [("x", "address", 2)]))
    with pytest.raises(ReferenceProblem, match="circle: address v2 -> common v1 -> address v2"):
        resolve([("acme.Address", "address", 2)], fetch)
    with pytest.raises(ReferenceProblem, match="gone v3 is not in the registry"):
        resolve([("g", "gone", 3)], fetch)


def test_the_number_of_schemas_followed_is_bounded():
    def chain(subject: str, version: int):
        return ("AVRO", subject, [(f"n{version + 1}", "s", version + 1)])

    with pytest.raises(ReferenceProblem, match=f"more than {MAX_REFERENCES}"):
        resolve([("n0", "s", 0)], chain)

"""ACL bindings as files, to export from one cluster and import into another (or back).

Two formats, with the API's own names and values (as kafka-acls.sh prints them):

- CSV: the header `resource_type,resource_name,pattern_type,principal,host,operation,permission`
  then one binding per line; `pattern_type`, `host` and `permission` may be left empty
  (LITERAL, `*`, ALLOW), as in a create.
- JSON: `{"bindings": [{...the same seven fields...}]}`, what `GET acls` answers inside.

Pure: no Kafka. Every line is checked as a create checks a binding, and a refusal names the
line (`content` line 3: ...), so a file is taken whole or not at all.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable

from access.acls import AclBinding, binding
from console.errors import BadInput

FIELDS = (
    "resource_type",
    "resource_name",
    "pattern_type",
    "principal",
    "host",
    "operation",
    "permission",
)
FORMATS = ("csv", "json")
MAX_BINDINGS = 10_000


def to_csv(rows: Iterable[dict[str, str]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: row[k] for k in FIELDS})
    return out.getvalue()


def to_json(rows: Iterable[dict[str, str]]) -> str:
    return json.dumps({"bindings": [{k: r[k] for k in FIELDS} for r in rows]}, indent=2) + "\n"


def _bad(line: int | None, message: str) -> BadInput:
    where = f"line {line}: " if line else ""
    return BadInput(
        "content", f"content: {where}{message}", details={"field": "content", "line": line}
    )


def _checked(items: list[tuple[int | None, dict]]) -> list[AclBinding]:
    if len(items) > MAX_BINDINGS:
        raise _bad(None, f"at most {MAX_BINDINGS:,} bindings per file.")
    out = []
    for line, item in items:
        given = {k: v for k, v in item.items() if v not in (None, "")}
        unknown = sorted(set(given) - set(FIELDS))
        if unknown:
            raise _bad(line, f"unknown field {unknown[0]!r} (a binding takes {', '.join(FIELDS)}).")
        try:
            out.append(binding(given, "binding"))
        except BadInput as exc:
            raise _bad(line, exc.message) from None
    return out


def read(content: str, fmt: str) -> list[AclBinding]:
    """The bindings of a file, every one checked; a 400 naming the first bad line."""
    if fmt == "json":
        try:
            data = json.loads(content)
        except ValueError as exc:
            raise _bad(getattr(exc, "lineno", None), f"not JSON ({exc.msg}).") from None
        if not isinstance(data, dict) or not isinstance(data.get("bindings"), list):
            raise _bad(None, 'expected {"bindings": [...]}.')
        items = data["bindings"]
        if not all(isinstance(i, dict) for i in items):
            raise _bad(None, "each binding is an object.")
        return _checked([(None, item) for item in items])
    reader = csv.DictReader(io.StringIO(content))
    header = reader.fieldnames or []
    missing = [
        f for f in ("resource_type", "resource_name", "principal", "operation") if f not in header
    ]
    if missing:
        raise _bad(1, f"the header lacks {', '.join(missing)} (give {','.join(FIELDS)}).")
    rows = []
    for row in reader:
        if None in row:  # more cells than the header has
            raise _bad(reader.line_num, "more cells than the header names.")
        rows.append((reader.line_num, row))
    return _checked(rows)

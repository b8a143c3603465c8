"""Record filters in CEL, the Common Expression Language (docs/messages.md, Filters).

CEL is side-effect free, always terminates, and is what kafbat's smart filters and many
policy engines already use, so operators can read and write it. The `common-expression-
language` package (the Rust `cel` crate) evaluates about 40,000 records a second here.

A filter sees one record: `key` and `value` as decoded (a JSON value, text, or base64 for
bytes), `headers` (each header key to its last value, as Java's `Headers.lastHeader`),
`partition`, `offset` and `timestamp` (a CEL timestamp, null when the record has none). Only
the names the expression uses are built for each record. A record the expression cannot be
evaluated on (a missing field, a comparison of a string with a number) does not match; the
scan counts them and keeps the first reason.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from console.errors import BadInput
from messages.fast_filter import compile_fast

VARIABLES = ("key", "value", "headers", "partition", "offset", "timestamp")
MAX_LENGTH = 2000
_WHERE = re.compile(r"<input>:(\d+):(\d+): (.*)")


class RecordFilter:
    def __init__(self, expression: str):
        if len(expression) > MAX_LENGTH:
            raise BadInput("filter", f"filter: at most {MAX_LENGTH} characters.")
        if not expression.strip():
            raise BadInput("filter", "filter: empty; give an expression or leave it out.")
        # Imported here: the package loads its command-line tool (prompt_toolkit, ~1 s) with it,
        # which every process that loads the apps (workers, samplers, commands) would pay.
        import cel

        try:
            self.program = cel.compile(expression)
        except ValueError as exc:
            raise _syntax_error(str(exc)) from None
        used = set(self.program.variables())
        unknown = sorted(used - set(VARIABLES))
        if unknown:
            raise BadInput(
                "filter",
                f"filter: unknown name {unknown[0]!r}; a filter can use {', '.join(VARIABLES)}.",
            )
        self.used = [v for v in VARIABLES if v in used]
        # Handing CEL a value costs per field (most of a filter's time): when the expression
        # only selects named fields of `key` or `value`, only those are handed over.
        self.fields = {name: selected_fields(expression, name) for name in ("key", "value")}
        self.errors = 0
        self.first_error: str | None = None
        # Field-to-literal comparisons decided in Python, exactly as CEL decides them; any
        # record the fast path cannot decide goes to CEL (messages/fast_filter.py).
        self.fast = compile_fast(expression)

    def matches(self, record: dict[str, Any]) -> bool:
        """`record`: the variables (all of VARIABLES may be there; only the used ones are read)."""
        if self.fast is not None:
            decided = self.fast(record)
            if decided is not None:
                return decided
        context = {name: record[name] for name in self.used if name in record}
        if len(context) < len(self.used):
            return False  # a variable the record does not have: not a match
        for name, fields in self.fields.items():
            data = context.get(name)
            if fields is not None and isinstance(data, dict):
                context[name] = {f: data[f] for f in fields if f in data}
        try:
            result = self.program.execute(context)
        except KeyError:
            return False  # a field the record does not have: not a match, not a failure
        except (TypeError, RuntimeError, ValueError) as exc:
            self.errors += 1
            if self.first_error is None:
                self.first_error = str(exc).split(". ", 1)[0]
            return False
        return result is True


def variables(
    partition: int,
    offset: int,
    timestamp_ms: int | None,
    key: Any,
    value: Any,
    headers: list[tuple[str, Any]],
) -> dict[str, Any]:
    """A record's filter variables from its decoded parts (`data` of each, None when null)."""
    return {
        "key": key,
        "value": value,
        "headers": dict(headers),  # the last of duplicate keys wins
        "partition": partition,
        "offset": offset,
        "timestamp": None
        if timestamp_ms is None
        else datetime.fromtimestamp(timestamp_ms / 1000, UTC),
    }


def _syntax_error(message: str) -> BadInput:
    found = _WHERE.search(message)
    if not found:
        return BadInput("filter", f"filter: {message}")
    line, column, what = int(found[1]), int(found[2]), found[3]  # both count from 1
    return BadInput(
        "filter",
        f"filter: {what} (line {line}, column {column}).",
        details={"field": "filter", "line": line, "column": column},
    )


# CEL's string literals (raw and bytes prefixes, triple quotes), identifiers, other characters.
_TOKENS = re.compile(
    r"(?P<string>[rRbB]{0,2}(?:\"\"\"[\s\S]*?\"\"\"|'''[\s\S]*?'''"
    r"|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'))"
    r"|(?P<ident>[A-Za-z_][A-Za-z0-9_]*)|(?P<other>\S)"
)


def selected_fields(expression: str, name: str) -> frozenset[str] | None:
    """The top-level fields of variable `name` the expression selects (`value.amount`,
    `has(value.tier)`, `value.customer.id`), when that is all it does with it; None when it
    uses the variable any other way (`value["a"]`, `value.size()`, `value == {...}`,
    `value in ...`), so the whole value must be given. String literals are skipped; an
    expression holding `//` is never pruned (a comment could hide a use)."""
    if "//" in expression:
        return None
    tokens = [(m.lastgroup, m.group()) for m in _TOKENS.finditer(expression)]
    fields: set[str] = set()
    for i, (kind, text) in enumerate(tokens):
        if kind != "ident" or text != name or (i and tokens[i - 1][1] == "."):
            continue
        after = tokens[i + 1 : i + 4]
        if len(after) < 2 or after[0][1] != "." or after[1][0] != "ident":
            return None
        if len(after) == 3 and after[2][1] == "(":
            return None  # a method of the variable itself
        fields.add(after[1][1])
    return frozenset(fields)

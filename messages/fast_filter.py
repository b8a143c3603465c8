"""A fast path for the simplest filters: comparisons of record fields with literals, joined by
`&&`, `||` and `!`, evaluated in Python instead of handing each record to CEL.

A scan spends most of its time per record in CEL's `execute` (the Python-to-CEL conversion of
the fields and the call), about 15 µs; these filters are most of what operators type
(`value.amount == 42`, `key == "eq-7" && value.state != "OK"`). The fast path decides only what
it can decide exactly as CEL would: both sides of a comparison of the same plain type (int,
double, string or bool; ints within CEL's 64 bits), every field present, every step into a
map. For anything else it answers None and the record goes to CEL (`filtering.RecordFilter`),
so a record matches here exactly when it matches there; tests/unit/test_fast_filter.py checks
that on generated expressions and records. An expression outside the grammar below (any
function but `has`, arithmetic, `in`, lists, null, timestamps, escapes in strings) has no fast
path at all.

    expr    := and ("||" and)*
    and     := unary ("&&" unary)*
    unary   := "!" unary | "(" expr ")" | "has" "(" path ")" | compare
    compare := operand (("==" | "!=" | "<" | "<=" | ">" | ">=") operand)?
    operand := path | int | double | string | "true" | "false"
    path    := ("key" | "value" | "headers" | "partition" | "offset") ("." ident)*
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from typing import Any

PATH_ROOTS = ("key", "value", "headers", "partition", "offset")
_INT64 = (-(2**63), 2**63)
_MAX_DEPTH = 64
_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|\d+)(?![\w.])"
    r"|(?P<str>\"[^\"\\\n]*\"|'[^'\\\n]*')"
    r"|(?P<ident>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op>&&|\|\||==|!=|<=|>=|[<>!().]))"
)
_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
_PLAIN = (int, float, str, bool)
_MISSING = object()

# A compiled node: record variables -> True, False, or None (undecided: ask CEL).
Node = Callable[[dict[str, Any]], bool | None]


class _NoFastPath(Exception):
    pass


def compile_fast(expression: str) -> Node | None:
    """The expression's fast path, or None when it is outside the grammar."""
    tokens = _tokenize(expression)
    if tokens is None:
        return None
    parser = _Parser(tokens)
    try:
        node = parser.expr(0)
        if parser.pos != len(tokens):
            return None
    except (_NoFastPath, IndexError):
        return None
    return node


def _tokenize(expression: str) -> list[tuple[str, str]] | None:
    tokens, pos = [], 0
    text = expression.rstrip()
    while pos < len(text):
        found = _TOKEN.match(text, pos)
        if found is None or found.end() == pos:
            return None
        kind = found.lastgroup
        assert kind is not None
        tokens.append((kind, found.group(kind)))
        pos = found.end()
    return tokens


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]]):
        self.tokens, self.pos = tokens, 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, text: str | None = None) -> tuple[str, str]:
        token = self.tokens[self.pos]
        if text is not None and token[1] != text:
            raise _NoFastPath
        self.pos += 1
        return token

    def expr(self, depth: int) -> Node:
        if depth > _MAX_DEPTH:
            raise _NoFastPath
        nodes = [self.conjunction(depth)]
        while self.peek() == ("op", "||"):
            self.take()
            nodes.append(self.conjunction(depth))
        return nodes[0] if len(nodes) == 1 else _any(nodes)

    def conjunction(self, depth: int) -> Node:
        nodes = [self.unary(depth)]
        while self.peek() == ("op", "&&"):
            self.take()
            nodes.append(self.unary(depth))
        return nodes[0] if len(nodes) == 1 else _all(nodes)

    def unary(self, depth: int) -> Node:
        token = self.peek()
        if token is not None and (
            token == ("op", "!") or token == ("op", "(") or token == ("ident", "has")
        ):
            node = self.negatable(depth)
            self.no_compare()  # `!a == b` is `(!a) == b` in CEL: not for the fast path
            return node
        left = self.operand()
        following = self.peek()
        if following is not None and following[0] == "op" and following[1] in _COMPARE:
            self.take()
            right = self.operand()
            self.no_compare()  # `a < b < c`
            return _compare(left, following[1], right)
        return _truth(left)

    def negatable(self, depth: int) -> Node:
        """What `!` applies to: another `!`, a parenthesised expression, has(), an operand."""
        if depth > _MAX_DEPTH:
            raise _NoFastPath
        token = self.peek()
        if token == ("op", "!"):
            self.take()
            return _not(self.negatable(depth + 1))
        if token == ("op", "("):
            self.take()
            inner = self.expr(depth + 1)
            self.take(")")
            return inner
        if token == ("ident", "has"):
            self.take()
            self.take("(")
            path = self.path()
            self.take(")")
            if len(path) < 2:
                raise _NoFastPath  # has() needs a field selection
            return _has(path)
        return _truth(self.operand())

    def no_compare(self) -> None:
        following = self.peek()
        if following is not None and following[0] == "op" and following[1] in _COMPARE:
            raise _NoFastPath

    def operand(self) -> Callable[[dict[str, Any]], Any]:
        kind, text = self.peek() or ("", "")
        if kind == "num":
            self.take()
            number: int | float = float(text) if any(c in text for c in ".eE") else int(text)
            if isinstance(number, int) and not _INT64[0] <= number < _INT64[1]:
                raise _NoFastPath
            return lambda _: number
        if kind == "str":
            self.take()
            literal = text[1:-1]
            return lambda _: literal
        if kind == "ident" and text in ("true", "false"):
            self.take()
            flag = text == "true"
            return lambda _: flag
        return _resolver(self.path())

    def path(self) -> list[str]:
        kind, root = self.take()
        if kind != "ident" or root not in PATH_ROOTS:
            raise _NoFastPath
        path = [root]
        while self.peek() == ("op", "."):
            self.take()
            kind, name = self.take()
            if kind != "ident" or name in ("true", "false", "null", "in", "has"):
                raise _NoFastPath
            path.append(name)
        if self.peek() == ("op", "("):
            raise _NoFastPath  # a method call: value.size(), key.startsWith(...)
        return path


def _resolver(path: list[str]) -> Callable[[dict[str, Any]], Any]:
    root, fields = path[0], path[1:]

    def resolve(record: dict[str, Any]) -> Any:
        current = record.get(root, _MISSING)
        for name in fields:
            if type(current) is not dict:
                return _MISSING  # not a map (or missing): CEL decides
            current = current.get(name, _MISSING)
        return current

    return resolve


def _plain(value: Any) -> bool:
    kind = type(value)
    if kind is int:
        return _INT64[0] <= value < _INT64[1]
    return kind in _PLAIN


def _compare(
    left: Callable[[dict[str, Any]], Any], name: str, right: Callable[[dict[str, Any]], Any]
) -> Node:
    op = _COMPARE[name]
    ordering = name not in ("==", "!=")

    def node(record: dict[str, Any]) -> bool | None:
        a, b = left(record), right(record)
        if type(a) is not type(b) or not _plain(a) or not _plain(b):
            return None  # mixed types, null, a list or map, a missing field: CEL decides
        if ordering and type(a) is bool:
            return None  # bools are only compared for equality here
        return op(a, b)

    return node


def _truth(operand: Callable[[dict[str, Any]], Any]) -> Node:
    def node(record: dict[str, Any]) -> bool | None:
        value = operand(record)
        return value if type(value) is bool else None

    return node


def _has(path: list[str]) -> Node:
    parent, name = _resolver(path[:-1]), path[-1]

    def node(record: dict[str, Any]) -> bool | None:
        holder = parent(record)
        return name in holder if type(holder) is dict else None

    return node


def _not(inner: Node) -> Node:
    def node(record: dict[str, Any]) -> bool | None:
        value = inner(record)
        return None if value is None else not value

    return node


def _all(nodes: list[Node]) -> Node:
    def node(record: dict[str, Any]) -> bool | None:
        # Every part decided, or CEL decides the whole (its error rules for && differ).
        values = [n(record) for n in nodes]
        return None if None in values else all(values)

    return node


def _any(nodes: list[Node]) -> Node:
    def node(record: dict[str, Any]) -> bool | None:
        values = [n(record) for n in nodes]
        return None if None in values else any(values)

    return node

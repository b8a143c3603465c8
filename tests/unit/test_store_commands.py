"""The Redis commands the lag store writes as RESP itself (groups.lag.store): read back by
hiredis, the parser redis-py uses, they are the commands meant. No Redis needed."""

from __future__ import annotations

import hiredis

from groups.lag import store


def _parsed(pieces: list[bytes]) -> list[bytes]:
    reader = hiredis.Reader()
    reader.feed(b"".join(pieces))
    command = reader.gets()
    assert reader.gets() is False  # nothing left over
    return command


def test_an_hset_command_carries_every_field_and_value_as_given():
    fields = [
        ("g-1", b'{"lag":3}'),
        ("gruppe-ü", "{\\ud800}"),  # a str value (json's fallback) and a non-ASCII group id
        ("", b""),
        ("g\r\n2", b"line\r\nbreak"),  # CR LF inside: lengths, not delimiters, frame them
    ]
    assert _parsed(store._hset_command("kc:lag:x:staging:1", fields)) == [
        b"HSET",
        b"kc:lag:x:staging:1",
        b"g-1",
        b'{"lag":3}',
        "gruppe-ü".encode(),
        b"{\\ud800}",
        b"",
        b"",
        b"g\r\n2",
        b"line\r\nbreak",
    ]


def test_a_plain_command_and_two_in_one_write():
    expire = store._command(b"EXPIRE", b"k", b"30")
    assert _parsed(expire) == [b"EXPIRE", b"k", b"30"]
    reader = hiredis.Reader()
    reader.feed(b"".join(store._hset_command("h", [("f", b"v")]) + expire))
    assert reader.gets() == [b"HSET", b"h", b"f", b"v"]
    assert reader.gets() == [b"EXPIRE", b"k", b"30"]

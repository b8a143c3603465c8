"""The client's address: the connection's peer, or what a trusted reverse proxy reports.

`TRUSTED_PROXIES` (comma-separated CIDRs, default empty) lists the proxies in front of the
console. When the peer (REMOTE_ADDR) is one of them, the client is the rightmost
X-Forwarded-For entry that is not itself a trusted proxy: each proxy appends the address it
saw, so everything left of that entry was written by the client and proves nothing. From any
other peer X-Forwarded-For is ignored. (`/metrics`, groups/lag/metrics_view.py, deliberately
uses the peer only: README's Prometheus section.)
"""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Iterable, Sequence

from django.conf import settings
from django.http import HttpRequest

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(items: Iterable[str]) -> tuple[IPNetwork, ...]:
    """CIDRs (a bare address is a /32 or /128); raises ValueError on a bad one."""
    return tuple(ipaddress.ip_network(item.strip(), strict=False) for item in items)


@functools.cache
def _trusted(cidrs: tuple[str, ...]) -> tuple[IPNetwork, ...]:
    # settings.py has validated them; parse once per distinct value.
    return parse_networks(cidrs)


def parse_address(text: str) -> IPAddress | None:
    """An address as proxies write it (`a.b.c.d`, `a.b.c.d:port`, `v6`, `[v6]:port`), an
    IPv4 client on a dual-stack socket (`::ffff:a.b.c.d`) as IPv4; None if it is none."""
    text = text.strip()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def resolve(peer: str, forwarded_for: str, trusted: Sequence[IPNetwork]) -> str:
    """The client address for a connection from `peer` carrying `forwarded_for` (the
    X-Forwarded-For value, repeated headers joined by commas), given the trusted proxies."""
    current = parse_address(peer)
    if current is None:
        return peer  # no IP peer (a Unix socket): nothing to resolve against
    for entry in reversed(forwarded_for.split(",") if forwarded_for else []):
        if not any(current in net for net in trusted):
            break
        hop = parse_address(entry)
        if hop is None:
            # A trusted proxy writes addresses; garbage here came from the client, and a
            # client-chosen key would dodge any per-address limit: keep the last known hop.
            break
        current = hop
    # Every hop trusted (a client inside the proxies' own network): the leftmost one.
    return str(current)


def client_address(request: HttpRequest) -> str:
    """The client's address for `request` (see the module's docstring); "" if unknown."""
    return resolve(
        str(request.META.get("REMOTE_ADDR") or ""),
        str(request.META.get("HTTP_X_FORWARDED_FOR") or ""),
        _trusted(tuple(settings.TRUSTED_PROXIES)),
    )

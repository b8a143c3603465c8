"""Where the lag sampler keeps what it measured: Redis, bounded, read by every web server.

Keys (cluster and group names are hashed: they may hold any text):
- `kc:lag:{c}:latest`  hash group -> evaluation JSON (docs/live-lag.md), replaced each pass
- `kc:lag:{c}:meta`    the last pass: ts, ok, error, duration, counts, the Kafka cluster id
- `kc:lag:{c}:win`     hash group -> the sampler's windows, so a standby can take over
- `kc:lag:{c}:rows`    hash group -> the groups list's row (groups.lag.rows), as `latest`
- `kc:lag:staging:{id}` a hash being written, renamed over one of the above when complete
- `kc:lag:{c}:h1:{g}`  list of compact points, one per sample, last hour
- `kc:lag:{c}:h24:{g}` list of compact points, one per minute, last 24 hours
- `kc:lag:{c}:lease`   the id of the sampler that works on the cluster
- `kc:lag:samplers`    hash sampler id -> {"expires", "clusters", "held"}: the live samplers,
                       so that they spread the leases (groups/lag/spread.py)

Everything has a TTL, so a group that was deleted (or a cluster no longer sampled) disappears
by itself. When Redis does not answer, calls raise `StoreUnavailable` at once for a few
seconds instead of waiting on every request (the REST API then reads Kafka directly).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import math
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import orjson
import redis
from django.conf import settings

from console import leases

PREFIX = "kc:lag"
SAMPLERS_KEY = f"{PREFIX}:samplers"
H24_POINTS = 24 * 60
H1_SECONDS = 3600
H24_SECONDS = 24 * 3600
# The week series: one point every 10 minutes, for an incident's timeline days later.
D7_STEP_SECONDS = 600
D7_SECONDS = 7 * 24 * 3600
D7_POINTS = D7_SECONDS // D7_STEP_SECONDS
# After a failed call, fail fast for this long (then try Redis again).
RETRY_AFTER_S = 2.0

_lock = threading.Lock()
_clients: dict[str, redis.Redis] = {}
_down_until = 0.0


class StoreUnavailable(Exception):
    """Redis did not answer (or answered with an error)."""


def _dumps(value: Any) -> bytes | str:
    """Compact JSON; orjson (5x faster than json on a pass's thousands of evaluations), json
    for the rare text orjson refuses (lone surrogates, kept escaped as before)."""
    try:
        return orjson.dumps(value)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(value, separators=(",", ":"))


def json_text(value: Any) -> str:
    """`_dumps` as text (the sampler's pushed messages)."""
    raw = _dumps(value)
    return raw.decode() if isinstance(raw, bytes) else raw


def json_bytes(value: Any) -> bytes:
    """`_dumps` as bytes (a response body)."""
    raw = _dumps(value)
    return raw if isinstance(raw, bytes) else raw.encode()


def _loads(raw: bytes | str) -> Any:
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return json.loads(raw)


def _hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8", "backslashreplace")).hexdigest()[:20]


@functools.lru_cache(maxsize=1 << 17)  # two SHA-1s per key: 3 series keys per group
def key(cluster: str, kind: str, group: str | None = None) -> str:
    base = f"{PREFIX}:{_hash(cluster)}:{kind}"
    return base if group is None else f"{base}:{_hash(group)}"


def _client() -> redis.Redis:
    url = settings.REDIS_URL
    with _lock:
        client = _clients.get(url)
        if client is None:
            client = _clients[url] = redis.Redis.from_url(
                url, socket_timeout=2.0, socket_connect_timeout=1.0, retry_on_timeout=False
            )
        return client


def _call(fn: Any) -> Any:
    """Run `fn(client)`; map Redis failures to StoreUnavailable and remember them briefly."""
    global _down_until
    if time.monotonic() < _down_until:
        raise StoreUnavailable("Redis did not answer a moment ago.")
    try:
        return fn(_client())
    except (redis.RedisError, OSError) as exc:
        _down_until = time.monotonic() + RETRY_AFTER_S
        raise StoreUnavailable(f"Redis: {exc}") from None


def _ttl(interval_s: float) -> int:
    return max(30, math.ceil(10 * interval_s))


def h1_length(interval_s: float) -> int:
    return math.ceil(H1_SECONDS / max(interval_s, 0.1))


# --- writes (the sampler) --------------------------------------------------------------------


# Fields per HSET while a pass's hashes are staged: a bounded piece of JSON in memory at once
# (one pipeline of every group's JSON made a 20,000-group pass's RSS jump by ~400 MB).
STAGE_CHUNK = 1000


def write_latest(
    cluster: str,
    evaluations: Mapping[str, dict[str, Any]],
    meta: dict[str, Any],
    windows: Iterable[tuple[str, Any]] | None = None,
    interval_s: float = 5.0,
    row_of: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> None:
    """Replace the cluster's latest evaluations, the groups list's rows (`row_of` each
    evaluation) and, when given, the windows, all at once for readers.

    Each hash is written in pieces to a staging key of this write's own, then every staged
    key is renamed over its hash in one transaction with the pass record: a reader sees the
    whole last pass or the whole new one, and the sampler never holds more than a piece of
    JSON. A write that dies half-way leaves only staging keys, which expire."""
    ttl = _ttl(interval_s)
    rows = ((g, row_of(e)) for g, e in evaluations.items()) if row_of else ()
    hashes: list[tuple[str, Iterable[tuple[str, Any]]]] = [
        ("latest", evaluations.items()),
        ("rows", rows),
    ]
    if windows is not None:
        hashes.append(("win", windows))
    staged = [(key(cluster, kind), _stage(values, ttl)) for kind, values in hashes]

    def swap(r: redis.Redis) -> None:
        pipe = r.pipeline(transaction=True)
        for name, staging in staged:
            if staging is None:
                pipe.delete(name)
            else:
                pipe.rename(staging, name)
                pipe.expire(name, ttl)
        # The interval says when the pass is stale (groups.lag.rest.groups_from_pass).
        pipe.set(key(cluster, "meta"), _dumps({**meta, "interval_s": interval_s}), ex=ttl)
        pipe.execute()

    _call(swap)


def _stage(values: Iterable[tuple[str, Any]], ttl: int) -> str | None:
    """`values` as JSON in a new hash under a staging key of its own (None when empty)."""
    staging = f"{PREFIX}:staging:{uuid.uuid4().hex}"
    written = False
    for piece in _pieces(values, STAGE_CHUNK):
        commands = [_hset_command(staging, [(g, _dumps(v)) for g, v in piece])]
        if not written:
            commands.append(_command(b"EXPIRE", staging.encode(), b"%d" % ttl))
            written = True
        _call(lambda r, c=commands: _send_commands(r, c))
    return staging if written else None


def _command(*args: bytes) -> list[bytes]:
    """A Redis command as RESP (an array of bulk strings), in pieces for one join."""
    out = [b"*%d\r\n" % len(args)]
    for arg in args:
        out += _bulk(arg)
    return out


def _bulk(arg: bytes) -> tuple[bytes, bytes, bytes]:
    return b"$%d\r\n" % len(arg), arg, b"\r\n"


def _hset_command(name: str, fields: list[tuple[str, bytes | str]]) -> list[bytes]:
    """HSET `name` with `fields` as RESP pieces. Made here rather than by redis-py's packer,
    which took 10 ms of a pass for the 8 MB of JSON of 2,000 groups' evaluations; this copies
    each value once, into the join."""
    out = [b"*%d\r\n" % (2 + 2 * len(fields)), *_bulk(b"HSET"), *_bulk(name.encode())]
    for field, value in fields:
        out += _bulk(field.encode())
        out += _bulk(value if isinstance(value, bytes) else value.encode())
    return out


def _send_commands(r: redis.Redis, commands: list[list[bytes]]) -> list[Any]:
    """Send `commands` (RESP pieces) in one write and read their replies; a Redis error
    reply is raised (redis.ResponseError) after the connection is dropped, so no reply is
    left unread on a connection the pool hands out again."""
    pool = r.connection_pool
    conn = pool.get_connection()
    try:
        conn.send_packed_command([b"".join(itertools.chain.from_iterable(commands))])
        return [conn.read_response() for _ in commands]
    except BaseException:
        conn.disconnect()
        raise
    finally:
        pool.release(conn)


def _pieces(values: Iterable[tuple[str, Any]], size: int) -> Iterator[list[tuple[str, Any]]]:
    """`values` in lists of `size` (itertools.batched, Python 3.12)."""
    it = iter(values)
    while piece := list(itertools.islice(it, size)):
        yield piece


def write_meta(cluster: str, meta: dict[str, Any], interval_s: float = 5.0) -> None:
    """Only the pass record (a pass that could not reach Kafka keeps the last evaluations)."""
    record = _dumps({**meta, "interval_s": interval_s})
    _call(lambda r: r.set(key(cluster, "meta"), record, ex=_ttl(interval_s)))


def write_windows(
    cluster: str, windows: Iterable[tuple[str, Any]], interval_s: float = 5.0
) -> None:
    """Only the windows (a sampler handing the cluster over stores this pass's for the next)."""
    name, ttl = key(cluster, "win"), _ttl(interval_s)
    staging = _stage(windows, ttl)

    def swap(r: redis.Redis) -> None:
        if staging is None:
            r.delete(name)
            return
        pipe = r.pipeline(transaction=True)
        pipe.rename(staging, name)
        pipe.expire(name, ttl)
        pipe.execute()

    _call(swap)


# Appends each point to its group's hour list (and day list, on a minute pass), trimmed and
# with its TTL renewed, in Redis: one command for many groups instead of three to six each
# (redis-py packing ~6 commands per group cost 0.06 s of a pass at 2,000 groups).
# KEYS: the hour lists, then the day lists when ARGV[5] is "1", then the week lists when
# ARGV[8] is "1"; ARGV[9..]: the points.
_APPEND = """
local keep, h1_ttl, day_keep, day_ttl = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local minute, week_keep, week_ttl = ARGV[5] == '1', ARGV[6], ARGV[7]
local ten_minutes = ARGV[8] == '1'
local n = #ARGV - 8
local week_first = n + 1
if minute then week_first = 2 * n + 1 end
for i = 1, n do
  local point = ARGV[i + 8]
  redis.call('rpush', KEYS[i], point)
  redis.call('ltrim', KEYS[i], -keep, -1)
  redis.call('expire', KEYS[i], h1_ttl)
  if minute then
    redis.call('rpush', KEYS[n + i], point)
    redis.call('ltrim', KEYS[n + i], -day_keep, -1)
    redis.call('expire', KEYS[n + i], day_ttl)
  end
  if ten_minutes then
    local k = KEYS[week_first + i - 1]
    redis.call('rpush', k, point)
    redis.call('ltrim', k, -week_keep, -1)
    redis.call('expire', k, week_ttl)
  end
end
return n
"""
# Groups per script call: Redis serves nobody else while one runs (~2 ms per 1,000 groups).
_APPEND_CHUNK = 1000


def append_history(
    cluster: str,
    points: dict[str, list[Any]],
    minute_points: bool,
    interval_s: float = 5.0,
    ten_minute_points: bool = False,
) -> None:
    """Append one compact point per group to the hour series (and, once a minute, to the
    day series; once every 10 minutes, to the week series). A point is
    `[ts, {topic: [lag, lag_seconds, write/s, consume/s, status]}]`."""
    keep = h1_length(interval_s)
    head = [keep, H1_SECONDS, H24_POINTS, H24_SECONDS, "1" if minute_points else "0"]
    head += [D7_POINTS, D7_SECONDS, "1" if ten_minute_points else "0"]
    groups = list(points)

    def run(r: redis.Redis) -> None:
        script = r.register_script(_APPEND)
        pipe = r.pipeline(transaction=False)
        for i in range(0, len(groups), _APPEND_CHUNK):
            chunk = groups[i : i + _APPEND_CHUNK]
            keys = [key(cluster, "h1", g) for g in chunk]
            if minute_points:
                keys += [key(cluster, "h24", g) for g in chunk]
            if ten_minute_points:
                keys += [key(cluster, "d7", g) for g in chunk]
            script(keys=keys, args=head + [_dumps(points[g]) for g in chunk], client=pipe)
        pipe.execute()

    if points:
        _call(run)


# --- reads (web servers, sockets, /metrics) -------------------------------------------------


def read_latest(cluster: str) -> dict[str, dict[str, Any]]:
    """group id -> the latest evaluation of every group of the cluster ({} when none)."""
    raw = _call(lambda r: r.hgetall(key(cluster, "latest")))
    return {g.decode(): _loads(v) for g, v in raw.items()}


def read_latest_and_meta(cluster: str) -> tuple[dict[str, dict[str, Any]], dict[str, Any] | None]:
    """`read_latest` and `read_meta` in one round trip (a /metrics scrape: the meta's
    `cluster_id` tells registry entries of one Kafka cluster apart)."""

    def run(r: redis.Redis) -> list[Any]:
        pipe = r.pipeline(transaction=False)
        pipe.hgetall(key(cluster, "latest"))
        pipe.get(key(cluster, "meta"))
        return pipe.execute()

    latest, meta = _call(run)
    evaluations = {g.decode(): _loads(v) for g, v in latest.items()}
    return evaluations, None if meta is None else _loads(meta)


def read_raw_rows(
    cluster: str,
) -> tuple[dict[bytes, bytes], dict[str, Any] | None, str | None]:
    """The groups list's rows of the latest pass as stored (group id -> the row's JSON, both
    bytes), the pass record and the lease holder, in one round trip (the list answered
    without reading every partition's evaluation)."""

    def run(r: redis.Redis) -> list[Any]:
        pipe = r.pipeline(transaction=False)
        pipe.hgetall(key(cluster, "rows"))
        pipe.get(key(cluster, "meta"))
        pipe.get(key(cluster, "lease"))
        return pipe.execute()

    rows, meta, holder = _call(run)
    return (
        rows,
        None if meta is None else _loads(meta),
        holder.decode() if isinstance(holder, bytes) else holder,
    )


def read_group(cluster: str, group: str) -> dict[str, Any] | None:
    raw = _call(lambda r: r.hget(key(cluster, "latest"), group))
    return None if raw is None else _loads(raw)


def read_meta(cluster: str) -> dict[str, Any] | None:
    raw = _call(lambda r: r.get(key(cluster, "meta")))
    return None if raw is None else _loads(raw)


def read_windows(cluster: str) -> dict[str, Any]:
    raw = _call(lambda r: r.hgetall(key(cluster, "win")))
    return {g.decode(): _loads(v) for g, v in raw.items()}


def read_history(cluster: str, group: str, window: str) -> list[list[Any]]:
    """The compact points of a group, oldest first; `window` is "1h", "24h" or "7d"."""
    kind = {"1h": "h1", "24h": "h24", "7d": "d7"}[window]
    raw = _call(lambda r: r.lrange(key(cluster, kind, group), 0, -1))
    return [_loads(item) for item in raw]


# --- the sampler's lease ---------------------------------------------------------------------


def hold_lease(cluster: str, owner: str, ttl_s: float) -> bool:
    """Take or renew the cluster's sampling lease; False when another sampler holds it."""
    return bool(_call(lambda r: leases.hold(r, key(cluster, "lease"), owner, ttl_s)))


def release_lease(cluster: str, owner: str) -> None:
    _call(lambda r: leases.release(r, key(cluster, "lease"), owner))


def lease_holder(cluster: str) -> str | None:
    return _call(lambda r: leases.holder(r, key(cluster, "lease")))


# --- the live samplers (who holds how many leases) ------------------------------------------

# An entry's expiry is in Redis's clock (TIME), the one every reader compares it with: the
# samplers' hosts may disagree on the time by more than an interval.
_PUBLISH_SAMPLER = """
local t = redis.call('TIME')
local expires = tonumber(t[1]) + tonumber(t[2]) / 1000000 + tonumber(ARGV[2])
local entry = string.format(
  '{"expires":%.3f,"held":%d,"clusters":%s}', expires, tonumber(ARGV[3]), ARGV[4])
redis.call('hset', KEYS[1], ARGV[1], entry)
redis.call('expire', KEYS[1], ARGV[5])
return 1
"""
# The whole registry's TTL: it disappears an hour after the last sampler stops.
SAMPLERS_TTL_S = 3600
# Readers drop entries expired this long ago; not at once, since the owner of an entry that
# just expired may be writing a fresh one between the read and the delete.
SAMPLERS_PRUNE_AFTER_S = 60.0


def publish_sampler(owner: str, clusters: list[str], held: int, ttl_s: float) -> None:
    """Say that sampler `owner` is alive for `ttl_s` more seconds, serves `clusters` and holds
    `held` leases."""
    names = json.dumps(sorted(clusters), separators=(",", ":"))
    _call(
        lambda r: r.eval(
            _PUBLISH_SAMPLER, 1, SAMPLERS_KEY, owner, ttl_s, int(held), names, SAMPLERS_TTL_S
        )
    )


def live_samplers() -> dict[str, dict[str, Any]]:
    """Sampler id -> {"expires", "clusters", "held"} of every sampler whose entry has not
    expired (long-expired ones are deleted on the way)."""

    def run(r: redis.Redis) -> dict[str, dict[str, Any]]:
        pipe = r.pipeline(transaction=False)
        pipe.time()
        pipe.hgetall(SAMPLERS_KEY)
        (seconds, micros), raw = pipe.execute()
        now = seconds + micros / 1e6
        live, dead = {}, []
        for owner, value in raw.items():
            try:
                entry = _loads(value)
                expires = float(entry["expires"])
            except (ValueError, TypeError, KeyError):
                dead.append(owner)  # not an entry this code writes
                continue
            if expires > now:
                live[owner.decode()] = entry
            elif expires < now - SAMPLERS_PRUNE_AFTER_S:
                dead.append(owner)
        if dead:
            r.hdel(SAMPLERS_KEY, *dead)
        return live

    return _call(run)


def remove_sampler(owner: str) -> None:
    _call(lambda r: r.hdel(SAMPLERS_KEY, owner))


def ping() -> bool:
    try:
        return bool(_call(lambda r: r.ping()))
    except StoreUnavailable:
        return False

"""Leases in Redis: one process of a kind does the work, the others stand by.

A lease is a key holding its owner's id with an expiry. The holder renews it well before it
expires; when the holder stops (or dies), another process takes it once the key expires. The
lag sampler holds one per cluster (groups/lag/service.py), the scheduler one in all
(sparkjobs/scheduler.py).
"""

from __future__ import annotations

import redis

# Renew only if we still hold it; take it only if nobody does.
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) and 1 or 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


def hold(client: redis.Redis, key: str, owner: str, ttl_s: float) -> bool:
    """Take or renew the lease `key` for `owner`; False when another owner holds it."""
    ms = str(max(1, int(ttl_s * 1000)))
    return bool(client.eval(_RENEW, 1, key, owner, ms))


def release(client: redis.Redis, key: str, owner: str) -> None:
    """Give the lease up now (only if `owner` holds it), so a standby need not wait."""
    client.eval(_RELEASE, 1, key, owner)


def holder(client: redis.Redis, key: str) -> str | None:
    raw = client.get(key)
    return raw.decode() if isinstance(raw, bytes) else raw

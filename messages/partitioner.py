"""Kafka's default partitioner for keyed records, as the Java producer computes it:
`toPositive(murmur2(keyBytes)) % numPartitions` (BuiltInPartitioner), with Kafka's murmur2
(seed 0x9747b28c, little-endian 4-byte blocks, a tail whose cases fall through). The console
picks the partition itself, so a record produced here lands where a Java client would put
the same key bytes, and the answer can name it."""

from __future__ import annotations

_M = 0x5BD1E995
_SEED = 0x9747B28C
_MASK = 0xFFFFFFFF


def murmur2(data: bytes) -> int:
    """Kafka's murmur2 of `data` as a signed 32-bit int (Utils.murmur2)."""
    length = len(data)
    h = (_SEED ^ length) & _MASK
    whole = length - length % 4
    for i in range(0, whole, 4):
        k = int.from_bytes(data[i : i + 4], "little")
        k = (k * _M) & _MASK
        k ^= k >> 24
        k = (k * _M) & _MASK
        h = (h * _M) & _MASK
        h ^= k
    tail = length % 4
    if tail == 3:
        h ^= data[whole + 2] << 16
    if tail >= 2:
        h ^= data[whole + 1] << 8
    if tail >= 1:
        h ^= data[whole]
        h = (h * _M) & _MASK
    h ^= h >> 13
    h = (h * _M) & _MASK
    h ^= h >> 15
    return h - (1 << 32) if h & 0x80000000 else h


def partition_for(key: bytes, partitions: int) -> int:
    """The partition the Java producer's default partitioner picks for these key bytes."""
    return (murmur2(key) & 0x7FFFFFFF) % partitions

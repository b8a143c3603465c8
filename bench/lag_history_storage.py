"""Redis memory of the lag history's week series (docs/live-lag.md, "Storage"): a week of
points, one every 10 minutes (1,008), for many group-topic series, written with the sampler's
own `append_history`, measured with Redis's MEMORY USAGE, and given per 1,000 committed
partitions for two layouts (each group reads one topic of 10 partitions; of 2 partitions).

    .venv/bin/python bench/lag_history_storage.py [--series 200] [--redis-db 0]

Needs the dev stack's Redis (`manage.py devstack up`); writes under a scratch cluster name and
deletes what it wrote."""

from __future__ import annotations

import argparse
import random
import uuid

from _harness import setup_django


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--series", type=int, default=200, help="group-topic series to write")
    args = parser.parse_args()
    setup_django()
    from groups.lag import store

    cluster = f"bench-history-{uuid.uuid4().hex[:6]}"
    groups = [f"bench-group-{i}" for i in range(args.series)]
    rng = random.Random(7)
    start = 1_764_000_000.0
    for n in range(store.D7_POINTS):
        points = {
            g: [
                start + n * store.D7_STEP_SECONDS,
                {
                    f"topic-{i % 50}": [
                        rng.randrange(0, 2_000_000),  # lag
                        round(rng.uniform(0, 900), 1),  # lag seconds
                        round(rng.uniform(0, 500), 2),  # write/s
                        round(rng.uniform(0, 500), 2),  # consume/s
                        rng.choice(["OK", "OK", "OK", "WARN", "ERR"]),
                    ]
                },
            ]
            for i, g in enumerate(groups)
        }
        store.append_history(cluster, points, minute_points=False, ten_minute_points=True)
    r = store._client()
    keys = [store.key(cluster, "d7", g) for g in groups]
    lengths = {r.llen(k) for k in keys}
    used = sum(r.memory_usage(k, samples=0) or 0 for k in keys)
    r.delete(*keys)
    per_series = used / len(keys)
    print(f"series: {len(keys)}, points each: {sorted(lengths)}")
    print(
        f"bytes per week series: {per_series:,.0f} ({per_series / store.D7_POINTS:.0f} per point)"
    )
    for partitions in (10, 2):
        per_thousand = per_series * 1000 / partitions / 1e6
        print(
            f"one topic of {partitions} partitions per group: {per_thousand:.1f} MB per 1,000 "
            "committed partitions"
        )


if __name__ == "__main__":
    main()

"""The sampler's evaluation step over constructed reads: no Kafka, no Redis."""

from __future__ import annotations

import orjson

from console.clusters import ClusterConfig
from console.kafka.types import GroupDescription, GroupListing, GroupMember
from groups.lag.evaluation import history_point, summarize
from groups.lag.read import GroupsRead
from groups.lag.retention import TopicRetention
from groups.lag.sampler import ClusterSampler
from groups.lag.timestamps import RecordTimestamps

T = "orders"


def _read(committed: dict, ends: dict, starts: dict, members: bool = True) -> GroupsRead:
    member = GroupMember("m-1", "client-1", "/10.0.0.1", sorted(committed))
    desc = GroupDescription(
        "g", "Stable" if members else "Empty", "consumer", "range",
        [member] if members else [], 1,
    )  # fmt: skip
    return GroupsRead(
        listings=[GroupListing("g", desc.state, False)],
        descriptions={"g": desc},
        committed={"g": committed},
        log_ends=ends,
        log_starts=starts,
    )


def _run(sampler: ClusterSampler, samples: list[tuple[float, dict, dict, dict, bool]]) -> dict:
    evaluations: dict = {}
    for at, committed, ends, starts, members in samples:
        read = _read(committed, ends, starts, members)
        sampler.update_windows(read, at)
        evaluations = sampler.evaluate(read, at)
    return evaluations["g"]


def test_a_group_falling_behind_while_committing_is_warn_with_rates():
    sampler = ClusterSampler(ClusterConfig("c", "x:1"), interval_s=5.0)
    samples = [
        (100.0 + 5 * i, {(T, 0): 10 * i}, {(T, 0): 30 * i + 5}, {(T, 0): 0}, True)
        for i in range(1, 6)
    ]
    evaluation = _run(sampler, samples)
    assert evaluation["status"] == "WARN"
    part = evaluation["partitions"][0]
    assert part["lag"] == 30 * 5 + 5 - 50
    assert part["write_per_s"] == 6.0 and part["consume_per_s"] == 2.0
    assert evaluation["catch_up_seconds"] is None  # consuming slower than writing: never
    assert part["member_id"] == "m-1" and part["host"] == "/10.0.0.1"
    topic = evaluation["topics"][T]
    assert topic["lag"] == evaluation["total_lag"] == part["lag"]
    assert history_point(evaluation)[1][T][0] == part["lag"]


def test_a_stopped_group_is_err_and_its_lag_seconds_come_from_the_record_timestamp():
    sampler = ClusterSampler(ClusterConfig("c", "x:1"), interval_s=5.0)
    samples = [
        (200.0 + 5 * i, {(T, 0): 40}, {(T, 0): 100 + 10 * i}, {(T, 0): 0}, False) for i in range(5)
    ]
    read = _read(*samples[-1][1:4], members=False)
    sampler.timestamps.known[((T, 0), 40)] = 150_000  # the record at 40 was written at 150 s
    evaluation = _run(sampler, samples)
    part = evaluation["partitions"][0]
    assert evaluation["status"] == "ERR" and part["status"] == "ERR"
    assert part["lag_seconds"] == 220.0 - 150.0 and part["lag_seconds_method"] == "timestamp"
    assert evaluation["max_lag_seconds"] == 70.0
    assert RecordTimestamps.wanted(read) == {((T, 0), 40)}


def test_retention_risk_follows_the_topic_settings_and_the_oldest_unread_record():
    sampler = ClusterSampler(ClusterConfig("c", "x:1"), interval_s=5.0)
    samples = [(200.0 + 5 * i, {(T, 0): 40}, {(T, 0): 100}, {(T, 0): 0}, False) for i in range(3)]
    sampler.timestamps.known[((T, 0), 40)] = 150_000  # 60 s old at the last sample (210 s)
    assert _run(sampler, samples)["retention_risk"] == "none"  # settings not read yet
    sampler.retentions.known[T] = TopicRetention(ms=65_000, bytes=None, deletes=True)
    evaluation = _run(sampler, samples)
    assert evaluation["retention_risk"] == "near"  # 5 s left, within 10 % of 65 s
    assert evaluation["retention_reason"] == (
        "orders-0: unread records can be deleted in 5 s: retention.ms is 1 m and the oldest "
        "unread record is 1 m old; the group is not catching up"
    )
    assert evaluation["partitions"][0]["retention_reason"].startswith("unread records")
    assert evaluation["topics"][T]["retention_reason"] == evaluation["retention_reason"]
    sampler.retentions.known[T] = TopicRetention(ms=7 * 86400_000, bytes=None, deletes=True)
    calm = _run(sampler, samples)  # at the log start of a young log: no danger
    assert calm["retention_risk"] == "none" and calm["retention_reason"] is None


def test_records_deleted_under_the_group_are_lost_risk_and_timed_at_the_log_start():
    sampler = ClusterSampler(ClusterConfig("c", "x:1"), interval_s=5.0)
    samples = [(300.0 + i, {(T, 0): 5}, {(T, 0): 500}, {(T, 0): 50}, True) for i in range(3)]
    evaluation = _run(sampler, samples)
    assert evaluation["retention_risk"] == "lost"
    read = _read(*samples[-1][1:4])
    assert RecordTimestamps.wanted(read) == {((T, 0), 50)}  # the oldest record that exists


def test_deleted_groups_and_partitions_leave_the_windows():
    sampler = ClusterSampler(ClusterConfig("c", "x:1"))
    _run(sampler, [(1.0, {(T, 0): 1, (T, 1): 1}, {(T, 0): 2, (T, 1): 2}, {}, True)])
    _run(sampler, [(2.0, {(T, 0): 1}, {(T, 0): 2}, {}, True)])
    assert set(sampler.windows.of("g")) == {(T, 0)}
    sampler.update_windows(GroupsRead([], {}, {}, {}, {}), 3.0)
    assert sampler.windows.by_group == {} and sampler.histories.by_partition == {}


def test_summarize_needs_every_rate_to_add_them_up():
    rows = [
        {"lag": 5, "lag_seconds": 2.0, "write_per_s": 1.0, "consume_per_s": None,
         "retention_risk": "none", "status": "OK"},
        {"lag": 0, "lag_seconds": 0.0, "write_per_s": 1.0, "consume_per_s": 3.0,
         "retention_risk": "near", "status": "WARN"},
    ]  # fmt: skip
    summary = summarize(rows)
    assert summary["lag"] == 5 and summary["write_per_s"] == 2.0
    assert summary["consume_per_s"] is None and summary["catch_up_seconds"] is None
    assert summary["retention_risk"] == "near" and summary["status"] == "WARN"


def test_log_starts_are_read_every_few_passes_and_for_new_partitions_at_once():
    from groups.lag.log_starts import LOG_STARTS_EVERY, LogStarts

    starts = LogStarts()
    a, b = (T, 0), (T, 1)
    assert starts.wanted([a, b], passes=0) == [a, b]  # the first pass reads them all
    starts.merge(_read({a: 5, b: 5}, {a: 9, b: 9}, {a: 2, b: None}))
    # Known ones are kept; b had no answer, so it is asked again, as is a new partition.
    c = (T, 2)
    assert starts.wanted([a, b, c], passes=1) == [b, c]
    read = _read({a: 5, b: 5, c: 1}, {a: 9, b: 9, c: 3}, {b: 4, c: 0})
    starts.merge(read)
    assert read.log_starts == {a: 2, b: 4, c: 0}  # the pass sees every log start
    assert starts.wanted([a, b, c], passes=LOG_STARTS_EVERY) == [a, b, c]
    # A partition no group reads any more is forgotten.
    starts.merge(_read({a: 5}, {a: 9}, {}))
    assert starts.known == {a: 2}


def _evaluate_fresh(sampler: ClusterSampler, read: GroupsRead, at: float) -> dict:
    sampler.evaluator.steady.by_group = {}  # nothing to reuse: every partition computed anew
    sampler.evaluator.still = {}
    return sampler.evaluate(read, at)


def test_reused_steady_partitions_evaluate_as_computing_them_afresh():
    import random

    rng = random.Random(8)
    reusing = ClusterSampler(ClusterConfig("c", "x:1"), interval_s=5.0, window=4)
    fresh = ClusterSampler(ClusterConfig("c", "x:1"), interval_s=5.0, window=4)
    tps = [(T, p) for p in range(6)]
    committed = dict.fromkeys(tps, 10)
    ends = dict.fromkeys(tps, 20)
    starts = dict.fromkeys(tps, 0)
    members, reused = True, 0
    for i in range(400):
        at = 1000.0 + 5 * i
        for tp in tps:  # mostly flat runs; now and then a commit, a write or a reset
            roll = rng.random()
            if roll < 0.05:
                committed[tp] = min(ends[tp], committed[tp] + rng.randint(1, 5))
            elif roll < 0.10:
                ends[tp] += rng.randint(1, 5)
            elif roll < 0.11:
                committed[tp] = max(0, committed[tp] - 3)
            elif roll < 0.12:
                starts[tp] = min(committed[tp] + 1, starts[tp] + 2)
        if rng.random() < 0.03:
            members = not members
        read = _read(dict(committed), dict(ends), dict(starts), members)
        for sampler in (reusing, fresh):
            sampler.update_windows(read, at)
        steady = reusing.evaluator.steady
        before = {tp: kept.row for tp, kept in steady.by_group.get("g", {}).items()}
        got = reusing.evaluate(read, at)
        want = _evaluate_fresh(fresh, read, at)
        assert got == want, i
        reused += sum(
            1 for tp, kept in steady.by_group.get("g", {}).items() if before.get(tp) is kept.row
        )
    assert reused > 100  # the flat runs were reused, not only recomputed


def _read_groups(
    committed: dict, ends: dict, starts: dict, members: dict, joins: dict | None = None
) -> GroupsRead:
    """A read of several groups: `committed`, `members` (has members or not) and `joins`
    (the member's generation, in its id) by group."""
    descriptions = {}
    for group, offsets in committed.items():
        member_id = f"{group}-m{(joins or {}).get(group, 0)}"
        member = GroupMember(member_id, "client", "/10.0.0.1", sorted(offsets))
        descriptions[group] = GroupDescription(
            group, "Stable" if members[group] else "Empty", "consumer", "range",
            [member] if members[group] else [], 1,
        )  # fmt: skip
    return GroupsRead(
        listings=[GroupListing(g, d.state, False, "consumer") for g, d in descriptions.items()],
        descriptions=descriptions,
        committed=committed,
        log_ends=ends,
        log_starts=starts,
    )


def test_still_groups_evaluate_as_computing_them_afresh():
    """Whole groups brought forward while nothing moves (Evaluator.still) equal a fresh
    evaluation every pass: record ages grow past the retention threshold, a timestamp is
    learnt late, settings and sizes change, members come and go, a pass stores its point
    without evaluating."""
    import random

    rng = random.Random(28)
    reusing = ClusterSampler(ClusterConfig("c", "x:1"), interval_s=5.0, window=4)
    fresh = ClusterSampler(ClusterConfig("c", "x:1"), interval_s=5.0, window=4)
    audit = "audit"
    layout = {f"g{i}": [(T, p) for p in range(i % 3 + 1)] + [(audit, i % 2)] for i in range(6)}
    tps = sorted({tp for group_tps in layout.values() for tp in group_tps})
    committed = {g: dict.fromkeys(group_tps, 10) for g, group_tps in layout.items()}
    ends = dict.fromkeys(tps, 20)
    starts = dict.fromkeys(tps, 0)
    members = dict.fromkeys(layout, True)
    rejoined = dict.fromkeys(layout, 0)
    settings = {
        T: TopicRetention(ms=1_500_000, bytes=None, deletes=True),
        audit: TopicRetention(ms=None, bytes=10_000_000, deletes=True),
    }
    sizes = dict.fromkeys([tp for tp in tps if tp[0] == audit], 4_000)
    still_used = 0
    for i in range(600):
        at = 1000.0 + 5 * i
        roll = rng.random()
        if roll < 0.04:  # a group commits
            group = rng.choice(list(layout))
            tp = rng.choice(layout[group])
            committed[group][tp] = min(ends[tp], committed[group][tp] + rng.randint(1, 4))
        elif roll < 0.08:  # a producer writes
            ends[rng.choice(tps)] += rng.randint(1, 4)
        elif roll < 0.09:  # retention deletes
            tp = rng.choice(tps)
            starts[tp] = min(ends[tp], starts[tp] + 3)
        elif roll < 0.10:  # a group empties or fills
            group = rng.choice(list(layout))
            members[group] = not members[group]
        elif roll < 0.11:  # a member rejoins: the group stays Stable, its member id changes
            group = rng.choice(list(layout))
            rejoined[group] += 1
        elif roll < 0.13:  # the topic's settings change
            ms = rng.choice([1_500_000, 900_000])
            settings[T] = TopicRetention(ms=ms, bytes=None, deletes=rng.random() < 0.8)
        elif roll < 0.15:  # a partition grows past retention.bytes, or is back under it
            tp = rng.choice(list(sizes))
            sizes[tp] = 20_000_000 if sizes[tp] == 4_000 else 4_000
        read = _read_groups(
            {g: dict(c) for g, c in committed.items()}, dict(ends), dict(starts), dict(members),
            dict(rejoined),
        )  # fmt: skip
        for sampler in (reusing, fresh):
            sampler.update_windows(read, at)
            # Each group's positions kept while its windows stay: the same as reading them all.
            assert sampler.wanted_timestamps(read) == RecordTimestamps.wanted(read), i
            sampler.retentions.known.update(settings)
            sampler.sizes.known.update(sizes)
            for position in RecordTimestamps.wanted(read):  # the record at offset o: 1900 + 2o s
                if not (position[0] == (T, 0) and i < 250):  # one learnt late: interpolated till
                    sampler.timestamps.known[position] = (1900 + 2 * position[1]) * 1000
        if rng.random() < 0.02:
            continue  # the pass stored its points, then failed before evaluating
        kept = dict(reusing.evaluator.still)
        got = reusing.evaluate(read, at)
        want = _evaluate_fresh(fresh, read, at)
        assert got == want, i
        still_used += sum(1 for g, k in kept.items() if reusing.evaluator.still.get(g) is k)
    assert still_used > 1000  # most group evaluations were brought forward, not recomputed
    risks = {p["retention_risk"] for p in got["g0"]["partitions"]}
    assert "near" in risks or any(e["retention_risk"] == "near" for e in got.values())


def test_a_point_no_evaluation_saw_stops_the_reuse():
    """A pass that stored its point but failed before evaluating: the next evaluation sees
    a window that is no longer flat, though its newest point repeats the old value."""
    sampler = ClusterSampler(ClusterConfig("c", "x:1"), interval_s=5.0, window=3)
    flat = [(100.0 + 5 * i, {(T, 0): 10}, {(T, 0): 20}, {(T, 0): 0}, True) for i in range(4)]
    assert _run(sampler, flat)["partitions"][0]["status"] == "STALL"
    assert sampler.evaluator.steady.by_group["g"]
    sampler.update_windows(_read({(T, 0): 4}, {(T, 0): 20}, {(T, 0): 0}), 120.0)  # a rewind
    read = _read({(T, 0): 10}, {(T, 0): 20}, {(T, 0): 0})
    sampler.update_windows(read, 125.0)
    assert sampler.evaluate(read, 125.0)["g"]["partitions"][0]["status"] != "STALL"


def test_a_group_that_commits_without_joining_is_a_simple_consumer():
    """kafka-lag-exporter's is_simple_consumer: Kafka's AdminClient isSimpleConsumerGroup, a
    group without a protocol type (offsets committed by assign() + commit, never joined)."""
    sampler = ClusterSampler(ClusterConfig("c", "x:1"))
    joined_once = GroupDescription("joined", "Empty", "consumer", "", [], 1)
    simple = GroupDescription("simple", "Empty", "", "", [], 1)
    read = GroupsRead(
        listings=[
            GroupListing("joined", "Empty", False),
            GroupListing("simple", "Empty", True),
            GroupListing("undescribed", "Empty", True),  # described by nobody: the listing says
        ],
        descriptions={"joined": joined_once, "simple": simple},
        committed={"joined": {}, "simple": {}, "undescribed": {}},
        log_ends={},
        log_starts={},
    )
    sampler.update_windows(read, 100.0)
    got = {g: e["is_simple_consumer"] for g, e in sampler.evaluate(read, 100.0).items()}
    assert got == {"joined": False, "simple": True, "undescribed": True}


def test_each_pass_record_carries_the_kafka_cluster_id(monkeypatch):
    """/metrics tells registry entries of one Kafka cluster apart by the id in the sampler's
    pass record (a scrape reads Redis only)."""
    from types import SimpleNamespace

    from console import kafka
    from groups.lag import sampler as sampler_module

    snapshots = [
        SimpleNamespace(description=SimpleNamespace(cluster_id="MkU3"), leader_addresses={})
    ]
    written: list[dict] = []

    def snapshot(cfg, max_age):
        if not snapshots:
            raise kafka.KafkaTimeout("no metadata", code="kafka_timeout")
        return snapshots.pop()

    def read_groups(client, **kwargs):
        kwargs["leaders"]()  # waits for the snapshot, as the real read does before ListOffsets
        raise kafka.KafkaTimeout("Kafka did not answer", code="kafka_timeout")

    monkeypatch.setattr(sampler_module.cache, "snapshot", snapshot)
    monkeypatch.setattr(sampler_module.kafka, "for_cluster", lambda cfg: object())
    monkeypatch.setattr(sampler_module, "read_groups", read_groups)
    monkeypatch.setattr(sampler_module.store, "write_meta", lambda c, meta, i: written.append(meta))
    sampler = ClusterSampler(ClusterConfig("c", "x:1"))
    first = sampler.run_pass()
    assert not first.ok and first.cluster_id == "MkU3"
    assert written[-1]["cluster_id"] == "MkU3" and written[-1]["error"] == "Kafka did not answer"
    sampler.run_pass()  # no metadata this pass: the id stays the last one known
    assert written[-1]["cluster_id"] == "MkU3"


def test_only_groups_that_are_not_empty_are_described_and_the_listing_says_the_rest():
    """An Empty group has no members: its listing gives its state and protocol type, so the
    read skips describing it (at 20,000 idle groups, DescribeGroups took 0.3 s a pass)."""
    from groups.lag.read import read_groups

    member = GroupMember("m-1", "app", "/10.0.0.1", [("t", 0)])

    class Client:
        described: list[str] = []

        def list_groups(self):
            return [
                GroupListing("busy", "Stable", False, "consumer"),
                GroupListing("idle", "Empty", False, "connect"),
                GroupListing("simple", "Empty", True, ""),
            ]

        def describe_groups(self, ids):
            self.described.extend(ids)
            return {"busy": GroupDescription("busy", "Stable", "consumer", "range", [member], 1)}

        def committed_offsets(self, groups):
            return {g: {("t", 0): 1} for g in groups}

        def log_offsets(self, tps, spec, leaders=None):
            return dict.fromkeys(tps, 5)

    client = Client()
    read = read_groups(client)  # type: ignore[arg-type]
    assert client.described == ["busy"]
    sampler = ClusterSampler(ClusterConfig("c", "x:1"))
    sampler.update_windows(read, 100.0)
    got = sampler.evaluate(read, 100.0)
    assert {g: (e["state"], e["protocol_type"], e["member_count"]) for g, e in got.items()} == {
        "busy": ("Stable", "consumer", 1),
        "idle": ("Empty", "connect", 0),
        "simple": ("Empty", "", 0),
    }
    assert [g for g, e in got.items() if e["is_simple_consumer"]] == ["simple"]


def test_still_points_noted_but_not_made_are_stored_and_made_as_if_appended():
    """Windows note a pass where a group repeats its newest point instead of appending a
    point per partition: what they store for a standby, and what the evaluation later sees,
    is what appending every point would have given."""
    from groups.lag.windows import Windows

    lazy, eager = Windows(4), Windows(4)
    tps = [(T, 0), (T, 1)]
    samples = [({(T, 0): 5, (T, 1): 7}, {(T, 0): 9, (T, 1): 9})] * 3  # three repeats
    samples += [({(T, 0): 6, (T, 1): 7}, {(T, 0): 9, (T, 1): 9})]  # a commit
    samples += [({(T, 0): 6, (T, 1): 7}, {(T, 0): 9, (T, 1): 12})] * 6  # a write, then still
    moves = []
    for i, (committed, ends) in enumerate(samples):
        read = _read_groups({"g": dict(committed)}, dict(ends), {}, {"g": True})
        lazy.update(read, 100.0 + i)
        eager.update(read, 100.0 + i)
        eager.of("g")  # every point made at once
        # What a standby restores from each (through JSON, as Redis keeps it) is the same
        # windows, and goes on the same way; the lazy form stores a still group's repeats once.
        stored = orjson.loads(orjson.dumps(dict(lazy.stored())))
        assert isinstance(stored["g"], dict) == bool(lazy._still.get("g")), i
        restored, restored_eager = Windows(4), Windows(4)
        restored.restore(stored)
        restored_eager.restore(orjson.loads(orjson.dumps(dict(eager.stored()))))
        assert restored.of("g") == restored_eager.of("g") == eager.of("g"), i
        for later in samples[i + 1 :]:  # the rest of the passes, on the restored windows
            read = _read_groups({"g": dict(later[0])}, dict(later[1]), {}, {"g": True})
            restored.update(read, 200.0)
            restored_eager.update(read, 200.0)
        assert restored.of("g") == restored_eager.of("g"), i
        moves.append(lazy.moved("g"))
    assert lazy._still["g"]  # noted, not made: the last five repeats
    assert moves == [1, 1, 1, 4, 5, 5, 5, 5, 5, 5]  # moved only where a point differed
    assert lazy.of("g") == eager.of("g")
    assert [p.at for p in lazy.of("g")[tps[1]]] == [106.0, 107.0, 108.0, 109.0]
    assert not lazy._still


def test_end_histories_add_a_point_only_where_the_log_end_changed_with_the_same_result():
    """EndHistories skips partitions whose log end stayed; what `get` gives equals adding
    every pass's point (`EndHistory.add`), through failed reads and gone partitions."""
    import random

    from groups.lag.measures import EndHistory
    from groups.lag.windows import EndHistories

    rng = random.Random(5)
    lazy = EndHistories()
    eager: dict = {}
    ends = {(T, p): 100 for p in range(5)}
    for i in range(500):
        at = 1000.0 + 5 * i
        for tp in ends:
            if rng.random() < 0.1:
                ends[tp] += rng.randint(1, 30)
        read = {tp: (None if rng.random() < 0.03 else e) for tp, e in ends.items()}
        if rng.random() < 0.02:
            read.pop((T, rng.randrange(5)))  # no group reads it this pass
        lazy.update(read, at)
        for tp, end in read.items():
            if end is not None:
                eager.setdefault(tp, EndHistory([])).add(at, end)
        for tp in eager.keys() - read.keys():
            del eager[tp]
        for tp in rng.sample(sorted(read), 2):  # the evaluation reads some, not all
            history = lazy.get(tp)
            assert (history.points if history else None) == (
                eager[tp].points if tp in eager else None
            ), (i, tp)
    assert len(lazy.by_partition) == len(eager)


def test_a_clock_that_steps_back_ends_a_kept_evaluation():
    """Ages brought forward as `now - record time` hold only while the clock goes forward: a
    pass timed before the kept evaluation is evaluated afresh (no negative lag seconds)."""
    reusing = ClusterSampler(ClusterConfig("c", "x:1"), interval_s=5.0, window=3)
    fresh = ClusterSampler(ClusterConfig("c", "x:1"), interval_s=5.0, window=3)
    times = [1100.0, 1105.0, 1110.0, 1115.0, 1120.0, 995.0]  # the last: stepped back
    for i, at in enumerate(times):
        read = _read({(T, 0): 10}, {(T, 0): 20}, {(T, 0): 0})
        for sampler in (reusing, fresh):
            sampler.update_windows(read, at)
            sampler.timestamps.known[((T, 0), 10)] = 1_000_000  # written at 1000 s
        kept = reusing.evaluator.still.get("g")
        got = reusing.evaluate(read, at)
        assert got == _evaluate_fresh(fresh, read, at), at
        if i == 4:
            assert kept is not None and reusing.evaluator.still.get("g") is kept  # copied
    assert got["g"]["partitions"][0]["lag_seconds"] >= 0

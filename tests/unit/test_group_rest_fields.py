"""The lag fields a REST group answer carries are the ones its schema declares, with the
sampler's evaluation and without one (a field missing from the answer broke the schema once:
`retention_reason`, caught by the schema fuzzing on a clean clone)."""

from __future__ import annotations

from groups.api.serializers import LagEvaluationFields
from groups.lag import rest

EVALUATION = {
    "status": "WARN", "max_lag_seconds": 3.0, "catch_up_seconds": None, "ts": 1.7e9,
    "retention_risk": "near", "retention_reason": "t-0: unread records can be deleted ...",
    "topics": {"t": {"write_per_s": 1.0, "consume_per_s": 0.5}},
}  # fmt: skip


def test_the_sampler_fields_are_the_declared_ones_with_and_without_an_evaluation():
    declared = set(LagEvaluationFields().fields)
    assert set(rest.evaluation_fields(None)) == declared
    answered = rest.evaluation_fields(EVALUATION)
    assert set(answered) == declared
    assert answered["retention_reason"] == EVALUATION["retention_reason"]
    assert rest.evaluation_fields(None)["retention_reason"] is None


def test_right_after_a_reset_the_moved_partitions_have_no_lag_seconds_until_the_next_pass():
    from groups.partitions import TopicPartition

    sampled = {
        ("t", 0): {"committed_offset": 100, "lag_seconds": 42.0},
        ("t", 1): {"committed_offset": 7, "lag_seconds": 3.0},
        ("u", 0): {"committed_offset": 5, "lag_seconds": 1.0},
    }
    # Kafka now: t-0 was reset to 0 (its 42 s were the age of record 100, not of record 0).
    committed = {TopicPartition("t", 0): 0, TopicPartition("t", 1): 7, TopicPartition("u", 0): 5}
    stale = rest.stale_partitions(sampled, committed)
    assert stale == {("t", 0)} and TopicPartition("t", 0) in stale
    evaluation = {
        **EVALUATION,
        "max_lag_seconds": 42.0,
        "topics": {"t": {"max_lag_seconds": 42.0}, "u": {"max_lag_seconds": 1.0}},
    }
    fixed = rest.without_stale_lag_seconds(evaluation, stale)
    assert fixed["max_lag_seconds"] is None and fixed["topics"]["t"]["max_lag_seconds"] is None
    assert fixed["topics"]["u"]["max_lag_seconds"] == 1.0  # untouched topic keeps its figure
    assert evaluation["max_lag_seconds"] == 42.0  # the stored evaluation is not changed
    assert rest.stale_partitions(sampled, {**committed, TopicPartition("t", 0): 100}) == set()

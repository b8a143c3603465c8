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

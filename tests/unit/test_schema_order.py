"""A job's params and result are answered in the order its type's schema declares them, on
PostgreSQL too (jsonb keeps no key order: it sorts keys by length, then bytes)."""

from __future__ import annotations

import pytest

from maintenance.jobs.pipeline_steps import PIPELINE_STEPS
from sparkjobs.api.serializers import SparkJobSerializer
from sparkjobs.models import SparkJob
from sparkjobs.schema_order import in_schema_order


def _as_jsonb(value):
    """What PostgreSQL hands back: every object's keys by length, then bytes."""
    if isinstance(value, dict):
        return {k: _as_jsonb(value[k]) for k in sorted(value, key=lambda k: (len(k), k))}
    if isinstance(value, list):
        return [_as_jsonb(v) for v in value]
    return value


SCHEMA = {
    "type": "object",
    "properties": {
        "zeta": {"type": "integer"},
        "alpha": {
            "type": "array",
            "items": {"type": "object", "properties": {"second": {}, "first": {}}},
        },
        "mid": {"type": "object", "additionalProperties": {"properties": {"b": {}, "a": {}}}},
    },
}


def test_keys_follow_the_schema_then_the_rest_as_stored():
    value = {"alpha": [{"first": 1, "second": 2}], "extra": 0, "mid": {"k": {"a": 1, "b": 2}}}
    value["zeta"] = 3
    ordered = in_schema_order(_as_jsonb(value), SCHEMA)
    assert list(ordered) == ["zeta", "alpha", "mid", "extra"]
    assert list(ordered["alpha"][0]) == ["second", "first"]
    assert list(ordered["mid"]["k"]) == ["b", "a"]
    assert ordered == value  # only the order changes


@pytest.mark.parametrize("value", [None, 3, "x", [1, 2], {}])
def test_anything_else_is_left_as_it_is(value):
    assert in_schema_order(value, SCHEMA) == value


def test_a_pipeline_result_read_back_from_jsonb_lists_its_steps_in_pipeline_order():
    result = {step: {"rows": 1} for step in PIPELINE_STEPS}
    job = SparkJob(id=1, job_type="maintenance-pipeline", cluster="local", params={})
    job.result = _as_jsonb(result)
    assert list(job.result) != list(PIPELINE_STEPS)  # the case this guards against
    assert list(SparkJobSerializer(job).data["result"]) == list(PIPELINE_STEPS)

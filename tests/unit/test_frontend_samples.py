"""The SPA's test samples against the server: the job results its tests render
(frontend/src/test/sparkResults.json, keyed by job type) fit their job type's result schema,
and the generated samples (`manage.py tssamples`, devtools/tssamples.py) are what the
generator writes and cover what the SPA's types allow. `bin/api-types check` compares the
generated files byte for byte; tsc and vitest check them against the SPA's types."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from devtools import tssamples
from maintenance.jobs.pipeline_steps import PIPELINE_STEPS
from sparkjobs.catalog import JOB_TYPES
from sparkjobs.job_types import result_problem
from sparkjobs.types_lag_report import DEFAULT_EXPORT_TOPIC

ROOT = Path(__file__).resolve().parents[2]
TEST_DIR = ROOT / "frontend" / "src" / "test"
RESULTS = json.loads((TEST_DIR / "sparkResults.json").read_text())
# The message types of frontend/src/api/live.ts and the `type` of their messages.
MESSAGE_TYPES = {
    "LagMessage": "lag",
    "GroupStateMessage": "group_state",
    "MetadataMessage": "metadata",
    "StatusMessage": "status",
    "ErrorMessage": "error",
    "JobMessage": "job",
    "ReassignmentMessage": "reassignment",
}


def test_every_sample_result_is_of_a_real_job_type():
    assert set(RESULTS) <= set(JOB_TYPES), sorted(set(RESULTS) - set(JOB_TYPES))


@pytest.mark.parametrize("job_type", sorted(RESULTS))
def test_a_sample_result_fits_its_job_types_result_schema(job_type):
    schema = JOB_TYPES[job_type].result_schema
    jsonschema.Draft202012Validator.check_schema(schema)
    # The check the runner applies to what a script returns.
    assert result_problem(JOB_TYPES[job_type], RESULTS[job_type]) is None


def test_the_pipeline_result_the_spa_tests_build_fits_its_schema():
    """MaintenancePage.test.tsx gives a finished pipeline the step samples as its result."""
    result = {step: RESULTS[step] for step in PIPELINE_STEPS}
    assert result_problem(JOB_TYPES["maintenance-pipeline"], result) is None


def test_a_sample_missing_a_required_field_is_refused():
    """The check has teeth: the samples are not accepted by a schema that takes anything."""
    broken = {k: v for k, v in RESULTS["train-model"].items() if k != "feature_importances"}
    assert "feature_importances" in (result_problem(JOB_TYPES["train-model"], broken) or "")
    columns = RESULTS["lag-report"]["table"]["columns"]
    renamed = {**RESULTS["lag-report"], "table": {"columns": columns[::-1], "rows": []}}
    assert result_problem(JOB_TYPES["lag-report"], renamed) is not None


def test_the_socket_samples_are_what_the_generator_writes():
    """`bin/api-types check` compares every generated file; this one also fails here."""
    written = tssamples.render_socket_samples(tssamples.socket_samples())
    committed = (TEST_DIR / tssamples.SOCKET_SAMPLES).read_text()
    assert committed == written, "socketSamples.gen.ts is stale: run bin/api-types gen"


def test_the_job_types_are_what_the_generator_writes(settings):
    if settings.LAG_EXPORT_TOPIC not in ("", DEFAULT_EXPORT_TOPIC):
        pytest.skip("LAG_EXPORT_TOPIC is set: the lag report's default is this machine's")
    committed = (TEST_DIR / tssamples.JOB_TYPES_FILE).read_text()
    assert committed == tssamples.render_job_types(), "run bin/api-types gen"


def test_the_job_types_file_is_the_whole_catalog():
    written = json.loads((TEST_DIR / tssamples.JOB_TYPES_FILE).read_text())
    assert [t["name"] for t in written] == list(JOB_TYPES)


def test_the_socket_samples_cover_every_message_type_and_variant():
    samples = tssamples.socket_samples()
    by_type: dict[str, list[dict]] = {}
    for sample in samples:
        assert sample.message["type"] == MESSAGE_TYPES[sample.ts_type], sample.name
        by_type.setdefault(sample.message["type"], []).append(sample.message)
    assert set(by_type) == set(MESSAGE_TYPES.values())
    states = by_type["group_state"]
    assert any("members" in m for m in states) and any("members" not in m for m in states)
    assert any(m["previous_state"] is None for m in states)
    assert any(m["state"] == "Dead" for m in states)
    statuses = by_type["status"]
    for key in ("reason", "sample_seconds"):
        assert any(key in m for m in statuses) and any(key not in m for m in statuses)
    metadata = by_type["metadata"]
    assert any(m["topics_added"] and m["topics_removed"] for m in metadata)
    assert any(c["leader"] is None for m in metadata for c in m["changes"])
    jobs = by_type["job"]
    assert any(m["steps"] for m in jobs) and any(m["steps"] is None for m in jobs)
    assert any(m["created_by"] is None for m in jobs)
    assert any(m["result"] is not None for m in jobs)
    moves = by_type["reassignment"]
    assert any(p["state"] == "moving" and p["adding"] for m in moves for p in m["partitions"])
    assert any(m["seconds_left"] is not None for m in moves)
    assert any(m["finished_at"] is not None for m in moves)
    lags = by_type["lag"]
    assert any(p["lag"] is None for m in lags for p in m["partitions"])

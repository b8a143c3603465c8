"""Step tracking of multi-step jobs (sparkjobs/steps.py and the runner's use of it), the
maintenance pipeline's params built from its steps' job types, and the lag export's record."""

from __future__ import annotations

import io
import json

import pytest

from console.errors import BadInput
from groups.lag import export as lag_export
from maintenance.jobs import JOBS_DIR as PM_JOBS_DIR
from maintenance.jobs.pipeline_steps import PIPELINE_STEPS, STEP_KEYS
from maintenance.types_pipeline import check_pipeline, maintenance_pipeline
from sparkjobs import runner
from sparkjobs import steps as st
from sparkjobs.job_types import JOBS_DIR, JobType, validate_params
from sparkjobs.models import SparkJob
from sparkjobs.types_lag_report import LAG_REPORT_COLUMNS, LAG_STATUSES
from tests.snapshots import topics_snapshot

NOW = "2026-01-02T03:04:05+00:00"


def line(step: str, state: str, **extra: object) -> str:
    return f"{st.STEP_MARKER} {json.dumps({'step': step, 'state': state, **extra})}\n"


# --- marker lines ------------------------------------------------------------------------------
def test_marker_lines_parse_into_events():
    assert st.parse_line(line("score", "running")) == {"step": "score", "state": "running"}
    assert st.parse_line(line("score", "succeeded", result={"predictions": 3})) == {
        "step": "score",
        "state": "succeeded",
        "result": {"predictions": 3},
    }
    assert st.parse_line(line("score", "failed", error="ValueError: no")) == {
        "step": "score",
        "state": "failed",
        "error": "ValueError: no",
    }
    assert st.parse_line(line("score", "skipped")) == {"step": "score", "state": "skipped"}
    assert st.parse_line(st.marker_line("a", "running")) == {"step": "a", "state": "running"}
    long = st.parse_line(line("a", "failed", error="x" * 5000))
    assert long is not None and len(long["error"]) == st.MAX_ERROR_CHARS
    assert st.parse_line(line("a", "failed"))["error"] == "the step failed"  # type: ignore[index]


@pytest.mark.parametrize(
    "junk",
    [
        "",
        "26/01/02 03:04:05 INFO SparkContext: Running Spark version 4.0.5\n",
        "KAFKA_CONSOLE_SPARK_APP app_id=local-1 ui=http://h:4040\n",
        f"Traceback: {st.STEP_MARKER} " + '{"step": "a", "state": "running"}\n',  # not at start
        f"{st.STEP_MARKER}\n",
        f"{st.STEP_MARKER} not json\n",
        f'{st.STEP_MARKER} ["a", "running"]\n',
        f'{st.STEP_MARKER} {{"step": "a", "state": "exploded"}}\n',
        f'{st.STEP_MARKER} {{"step": "a", "state": "pending"}}\n',
        f'{st.STEP_MARKER} {{"state": "running"}}\n',
        f'{st.STEP_MARKER} {{"step": 3, "state": "running"}}\n',
        f'{st.STEP_MARKER}{{"step": "a", "state": "running"}}\n',
    ],
)
def test_other_lines_are_ignored(junk):
    assert st.parse_line(junk) is None


# --- the step list -----------------------------------------------------------------------------
def test_events_move_the_steps_and_record_times_results_and_errors():
    steps = st.initial(["a", "b", "c"])
    assert [s["state"] for s in steps] == ["pending"] * 3
    assert set(steps[0]) == {"name", "state", "started_at", "finished_at", "result", "error"}
    steps = st.apply(steps, {"step": "a", "state": "running"}, NOW)
    assert steps[0]["state"] == "running" and steps[0]["started_at"] == NOW
    steps = st.apply(steps, {"step": "a", "state": "succeeded", "result": {"rows": 4}}, "t2")
    assert steps[0] == {
        "name": "a",
        "state": "succeeded",
        "started_at": NOW,
        "finished_at": "t2",
        "result": {"rows": 4},
        "error": None,
    }
    steps = st.apply(steps, {"step": "b", "state": "running"}, "t3")
    steps = st.apply(steps, {"step": "b", "state": "failed", "error": "E: no"}, "t4")
    steps = st.apply(steps, {"step": "c", "state": "skipped"}, "t4")
    assert [s["state"] for s in steps] == ["succeeded", "failed", "skipped"]
    assert steps[1]["error"] == "E: no" and steps[1]["result"] is None
    assert st.results(steps) == {"a": {"rows": 4}}


def test_unknown_steps_and_finished_steps_are_not_changed():
    steps = st.apply(st.initial(["a"]), {"step": "a", "state": "succeeded", "result": 1}, NOW)
    before = [dict(s) for s in steps]
    assert st.apply(steps, {"step": "zzz", "state": "running"}, "later") == before
    assert st.apply(steps, {"step": "a", "state": "failed", "error": "x"}, "later") == before
    assert st.apply(steps, {"step": "a", "state": "running"}, "later") == before


def test_apply_returns_a_new_list():
    steps = st.initial(["a"])
    st.apply(steps, {"step": "a", "state": "running"}, NOW)
    assert steps[0]["state"] == "pending"


def test_finalize_fails_the_running_step_and_skips_the_rest():
    steps = st.initial(["a", "b", "c"])
    steps = st.apply(steps, {"step": "a", "state": "succeeded", "result": {}}, NOW)
    steps = st.apply(steps, {"step": "b", "state": "running"}, NOW)
    failed = st.finalize(steps, "failed", "OutOfMemoryError: Java heap space", "end")
    assert [s["state"] for s in failed] == ["succeeded", "failed", "skipped"]
    assert failed[1]["error"] == "OutOfMemoryError: Java heap space"
    assert failed[1]["finished_at"] == "end"
    cancelled = st.finalize(steps, "cancelled", "", "end")
    assert cancelled[1]["state"] == "failed" and cancelled[1]["error"] == "cancelled"
    done = st.initial(["a"])
    done = st.apply(done, {"step": "a", "state": "succeeded", "result": 1}, NOW)
    assert st.finalize(done, "succeeded", "", "end") == done


# --- progress ----------------------------------------------------------------------------------
def _states(*states: str) -> list[dict]:
    steps = st.initial([f"s{i}" for i in range(len(states))])
    for step, state in zip(steps, states, strict=True):
        step["state"] = state
    return steps


@pytest.mark.parametrize(
    ("states", "fraction", "expected"),
    [
        (("pending",) * 5, None, 0.0),
        (("running",) + ("pending",) * 4, 0.5, 0.1),
        (("succeeded", "succeeded", "running", "pending", "pending"), 0.5, 0.5),
        (("succeeded", "succeeded", "running", "pending", "pending"), None, 0.4),
        (("succeeded", "succeeded", "running", "pending", "pending"), 7.0, 0.6),  # clamped
        (("succeeded", "succeeded", "running", "pending", "pending"), -1.0, 0.4),
        (("succeeded", "failed", "skipped", "skipped", "skipped"), 0.9, 1.0),
        (("succeeded",) * 4 + ("pending",), 0.9, 0.8),  # nothing runs: the fraction is stale
        ((), 0.5, 0.0),
    ],
)
def test_progress_is_finished_steps_plus_the_running_fraction(states, fraction, expected):
    assert st.progress(_states(*states), fraction) == pytest.approx(expected)


def test_the_running_steps_fraction_comes_from_its_spark_job_group():
    jobs = [
        {"jobGroup": "training-set", "numTasks": 10, "numCompletedTasks": 4, "numSkippedTasks": 2},
        {"jobGroup": "training-set", "numTasks": 10, "numCompletedTasks": 0},
        {"jobGroup": "window-features", "numTasks": 50, "numCompletedTasks": 50},
        {"numTasks": 3, "numCompletedTasks": 3},
        "junk",
    ]
    assert st.group_fraction(jobs, "training-set") == pytest.approx(6 / 20)
    assert st.group_fraction(jobs, "score") is None
    assert st.group_fraction(None, "score") is None
    assert st.group_fraction({"not": "a list"}, "score") is None


# --- the runner's driver-output reader ---------------------------------------------------------
def test_the_reader_keeps_the_steps_from_marker_lines_among_other_output():
    out = runner.DriverOutput(steps=st.initial(PIPELINE_STEPS))
    stream = io.StringIO(
        "26/01/02 INFO SparkContext: Running Spark version 4.0.5\n"
        "KAFKA_CONSOLE_SPARK_APP app_id=local-17 ui=http://10.0.0.1:4041\n"
        + line("window-features", "running")
        + line("window-features", "succeeded", result={"rows": 9})
        + "garbage KAFKA_CONSOLE_STEP {oops\n"
        + line("failure-labels", "running")
    )
    log = io.StringIO()
    runner._pump(stream, log, out, markers=True)
    steps = out.current_steps()
    assert steps is not None
    assert [s["state"] for s in steps] == ["succeeded", "running"] + ["pending"] * 3
    assert steps[0]["result"] == {"rows": 9} and steps[0]["finished_at"]
    assert out.app_id == "local-17"
    assert log.getvalue() == stream.getvalue()  # the log keeps every line
    final = runner._final_steps(out, "failed", "boom")["steps"]
    assert [s["state"] for s in final] == ["succeeded", "failed"] + ["skipped"] * 3
    assert final[1]["error"] == "boom"


def test_a_job_without_steps_ignores_marker_lines():
    out = runner.DriverOutput()
    runner._pump(io.StringIO(line("score", "running")), io.StringIO(), out, markers=True)
    assert out.current_steps() is None and runner._final_steps(out, "failed", "x") == {}


def test_markers_are_read_from_stdout_only_and_both_streams_reach_the_log_whole():
    # stderr (the JVM's log4j lines) is read apart: a log line can never land inside a long
    # marker, which the JVM copies from the script's stdout in chunks (a score step once read
    # as failed because a "Removing RDD" line cut its result in two).
    out = runner.DriverOutput(steps=st.initial(PIPELINE_STEPS))
    log = io.StringIO()
    big = line("window-features", "succeeded", result={"sample": "x" * 20_000})
    stderr = io.StringIO(line("failure-labels", "running") + "26/11/28 INFO BlockManager: x\n")
    runner._pump(io.StringIO(line("window-features", "running") + big), log, out, markers=True)
    runner._pump(stderr, log, out, markers=False)
    steps = out.current_steps()
    assert steps is not None
    assert [s["state"] for s in steps] == ["succeeded"] + ["pending"] * 4
    assert steps[0]["result"] == {"sample": "x" * 20_000}
    assert big in log.getvalue() and "BlockManager" in log.getvalue()


def test_the_pipeline_script_prints_the_steps_the_console_expects(driver_script):
    script = driver_script(PM_JOBS_DIR / "maintenance_pipeline.py")
    values = {
        "STEPS": script.PIPELINE_STEPS,
        "STEP_MARKER": script.STEP_MARKER,
        "STEP_KEYS": script.STEP_KEYS,
    }
    assert values == {
        "STEPS": PIPELINE_STEPS,
        "STEP_MARKER": st.STEP_MARKER,
        "STEP_KEYS": STEP_KEYS,
    }


@pytest.mark.django_db
def test_a_pipeline_job_lists_its_steps_pending_from_the_start():
    job = SparkJob.objects.create(job_type="maintenance-pipeline", cluster="local")
    job.refresh_from_db()
    assert [s["name"] for s in job.steps] == list(PIPELINE_STEPS)
    assert {s["state"] for s in job.steps} == {"pending"}
    other = SparkJob.objects.create(job_type="topic-export", cluster="local")
    assert other.steps is None


# --- the pipeline's params, built from its steps' job types ------------------------------------
def _type(name: str, props: dict, required: tuple = (), inputs: tuple = ()) -> JobType:
    schema = {
        "type": "object",
        "properties": props,
        "required": list(required),
        "additionalProperties": False,
    }
    result = {"type": "object", "required": ["ok"], "properties": {"ok": {"const": name}}}
    return JobType(
        name, name.title(), name, "x.py", schema, result, inputs=inputs, reads_range=False
    )


TOPIC = {"type": "string", "minLength": 1}
STAND_INS = {
    "window-features": _type(
        "window-features",
        {
            "alarms_topic": {**TOPIC, "default": "equipment-alarms"},
            "windows": {"type": "array", "items": {"type": "integer"}, "default": [7, 14, 21]},
            "start_time": {"type": ["string", "null"], "default": None},
            "end_time": {"type": ["string", "null"], "default": None},
        },
    ),
    "failure-labels": _type(
        "failure-labels",
        {
            "alarms_topic": {**TOPIC, "default": "equipment-alarms"},
            "work_orders_topic": {**TOPIC, "default": "work-orders"},
            "horizon_days": {"type": "integer", "minimum": 1, "default": 7},
        },
    ),
    "training-set": _type(
        "training-set",
        {
            "features_job": {"type": "integer"},
            "labels_job": {"type": "integer"},
            "cutoff_date": {"type": "string"},
            "negative_ratio": {"type": "number", "default": 3},
        },
        required=("features_job", "labels_job", "cutoff_date"),
        inputs=(("features_job", ("window-features",)), ("labels_job", ("failure-labels",))),
    ),
    "train-model": _type(
        "train-model",
        {
            "training_set_job": {"type": "integer"},
            "algorithm": {"enum": ["gbt", "rf"], "default": "gbt"},
        },
        required=("training_set_job",),
        inputs=(("training_set_job", ("training-set",)),),
    ),
    "score": _type(
        "score",
        {
            "model_id": {"type": "integer"},
            "features_job": {"type": "integer"},
            "predictions_topic": {**TOPIC, "default": "equipment-failure-predictions"},
        },
        required=("model_id", "features_job"),
        inputs=(("model_id", ("train-model",)), ("features_job", ("window-features",))),
    ),
}
PIPELINE = maintenance_pipeline(STAND_INS)


SNAP = topics_snapshot("equipment-alarms", "work-orders", "equipment-failure-predictions")


def _submit(params: dict) -> dict:
    """validate_params, then the type's checks in order (as sparkjobs.service does)."""
    filled = validate_params(PIPELINE, params)
    for check in PIPELINE.checks:
        check(SNAP, filled)
    return filled


def test_the_pipeline_schema_is_its_steps_schemas_without_the_input_params():
    props = PIPELINE.params_schema["properties"]
    assert list(props) == ["features", "labels", "training", "model", "score"]
    assert set(props["training"]["properties"]) == {"cutoff_date", "negative_ratio"}
    assert props["training"]["required"] == ["cutoff_date"]
    assert set(props["score"]["properties"]) == {"predictions_topic"}
    assert PIPELINE.params_schema["required"] == ["training"]
    assert props["features"]["default"] == {} and "default" not in props["training"]
    assert PIPELINE.result_schema["required"] == list(PIPELINE_STEPS)
    assert PIPELINE.result_schema["properties"]["score"] == STAND_INS["score"].result_schema
    assert not PIPELINE.reads_range and PIPELINE.script == "maintenance_pipeline.py"


def test_every_steps_defaults_are_filled_in():
    filled = _submit({"training": {"cutoff_date": "2026-03-01"}})
    assert filled == {
        "features": {
            "alarms_topic": "equipment-alarms",
            "windows": [7, 14, 21],
            "start_time": None,
            "end_time": None,
        },
        "labels": {
            "alarms_topic": "equipment-alarms",
            "work_orders_topic": "work-orders",
            "horizon_days": 7,
        },
        "training": {"cutoff_date": "2026-03-01", "negative_ratio": 3},
        "model": {"algorithm": "gbt"},
        "score": {"predictions_topic": "equipment-failure-predictions"},
    }
    assert _submit(filled) == filled  # filling twice changes nothing


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({}, "params.training"),
        ({"training": {}}, "params.training.cutoff_date"),
        (
            {"training": {"cutoff_date": "2026-03-01", "features_job": 3}},
            "params.training.features_job",
        ),
        ({"training": {"cutoff_date": "2026-3-1"}}, "params.training.cutoff_date"),
        ({"training": {"cutoff_date": "2026-02-30"}}, "params.training.cutoff_date"),
        ({"training": {"cutoff_date": 20260301}}, "params.training.cutoff_date"),
        (
            {"training": {"cutoff_date": "2026-03-01"}, "features": {"windows": [7, 7]}},
            "params.features.windows",
        ),
        (
            {"training": {"cutoff_date": "2026-03-01"}, "features": {"windows": [14, 7]}},
            "params.features.windows",
        ),
        (
            {"training": {"cutoff_date": "2026-03-01"}, "labels": {"horizon_days": 0}},
            "params.labels.horizon_days",
        ),
        (
            {"training": {"cutoff_date": "2026-03-01"}, "features": {"alarms_topic": "nope"}},
            "params.features.alarms_topic",
        ),
        (
            {"training": {"cutoff_date": "2026-03-01"}, "labels": {"work_orders_topic": "nope"}},
            "params.labels.work_orders_topic",
        ),
        (
            {"training": {"cutoff_date": "2026-03-01"}, "score": {"predictions_topic": "nope"}},
            "params.score.predictions_topic",
        ),
        (
            {"training": {"cutoff_date": "2026-03-01"}, "features": {"end_time": "yesterday"}},
            "params.features.end_time",
        ),
        (
            {
                "training": {"cutoff_date": "2026-03-01"},
                "features": {
                    "start_time": "2026-03-02T00:00:00Z",
                    "end_time": "2026-03-01T00:00:00Z",
                },
            },
            "params.features.end_time",
        ),
    ],
)
def test_bad_pipeline_params_are_refused_naming_the_field(params, field):
    with pytest.raises(BadInput) as excinfo:
        _submit(params)
    assert excinfo.value.details["field"].startswith(field), excinfo.value.message
    assert excinfo.value.message.startswith(field)


def test_a_good_pipeline_passes_the_checks():
    params = _submit({"training": {"cutoff_date": "2026-03-01"}, "features": {"windows": [1, 30]}})
    check_pipeline(SNAP, params)  # twice is harmless


# --- the lag export's record -------------------------------------------------------------------
def test_the_lag_export_record_of_a_groups_evaluation():
    evaluation = {
        "group_id": "orders",
        "ts": 1767323045.25,
        "status": "WARN",
        "total_lag": 40,
        "max_lag": 30,
        "max_lag_seconds": 12.5,
        "topics": {"t": {"lag": 40, "max_lag_seconds": 12.5, "status": "WARN", "write_per_s": 3.0}},
        "partitions": [{"lag": 30}, {"lag": 10}],
    }
    [(key, value, ts_ms)] = lag_export.records("local", {"orders": evaluation}, 5.0)
    assert key == b"orders" and ts_ms == 1767323045250
    assert json.loads(value) == {
        "cluster": "local",
        "group": "orders",
        "ts": 1767323045.25,
        "interval_s": 5.0,
        "status": "WARN",
        "total_lag": 40,
        "max_lag": 30,
        "max_lag_seconds": 12.5,
        "topics": {"t": {"lag": 40, "max_lag_seconds": 12.5, "status": "WARN"}},
    }


def test_the_lag_report_columns_match_its_script(driver_script):
    """The script (run by spark-submit, without Django) imports its table's columns from
    lag_report_table.py beside it, as the driver finds it: the same list, in the same order,
    as the result schema's `const` (LAG_REPORT_COLUMNS), which the SPA's sample lag report is
    checked against (tests/unit/test_frontend_samples.py)."""
    script = driver_script(JOBS_DIR / "lag_report.py")
    assert script.COLUMNS == LAG_REPORT_COLUMNS
    assert script.STATUSES == LAG_STATUSES

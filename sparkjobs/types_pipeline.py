"""The maintenance pipeline and the lag report (see docs/maintenance-pipeline.md).

`maintenance-pipeline` runs the five predictive-maintenance steps in one Spark application.
Its params schema is built from the single step job types' own schemas (one object per step,
minus the params that name input jobs: the pipeline wires its steps itself), so the two can
never drift apart; likewise its result schema holds each step's result schema.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django.conf import settings

from console.errors import BadInput
from console.kafka import ClusterClient
from console.kafka.records import has_record_before
from console.metadata import ClusterSnapshot
from sparkjobs.job_types import TOPIC_NAME, JobType, parse_time_ms, source_topic, target_topic
from sparkjobs.steps import PIPELINE_STEPS
from sparkjobs.types_features import FEATURE_JOB_TYPES, check_windows
from sparkjobs.types_model import MODEL_JOB_TYPES

# Each step's params object in the pipeline's params, by step (= job type) name.
STEP_KEYS: dict[str, str] = {
    "window-features": "features",
    "failure-labels": "labels",
    "training-set": "training",
    "train-model": "model",
    "score": "score",
}
assert tuple(STEP_KEYS) == PIPELINE_STEPS
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# How long a submit may read the alarms topic to find a record old enough to train on, when
# ListOffsets cannot tell (older records after newer ones); past it the job's step decides.
SCAN_BUDGET_S = 3.0


def _step_schema(job_type: JobType) -> dict[str, Any]:
    """A step's params schema inside the pipeline's: the job type's minus its input params."""
    inputs = {param for param, _ in job_type.inputs}
    schema = job_type.params_schema
    required = [k for k in schema.get("required", ()) if k not in inputs]
    out: dict[str, Any] = {
        "description": f"Params of the {job_type.name} step ({job_type.title}); the jobs "
        "it reads are this pipeline's earlier steps.",
        "type": "object",
        "properties": {
            k: copy.deepcopy(v) for k, v in schema["properties"].items() if k not in inputs
        },
        "required": required,
        "additionalProperties": False,
    }
    if not required:
        out["default"] = {}
    return out


def pipeline_schemas(step_types: Mapping[str, JobType]) -> tuple[dict, dict]:
    """(params schema, result schema) of the pipeline from its steps' job types."""
    properties = {STEP_KEYS[name]: _step_schema(step_types[name]) for name in PIPELINE_STEPS}
    params = {
        "type": "object",
        "properties": properties,
        "required": [key for key, prop in properties.items() if prop["required"]],
        "additionalProperties": False,
    }
    result = {
        "type": "object",
        "description": "{step: its result}: a failed pipeline's result holds the steps that "
        "succeeded.",
        "required": list(PIPELINE_STEPS),
        "properties": {
            name: copy.deepcopy(step_types[name].result_schema) for name in PIPELINE_STEPS
        },
    }
    return params, result


# --- the pipeline's checks (each a 400 naming params.<step>.<field>) --------------------------
def fill_step_defaults(step_types: Mapping[str, JobType]) -> Any:
    """A check that fills each step's defaults into its params object, so the saved params
    say exactly what runs (validate_params fills top-level defaults only). It runs first."""

    def fill(snap: ClusterSnapshot, params: dict[str, Any]) -> None:
        for name, key in STEP_KEYS.items():
            step = params.setdefault(key, {})
            for field, prop in step_types[name].params_schema["properties"].items():
                if (
                    field not in step
                    and "default" in prop
                    and not _is_input(step_types[name], field)
                ):
                    step[field] = copy.deepcopy(prop["default"])

    return fill


def _is_input(job_type: JobType, field: str) -> bool:
    return any(param == field for param, _ in job_type.inputs)


def _topic_exists(snap: ClusterSnapshot, params: dict[str, Any], key: str, field: str) -> None:
    topic = params.get(key, {}).get(field)
    if topic is not None:
        check = target_topic if field == "predictions_topic" else source_topic
        check(snap, topic, f"params.{key}.{field}")


def check_pipeline(snap: ClusterSnapshot, params: dict[str, Any]) -> None:
    """What the metadata can tell; `check_cutoff_in_data` then asks the alarms topic."""
    features, labels = params.get("features", {}), params.get("labels", {})
    windows = features.get("windows")
    if isinstance(windows, list):
        check_windows(windows, "params.features.windows")
    times = {s: features.get(f"{s}_time") for s in ("start", "end")}
    millis = {
        s: parse_time_ms(t, f"params.features.{s}_time") for s, t in times.items() if t is not None
    }
    if len(millis) == 2 and millis["end"] < millis["start"]:
        raise BadInput(
            "params.features.end_time",
            "params.features.end_time: is before params.features.start_time.",
        )
    horizon = labels.get("horizon_days")
    if horizon is not None and horizon <= 0:
        raise BadInput("params.labels.horizon_days", "params.labels.horizon_days: must be above 0.")
    for key, field in (
        ("features", "alarms_topic"),
        ("labels", "alarms_topic"),
        ("labels", "work_orders_topic"),
        ("score", "predictions_topic"),
    ):
        _topic_exists(snap, params, key, field)
    cutoff = params.get("training", {}).get("cutoff_date")
    if cutoff is not None:
        try:
            ok = (
                isinstance(cutoff, str) and bool(_DATE.match(cutoff)) and date.fromisoformat(cutoff)
            )
        except ValueError:
            ok = False
        if not ok:
            raise BadInput(
                "params.training.cutoff_date",
                f"params.training.cutoff_date: {cutoff!r} is not a date (YYYY-MM-DD).",
            )


def check_cutoff_in_data(client: ClusterClient, params: dict[str, Any]) -> None:
    """The cut-off must leave both parts, checked against the alarms topic before anything
    is queued. A labelled test day: the cut-off at most the last event day minus the label
    horizon; each partition's largest record timestamp (ListOffsets MAX_TIMESTAMP, KIP-734) is
    exact whatever the order of the records. A training day: some event before the cut-off
    minus the horizon; ListOffsets by timestamp tells that unless every partition starts with
    a newer record (a backfill appended old records after newer ones), and then the topic is
    read for up to SCAN_BUDGET_S. If that cannot tell, the job's training step refuses such a
    cut-off, naming the same field."""
    topic = params.get("features", {}).get("alarms_topic")
    cutoff = params.get("training", {}).get("cutoff_date")
    metas = client.topic_metadata(topic) if isinstance(topic, str) else []
    if not isinstance(cutoff, str) or not metas:
        return  # check_pipeline has named what is wrong with these
    tps = [(topic, p.partition) for p in metas[0].partitions]
    answers = list(client.list_offsets(tps, "max_timestamp").values())
    stamps = [
        a.timestamp_ms
        for a in answers
        if not isinstance(a, Exception) and a.timestamp_ms is not None
    ]
    if not stamps:
        failed = [a for a in answers if isinstance(a, Exception)]
        if failed:
            raise failed[0]  # Kafka's failure (502/504), not the user's input
        raise BadInput(
            "params.features.alarms_topic",
            f"params.features.alarms_topic: topic {topic!r} holds no records to learn from.",
        )
    last_day = datetime.fromtimestamp(max(stamps) / 1000, UTC).date()
    horizon = params.get("labels", {}).get("horizon_days")
    ahead = timedelta(days=horizon if isinstance(horizon, int) else 0)
    # The labels of the last `horizon` days are censored (dropped): the test part needs a
    # labelled day on or after the cut-off.
    latest = last_day - ahead
    if date.fromisoformat(cutoff) > latest:
        raise BadInput(
            "params.training.cutoff_date",
            f"params.training.cutoff_date: {cutoff} leaves no labelled day to test on (the "
            f"last event in {topic} is on {last_day}, and a label looks {horizon} days "
            f"ahead); choose {latest} or earlier.",
        )
    # A training day D needs D + horizon before the cut-off: an event before cut-off - horizon.
    first_allowed = date.fromisoformat(cutoff) - ahead
    since = int(datetime.combine(first_allowed, time(), UTC).timestamp() * 1000)
    older = has_record_before(client, topic, [p for _, p in tps], since, SCAN_BUDGET_S)
    if older is False:
        raise BadInput(
            "params.training.cutoff_date",
            f"params.training.cutoff_date: {cutoff} leaves no day to train on (no event in "
            f"{topic} is before {first_allowed}, and a label looks {horizon} days ahead); "
            "choose a later day.",
        )


def maintenance_pipeline(step_types: Mapping[str, JobType]) -> JobType:
    params_schema, result_schema = pipeline_schemas(step_types)
    return JobType(
        name="maintenance-pipeline",
        title="Predictive-maintenance pipeline",
        description="Window features, failure labels, training set, model and scores in one "
        "Spark application, each step tracked; the model's id is this job's id.",
        script="maintenance_pipeline.py",
        params_schema=params_schema,
        result_schema=result_schema,
        checks=(fill_step_defaults(step_types), check_pipeline),
        data_checks=(check_cutoff_in_data,),
        reads_range=False,
    )


# --- the lag report ---------------------------------------------------------------------------
DEFAULT_EXPORT_TOPIC = "kafka-console-lag-samples"
LAG_STATUSES = ("OK", "WARN", "STALL", "STOP", "ERR", "REWIND", "UNKNOWN")
LAG_REPORT_COLUMNS = [
    "group",
    "samples",
    "lag_p50",
    "lag_p95",
    "lag_max",
    "lag_seconds_p50",
    "lag_seconds_p95",
    "lag_seconds_max",
    *(f"seconds_{s.lower()}" for s in LAG_STATUSES),
]


def _time(which: str) -> dict[str, Any]:
    return {
        "description": f"{which} of the period (ISO-8601 with a time zone); default "
        + ("24 hours before the end." if which == "Start" else "when the job runs."),
        "type": ["string", "null"],
        "maxLength": 64,
        "default": None,
    }


LAG_REPORT_PARAMS = {
    "type": "object",
    "properties": {
        "export_topic": {
            **TOPIC_NAME,
            "description": "The topic the lag sampler exports to (LAG_EXPORT_TOPIC).",
            "default": getattr(settings, "LAG_EXPORT_TOPIC", "") or DEFAULT_EXPORT_TOPIC,
        },
        "start_time": _time("Start"),
        "end_time": _time("End"),
        "groups": {
            "description": "Only these consumer groups; default: every group sampled.",
            "type": ["array", "null"],
            "items": {"type": "string", "minLength": 1, "maxLength": 1024},
            "minItems": 1,
            "maxItems": 1000,
            "uniqueItems": True,
            "default": None,
        },
        "limit": {
            "description": "Rows in the table at most (the groups with the highest p95 lag "
            "seconds first).",
            "type": "integer",
            "minimum": 1,
            "maximum": 10000,
            "default": 1000,
        },
    },
    "additionalProperties": False,
}

LAG_REPORT_RESULT = {
    "type": "object",
    "required": [
        "cluster",
        "export_topic",
        "start_time",
        "end_time",
        "records",
        "groups_total",
        "table",
    ],
    "properties": {
        "cluster": {"type": ["string", "null"]},
        "export_topic": {"type": "string"},
        "start_time": {"type": "string"},
        "end_time": {"type": "string"},
        "records": {"type": "integer", "minimum": 0, "description": "samples in the period"},
        "groups_total": {"type": "integer", "minimum": 0},
        "table": {
            "type": "object",
            "required": ["columns", "rows"],
            "properties": {
                "columns": {"const": LAG_REPORT_COLUMNS},
                "rows": {
                    "type": "array",
                    "items": {"type": "array", "minItems": len(LAG_REPORT_COLUMNS)},
                },
            },
        },
    },
}


def check_lag_report(snap: ClusterSnapshot, params: dict[str, Any]) -> None:
    times = {s: params.get(f"{s}_time") for s in ("start", "end")}
    millis = {s: parse_time_ms(t, f"params.{s}_time") for s, t in times.items() if t is not None}
    if len(millis) == 2 and millis["end"] <= millis["start"]:
        raise BadInput("params.end_time", "params.end_time: is not after params.start_time.")
    topic = params["export_topic"]
    if snap.partitions_of(topic) is None:
        raise BadInput(
            "params.export_topic",
            f"params.export_topic: topic {topic!r} does not exist (the lag sampler creates "
            "it on its first pass when LAG_EXPORT_TOPIC is set).",
        )


LAG_REPORT = JobType(
    name="lag-report",
    title="Consumer lag report",
    description="Per consumer group over a period: p50, p95 and max of the total lag and of "
    "the lag in seconds, and the time spent in each status, from the lag sampler's export "
    "topic.",
    script="lag_report.py",
    params_schema=LAG_REPORT_PARAMS,
    result_schema=LAG_REPORT_RESULT,
    checks=(check_lag_report,),
    reads_range=False,
)


def _pipeline_types() -> tuple[JobType, ...]:
    step_types = {jt.name: jt for jt in (*FEATURE_JOB_TYPES, *MODEL_JOB_TYPES)}
    if not all(name in step_types for name in PIPELINE_STEPS):
        # The step job types are not (all) defined: no pipeline rather than a broken one.
        return ()
    return (maintenance_pipeline(step_types),)


PIPELINE_JOB_TYPES: tuple[JobType, ...] = (*_pipeline_types(), LAG_REPORT)

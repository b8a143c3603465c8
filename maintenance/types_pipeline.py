"""The maintenance pipeline (see docs/maintenance-pipeline.md).

`maintenance-pipeline` runs the predictive-maintenance steps in one Spark application; the
steps and their params keys are maintenance/jobs/pipeline_steps.py's, the one list of them.
Its params schema is built from the single step job types' own schemas (one object per step,
minus the params that name input jobs: the pipeline wires its steps itself), so the two can
never drift apart; likewise its result schema holds each step's result schema.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from console.errors import BadInput
from console.kafka import ClusterClient
from console.kafka.records import has_record_before
from console.metadata import ClusterSnapshot
from maintenance.job_type import maintenance_job_type
from maintenance.jobs.pipeline_steps import PIPELINE_STEPS, STEP_KEYS
from maintenance.types_features import (
    DEFAULT_WORK_ORDERS_TOPIC,
    FEATURE_JOB_TYPES,
    check_windows,
    input_topic,
)
from maintenance.types_model import MODEL_JOB_TYPES, PIPELINE
from sparkjobs.job_types import JobType, parse_time_ms, target_topic
from sparkjobs.schema_parts import closed_object

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


def pipeline_schemas(
    step_types: Mapping[str, JobType], steps: Sequence[str] = PIPELINE_STEPS
) -> tuple[dict, dict]:
    """(params schema, result schema) of a multi-step job from its steps' job types (the
    pipeline's by default)."""
    properties = {STEP_KEYS[name]: _step_schema(step_types[name]) for name in steps}
    params = closed_object(
        properties, [key for key, prop in properties.items() if prop["required"]]
    )
    result = {
        "type": "object",
        "description": "{step: its result}: a failed pipeline's result holds the steps that "
        "succeeded.",
        "required": list(steps),
        "properties": {name: copy.deepcopy(step_types[name].result_schema) for name in steps},
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
    if topic is None:
        return
    if field == "predictions_topic":
        target_topic(snap, topic, f"params.{key}.{field}")
        return
    # An input topic: a missing one's 400 names the backfill of the pair it belongs to.
    alarms = params.get(key, {}).get("alarms_topic", topic)
    work_orders = params.get("labels", {}).get("work_orders_topic", DEFAULT_WORK_ORDERS_TOPIC)
    input_topic(snap, topic, f"params.{key}.{field}", alarms, work_orders)


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


def last_event_day(client: ClusterClient, topic: str) -> tuple[date, list[int]] | None:
    """(the day of the newest event in `topic`, its partitions), or None when the topic is
    gone (the metadata checks named it). Each partition's largest record timestamp
    (ListOffsets MAX_TIMESTAMP, KIP-734) is exact whatever the order of the records."""
    meta = client.find_topic(topic)
    if meta is None:
        return None
    partitions = [p.partition for p in meta.partitions]
    answers = list(client.list_offsets([(topic, p) for p in partitions], "max_timestamp").values())
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
    return datetime.fromtimestamp(max(stamps) / 1000, UTC).date(), partitions


def check_training_days(
    client: ClusterClient,
    topic: str,
    partitions: list[int],
    cutoff: date,
    horizon: int,
    field: str,
    subject: str,
    remedy: str,
) -> None:
    """A training day D needs D + horizon before the cut-off: an event before cut-off -
    horizon. ListOffsets by timestamp tells that unless every partition starts with a newer
    record (a backfill appended old records after newer ones), and then the topic is read for
    up to SCAN_BUDGET_S; if that cannot tell, the job's training step decides."""
    first_allowed = cutoff - timedelta(days=horizon)
    since = int(datetime.combine(first_allowed, time(), UTC).timestamp() * 1000)
    if has_record_before(client, topic, partitions, since, SCAN_BUDGET_S) is False:
        raise BadInput(
            field,
            f"{field}: {subject} leaves no day to train on (no event in {topic} is before "
            f"{first_allowed}, and a label looks {horizon} days ahead); {remedy}.",
        )


def label_horizon(params: dict[str, Any]) -> int:
    horizon = params.get("labels", {}).get("horizon_days")
    return horizon if isinstance(horizon, int) else 0


def check_cutoff_in_data(client: ClusterClient, params: dict[str, Any]) -> None:
    """The cut-off must leave both parts, checked against the alarms topic before anything
    is queued: a labelled test day (the cut-off at most the last event day minus the label
    horizon) and a training day (`check_training_days`)."""
    topic = params.get("features", {}).get("alarms_topic")
    cutoff = params.get("training", {}).get("cutoff_date")
    found = last_event_day(client, topic) if isinstance(topic, str) else None
    if not isinstance(cutoff, str) or found is None:
        return  # check_pipeline has named what is wrong with these
    last_day, partitions = found
    horizon = label_horizon(params)
    # The labels of the last `horizon` days are censored (dropped): the test part needs a
    # labelled day on or after the cut-off.
    latest = last_day - timedelta(days=horizon)
    if date.fromisoformat(cutoff) > latest:
        raise BadInput(
            "params.training.cutoff_date",
            f"params.training.cutoff_date: {cutoff} leaves no labelled day to test on (the "
            f"last event in {topic} is on {last_day}, and a label looks {horizon} days "
            f"ahead); choose {latest} or earlier.",
        )
    check_training_days(
        client,
        topic,
        partitions,
        date.fromisoformat(cutoff),
        horizon,
        "params.training.cutoff_date",
        cutoff,
        "choose a later day",
    )


def maintenance_pipeline(step_types: Mapping[str, JobType]) -> JobType:
    params_schema, result_schema = pipeline_schemas(step_types)
    return maintenance_job_type(
        name=PIPELINE,
        title="Predictive-maintenance pipeline",
        description="Window features, failure labels, training set, model and scores in one "
        "Spark application, each step tracked; the model's id is this job's id.",
        script="maintenance_pipeline.py",
        params_schema=params_schema,
        result_schema=result_schema,
        checks=(fill_step_defaults(step_types), check_pipeline),
        data_checks=(check_cutoff_in_data,),
        steps=PIPELINE_STEPS,
    )


def _pipeline_types() -> tuple[JobType, ...]:
    step_types = {jt.name: jt for jt in (*FEATURE_JOB_TYPES, *MODEL_JOB_TYPES)}
    if not all(name in step_types for name in PIPELINE_STEPS):
        # The step job types are not (all) defined: no pipeline rather than a broken one.
        return ()
    return (maintenance_pipeline(step_types),)


PIPELINE_JOB_TYPES: tuple[JobType, ...] = _pipeline_types()

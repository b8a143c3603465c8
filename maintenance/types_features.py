"""Predictive-maintenance job types, the data half: window features and failure labels (see
docs/maintenance-data.md; the step functions are maintenance/jobs/pm_features.py).

Both read whole topics themselves (`reads_range=False`), so each params schema is its own.
Checked at submit, after the schema (each a 400 naming the field): the topics exist, the
windows are strictly increasing, the fault codes make distinct column names, the sensors are
not names the alarm's own fields have, and the time bounds are ISO-8601 with a zone, the end
after the start.
"""

from __future__ import annotations

import re
from typing import Any

from console.errors import BadInput
from console.metadata import ClusterSnapshot
from maintenance.job_type import maintenance_job_type
from sparkjobs.job_types import TOPIC_NAME, JobType, parse_time_ms, source_topic
from sparkjobs.schema_parts import COUNT, closed_object, optional_time, result_object

DEFAULT_ALARMS_TOPIC = "equipment-alarms"
DEFAULT_WORK_ORDERS_TOPIC = "work-orders"
# The codes whose counts rise before a failure in the demo history (docs/maintenance-data.md).
DEFAULT_FAULT_CODES = ["E101-OVERHEAT", "E303-VIBRATION"]
DEFAULT_SENSORS = ["vibration", "temperature", "pressure"]
DEFAULT_WINDOWS = [7, 14, 21]
# Fields of an alarm's value the job reads itself: a sensor may not take their names.
ALARM_FIELDS = ("equipment_id", "fault_code", "severity", "day")

_DAY = {"type": ["string", "null"], "description": "YYYY-MM-DD; null when there is no data"}


def slug(code: str) -> str:
    """A fault code as part of a column name (the same as pm_features.slug)."""
    return re.sub(r"[^a-z0-9]", "_", code.lower())


def _topic(default: str, what: str) -> dict[str, Any]:
    return {**TOPIC_NAME, "description": f"The {what} topic (it must exist).", "default": default}


def _time(which: str) -> dict[str, Any]:
    return optional_time(
        f"{which} (ISO-8601 with a time zone): only alarms whose record time is "
        + ("at or after it." if which == "Start" else "before it.")
        + " Default: "
        + ("the log start." if which == "Start" else "the log end when the job runs.")
    )


FEATURES_PARAMS: dict[str, Any] = closed_object(
    {
        "alarms_topic": _topic(DEFAULT_ALARMS_TOPIC, "alarms"),
        "fault_codes": {
            "description": "Fault codes counted per window (a column each: "
            "count_<code in lower case, non-alphanumerics as _>_<w>d).",
            "type": "array",
            "items": {"type": "string", "minLength": 1, "maxLength": 100, "pattern": "[A-Za-z0-9]"},
            "minItems": 1,
            "maxItems": 50,
            "uniqueItems": True,
            "default": DEFAULT_FAULT_CODES,
        },
        "sensors": {
            "description": "Numeric fields of the alarm whose maximum is taken per window "
            "(max_<sensor>_<w>d; 0.0 when the window holds no reading).",
            "type": "array",
            "items": {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]{0,63}$"},
            "minItems": 1,
            "maxItems": 20,
            "uniqueItems": True,
            "default": DEFAULT_SENSORS,
        },
        "windows": {
            "description": "Trailing windows in days, strictly increasing: the window w of day "
            "D holds the days D - w + 1 to D.",
            "type": "array",
            "items": {"type": "integer", "minimum": 1, "maximum": 365},
            "minItems": 1,
            "maxItems": 12,
            "default": DEFAULT_WINDOWS,
        },
        "start_time": _time("Start"),
        "end_time": _time("End"),
    }
)

LABELS_PARAMS: dict[str, Any] = closed_object(
    {
        "alarms_topic": _topic(DEFAULT_ALARMS_TOPIC, "alarms"),
        "work_orders_topic": _topic(DEFAULT_WORK_ORDERS_TOPIC, "work orders"),
        "horizon_days": {
            "description": "A day is labelled 1 when the equipment fails within this many "
            "days after it (from the next day on).",
            "type": "integer",
            "minimum": 1,
            "maximum": 90,
            "default": 7,
        },
    }
)

FEATURES_RESULT: dict[str, Any] = result_object(
    ["rows", "equipment", "feature_columns", "first_day", "last_day", "output_path", "sample"],
    {
        "rows": {**COUNT, "description": "one per equipment per day"},
        "equipment": COUNT,
        "feature_columns": {"type": "array", "items": {"type": "string"}},
        "fault_codes": {
            "type": "array",
            "items": {"type": "string"},
            "description": "The fault codes counted, as the alarms carry them (the count "
            "columns hold them as slugs).",
        },
        "first_day": _DAY,
        "last_day": _DAY,
        "output_path": {"type": "string"},
        "sample": {
            "type": "object",
            "description": "Rows of the latest day (equipment_id, day, then the features).",
            "required": ["columns", "rows"],
            "properties": {
                "columns": {"type": "array", "items": {"type": "string"}},
                "rows": {"type": "array", "items": {"type": "array"}},
            },
        },
    },
)

LABELS_RESULT: dict[str, Any] = result_object(
    [
        "rows",
        "positives",
        "negatives",
        "censored_dropped",
        "horizon_days",
        "last_day",
        "output_path",
    ],
    {
        "rows": COUNT,
        "positives": COUNT,
        "negatives": COUNT,
        "censored_dropped": {
            **COUNT,
            "description": "days whose label window reaches past the last day of the data",
        },
        "horizon_days": {"type": "integer", "minimum": 1},
        "last_day": _DAY,
        "output_path": {"type": "string"},
    },
)


# --- checks (each a 400 naming the field) -----------------------------------------------------
# The demo history's backfill (docs/maintenance-data.md, devtools/demo/maintenance_history.py).
# A first run on a fresh cluster most often fails on a missing input topic: its 400 names the
# command that writes one, so REST users get it too. The SPA names it before a run
# (frontend/src/lib/maintenance.ts; tests/unit/test_pm_guidance.py checks both).
BACKFILL_COMMAND = ".venv/bin/python manage.py demotraffic --backfill"


def backfill_command(alarms_topic: str, work_orders_topic: str) -> str:
    """The command that writes the demo history into these topics (default ones not named)."""
    command = BACKFILL_COMMAND
    if alarms_topic != DEFAULT_ALARMS_TOPIC:
        command += f" --alarms-topic {alarms_topic}"
    if work_orders_topic != DEFAULT_WORK_ORDERS_TOPIC:
        command += f" --work-orders-topic {work_orders_topic}"
    return command


def input_topic(
    snap: ClusterSnapshot, topic: str, field: str, alarms_topic: str, work_orders_topic: str
) -> None:
    """source_topic's check of an alarms or work-orders topic; when it does not exist, the
    400 also says how to write the demo history into the pair (`alarms_topic`,
    `work_orders_topic`) it belongs to."""
    if snap.partitions_of(topic) is None:
        command = backfill_command(alarms_topic, work_orders_topic)
        raise BadInput(
            field,
            f"{field}: topic {topic!r} does not exist. To try the pipeline on demo data, "
            f"write the demo maintenance history with: {command} (add --cluster NAME for "
            "another cluster than local).",
        )
    source_topic(snap, topic, field)


def _topic_exists(snap: ClusterSnapshot, params: dict[str, Any], key: str) -> None:
    alarms = params["alarms_topic"]
    input_topic(
        snap,
        params[key],
        f"params.{key}",
        alarms,
        params.get("work_orders_topic", DEFAULT_WORK_ORDERS_TOPIC),
    )


def check_windows(windows: list[int], field: str = "params.windows") -> None:
    if any(b <= a for a, b in zip(windows, windows[1:], strict=False)):
        raise BadInput(field, f"{field}: must be strictly increasing, not {windows}.")


def check_features(snap: ClusterSnapshot, params: dict[str, Any]) -> None:
    check_windows(params["windows"])
    seen: dict[str, str] = {}
    for code in params["fault_codes"]:
        if slug(code) in seen:
            raise BadInput(
                "params.fault_codes",
                f"params.fault_codes: {seen[slug(code)]!r} and {code!r} make the same column "
                f"name (count_{slug(code)}_<w>d).",
            )
        seen[slug(code)] = code
    lowered = [s.lower() for s in params["sensors"]]
    for sensor in params["sensors"]:
        if sensor.lower() in ALARM_FIELDS or lowered.count(sensor.lower()) > 1:
            raise BadInput(
                "params.sensors",
                f"params.sensors: {sensor!r} is not a sensor name this job can use (the "
                f"alarm's own fields are {', '.join(ALARM_FIELDS)}; names differ in more than "
                "case).",
            )
    millis = {
        s: parse_time_ms(params[f"{s}_time"], f"params.{s}_time")
        for s in ("start", "end")
        if params.get(f"{s}_time") is not None
    }
    if len(millis) == 2 and millis["end"] <= millis["start"]:
        raise BadInput("params.end_time", "params.end_time: is not after params.start_time.")
    _topic_exists(snap, params, "alarms_topic")


def check_labels(snap: ClusterSnapshot, params: dict[str, Any]) -> None:
    if params["horizon_days"] <= 0:  # the schema says so too; the field is named either way
        raise BadInput("params.horizon_days", "params.horizon_days: must be above 0.")
    _topic_exists(snap, params, "alarms_topic")
    _topic_exists(snap, params, "work_orders_topic")


WINDOW_FEATURES = maintenance_job_type(
    name="window-features",
    title="Window features",
    description="Per equipment per day, over trailing windows of days: counts of fault codes, "
    "the severity sum and sensor maxima from the alarms topic; Parquet, one row per "
    "equipment per day from its first alarm to the last day of the data.",
    script="window_features.py",
    params_schema=FEATURES_PARAMS,
    result_schema=FEATURES_RESULT,
    checks=(check_features,),
)

FAILURE_LABELS = maintenance_job_type(
    name="failure-labels",
    title="Failure labels",
    description="Per equipment per day, 1 when it fails (a FAILURE alarm or a failure work "
    "order) within the next horizon days, else 0; days whose horizon reaches past the data "
    "are dropped (censored). Parquet.",
    script="failure_labels.py",
    params_schema=LABELS_PARAMS,
    result_schema=LABELS_RESULT,
    checks=(check_labels,),
)

FEATURE_JOB_TYPES: tuple[JobType, ...] = (WINDOW_FEATURES, FAILURE_LABELS)

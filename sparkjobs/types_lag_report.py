"""The lag report: per consumer group over a period, percentiles of the lag and the time spent
in each status, from the history the lag sampler exports to a Kafka topic (see
docs/maintenance-pipeline.md, "The lag export" and "The lag report"). One of the platform's
own job types: it reads that topic itself (`reads_range=False`); its script is
sparkjobs/jobs/lag_report.py.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from console.errors import BadInput
from console.metadata import ClusterSnapshot
from sparkjobs.job_types import TOPIC_NAME, JobType, parse_time_ms

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


LAG_REPORT_JOB_TYPES: tuple[JobType, ...] = (LAG_REPORT,)

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
from sparkjobs.jobs import lag_report_table
from sparkjobs.schema_parts import COUNT, closed_object, column_table, optional_time, result_object

DEFAULT_EXPORT_TOPIC = "kafka-console-lag-samples"
# The same lists as the script's (it imports them from its own directory on the driver).
LAG_STATUSES = lag_report_table.STATUSES
LAG_REPORT_COLUMNS = lag_report_table.COLUMNS


def _time(which: str) -> dict[str, Any]:
    return optional_time(
        f"{which} of the period (ISO-8601 with a time zone); default "
        + ("24 hours before the end." if which == "Start" else "when the job runs.")
    )


LAG_REPORT_PARAMS = closed_object(
    {
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
    }
)

LAG_REPORT_RESULT = result_object(
    ["cluster", "export_topic", "start_time", "end_time", "records", "groups_total", "table"],
    {
        "cluster": {"type": ["string", "null"]},
        "export_topic": {"type": "string"},
        "start_time": {"type": "string"},
        "end_time": {"type": "string"},
        "records": {**COUNT, "description": "samples in the period"},
        "groups_total": COUNT,
        "table": column_table(*LAG_REPORT_COLUMNS),
    },
)


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

"""Job types: each is a PySpark script, a JSON Schema for its params and one for its result.
This module holds the type, the checks and the topic job types; `sparkjobs.catalog` holds the
whole catalog (these, the lag report, and the job types other apps register with it).

Checks run in two layers before anything is queued, each a 400 naming the field:
1. the params schema (shapes, bounds, unknown keys), with its defaults then filled in, so
   `{"topic": "t"}` alone means every partition's whole retained range;
2. the job type's checks against the cluster's metadata snapshot (the topic and partitions
   exist, an end is not before its start, a replay does not write into its own source).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema.exceptions import best_match

from console.api.limits import INT32_MAX, INT64_MAX, iso_millis
from console.errors import BadInput
from console.kafka import ClusterClient
from console.metadata import ClusterSnapshot
from console.owned_topics import KAFKA_INTERNAL_TOPICS, owned_topics
from sparkjobs.choices import JobState
from sparkjobs.models import SparkJob
from sparkjobs.schema_parts import COUNT, closed_object, column_table, optional_time, result_object

JOBS_DIR = Path(__file__).resolve().parent / "jobs"
TOPIC_NAME = {"type": "string", "minLength": 1, "maxLength": 249, "pattern": "^[A-Za-z0-9._-]+$"}
_OFFSET = {"type": "integer", "minimum": 0, "maximum": INT64_MAX}
_PARTITION_KEY = "^(0|[1-9][0-9]{0,9})$"


def _offset_param(which: str) -> dict[str, Any]:
    return {
        "description": (
            f"{which} offset: one offset for every partition, or {{partition: offset}}; "
            + (
                "inclusive. Default: the log start."
                if which == "First"
                else "exclusive. Default: the log end when the job starts."
            )
        ),
        "anyOf": [
            _OFFSET,
            {
                "type": "object",
                "propertyNames": {"pattern": _PARTITION_KEY},
                "additionalProperties": _OFFSET,
            },
            {"type": "null"},
        ],
        "default": None,
    }


def _time_param(which: str) -> dict[str, Any]:
    return optional_time(
        f"{which} (ISO-8601 with a time zone): the first record written at or "
        + ("after it." if which == "Start" else "after it is not included.")
    )


# The record range every job type reads: a topic, some of its partitions, two bounds.
RANGE_PROPERTIES: dict[str, Any] = {
    "topic": {**TOPIC_NAME, "description": "The topic to read."},
    "partitions": {
        "description": "Partitions to read; default: all.",
        "type": ["array", "null"],
        "items": {"type": "integer", "minimum": 0, "maximum": INT32_MAX},
        "uniqueItems": True,
        "minItems": 1,
        "default": None,
    },
    "start_offset": _offset_param("First"),
    "end_offset": _offset_param("End"),
    "start_time": _time_param("Start"),
    "end_time": _time_param("End"),
}


def _params_schema(extra: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    return closed_object({**RANGE_PROPERTIES, **extra}, ("topic", *required))


_COUNTS = {"type": "object", "additionalProperties": COUNT}
_RANGES = {
    "type": "object",
    "description": "{partition: [first offset, end offset)} as read",
    "additionalProperties": {"type": "array", "items": {"type": "integer"}},
}


@dataclass(frozen=True)
class JobType:
    name: str
    title: str
    description: str
    script: str  # file name in `scripts_dir`
    params_schema: dict[str, Any]
    result_schema: dict[str, Any]
    checks: tuple[Callable[[ClusterSnapshot, dict[str, Any]], None], ...] = field(default=())
    # False: the job reads no range of `params.topic` resolved by the platform (it reads files
    # or whole topics itself), so its spec has no `topic` and empty `ranges`.
    reads_range: bool = True
    # (param, job types it may name): the param holds the id of an earlier job of one of those
    # types, which must have succeeded; the runner puts that job's `result` in
    # `spec["inputs"][param]`, so a script finds the files the earlier job wrote.
    inputs: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # Fill params the caller left null from the console's own state, before any check: each
    # gets the cluster's name and the params (defaults applied), changes them in place, and
    # raises BadInput naming the field when it cannot (e.g. the score job's model: the
    # cluster's active one). The job stores the filled params: it says what it ran with.
    fills: tuple[Callable[[str, dict[str, Any]], None], ...] = ()
    # Checks that read records (not only metadata), run last, with a client of the job's
    # cluster: each raises BadInput naming the field.
    data_checks: tuple[Callable[[ClusterClient, dict[str, Any]], None], ...] = ()
    # Where `script` is: sparkjobs/jobs/, or the jobs directory of the app that registers the
    # type. A script imports `common` and `job_errors` (shipped with --py-files) and files next
    # to it.
    scripts_dir: Path = JOBS_DIR
    # A multi-step job's step names, in order (sparkjobs/steps.py): its jobs list them all,
    # pending, from the moment they are saved, and its script prints their transitions.
    steps: tuple[str, ...] = ()
    # Product modules the script imports (paths from the repository root, each package's
    # __init__.py included): zipped into the job's work dir and shipped with --py-files, so
    # driver and executors read records exactly as the web process does.
    product_modules: tuple[str, ...] = ()
    # Called with the job's id once it has succeeded (by the runner, after the state change,
    # outside its transaction): what the app that registers the type does with a result, e.g.
    # maintenance's retraining promoting its model. A failure is logged, not the job's.
    on_success: Callable[[int], None] | None = None

    @property
    def script_path(self) -> Path:
        return self.scripts_dir / self.script

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "params_schema": self.params_schema,
            "result_schema": self.result_schema,
        }


# --- checks against the cluster ---------------------------------------------------------------
def parse_time_ms(text: str, field: str) -> int:
    """Epoch millis of an ISO-8601 date-time that names its zone (a job may run anywhere)."""
    return iso_millis(text, field, zone_required=True, example="2026-11-21T10:03:12Z")


def _internal(snap: ClusterSnapshot, topic: str) -> bool:
    meta = snap.topics.get(topic)
    return topic in KAFKA_INTERNAL_TOPICS or (meta is not None and meta.internal)


def source_topic(
    snap: ClusterSnapshot, topic: str, field: str, wanted: Iterable[int] = ()
) -> list[int]:
    """The partitions of a topic a job reads. Kafka's internal topics are refused: they hold
    the cluster's own binary state (Spark's Kafka source reads them only as opaque bytes),
    and a job over them is a mistake far more often than an intent; Kafka's own tools read
    them (kafka-console-consumer with its formatters)."""
    if _internal(snap, topic):
        raise BadInput(
            field,
            f"{field}: {topic!r} is one of Kafka's internal topics; jobs do not read them "
            "(use kafka-console-consumer with its formatter for that).",
        )
    partitions = snap.partitions_of(topic, wanted)
    if partitions is None:
        raise BadInput(field, f"{field}: topic {topic!r} does not exist.")
    return partitions


def target_topic(snap: ClusterSnapshot, topic: str, field: str) -> list[int]:
    """The partitions of a topic a job writes into: never one of Kafka's internal topics nor
    one the console writes itself (the lag export), whose readers trust what is in it."""
    if _internal(snap, topic):
        raise BadInput(
            field, f"{field}: {topic!r} is one of Kafka's internal topics; jobs never write it."
        )
    if topic in owned_topics():
        raise BadInput(
            field,
            f"{field}: {topic!r} is written by the console itself (the lag export); "
            "jobs never write into it.",
        )
    partitions = snap.partitions_of(topic)
    if partitions is None:
        raise BadInput(field, f"{field}: topic {topic!r} does not exist.")
    return partitions


def selected_partitions(snap: ClusterSnapshot, params: dict[str, Any]) -> list[int]:
    """The partitions a job reads; the topic and each asked partition must exist."""
    topic = params["topic"]
    wanted = params.get("partitions")
    existing = source_topic(snap, topic, "params.topic", wanted or ())
    if wanted is None:
        return sorted(existing)
    missing = sorted(set(wanted) - set(existing))
    if missing:
        raise BadInput(
            "params.partitions",
            f"params.partitions: topic {topic!r} has no partition {missing[0]}.",
        )
    return sorted(wanted)


def check_range(snap: ClusterSnapshot, params: dict[str, Any]) -> None:
    partitions = selected_partitions(snap, params)
    for side in ("start", "end"):
        if params.get(f"{side}_offset") is not None and params.get(f"{side}_time") is not None:
            raise BadInput(
                f"params.{side}_time",
                f"params.{side}_time: give {side}_offset or {side}_time, not both.",
            )
        offsets = params.get(f"{side}_offset")
        if isinstance(offsets, dict):
            for key in offsets:
                if int(key) not in partitions:
                    raise BadInput(
                        f"params.{side}_offset",
                        f"params.{side}_offset: partition {key} is not one the job reads.",
                    )
    times = {s: params.get(f"{s}_time") for s in ("start", "end")}
    millis = {s: parse_time_ms(t, f"params.{s}_time") for s, t in times.items() if t is not None}
    if len(millis) == 2 and millis["end"] < millis["start"]:
        raise BadInput("params.end_time", "params.end_time: is before params.start_time.")
    start, end = params.get("start_offset"), params.get("end_offset")
    if start is None or end is None:
        return
    for partition in partitions:
        first = start.get(str(partition)) if isinstance(start, dict) else start
        last = end.get(str(partition)) if isinstance(end, dict) else end
        if first is not None and last is not None and last < first:
            raise BadInput(
                "params.end_offset",
                f"params.end_offset: {last} is before the start offset {first} "
                f"(partition {partition}).",
            )


def check_replay_target(snap: ClusterSnapshot, params: dict[str, Any]) -> None:
    target = params["target_topic"]
    if target == params["topic"]:
        raise BadInput(
            "params.target_topic",
            "params.target_topic: a replay cannot write into the topic it reads.",
        )
    target_partitions = target_topic(snap, target, "params.target_topic")
    if params["preserve_partitions"]:
        highest = max(selected_partitions(snap, params))
        if highest >= len(target_partitions):
            raise BadInput(
                "params.preserve_partitions",
                f"params.preserve_partitions: {target!r} has {len(target_partitions)} "
                f"partitions, so source partition {highest} has no counterpart; "
                "set preserve_partitions to false to let the keys choose.",
            )


# --- the catalog ------------------------------------------------------------------------------
_EXPORT_RESULT = result_object(
    ["rows", "bytes", "files", "output_path", "partitions", "ranges", "download"],
    {
        "rows": COUNT,
        "bytes": COUNT,
        "files": COUNT,
        "output_path": {"type": "string"},
        "partitions": {**_COUNTS, "description": "{partition: rows written}"},
        "ranges": _RANGES,
        "download": {
            "description": "The records as one gzipped JSON-lines file (GET "
            "spark/jobs/{id}/download); null when none was written (download_skipped says why)",
            "anyOf": [
                result_object(
                    ["path", "bytes", "records", "format"],
                    {
                        "path": {
                            "type": "string",
                            "description": "relative to the export's directory",
                        },
                        "bytes": COUNT,
                        "records": COUNT,
                        "format": {"const": "jsonl.gz"},
                    },
                ),
                {"type": "null"},
            ],
        },
        "download_skipped": {
            "type": ["string", "null"],
            "description": "why there is no download file (remote output, over the size cap, "
            "not asked for, no records)",
        },
    },
)

_PROFILE_RESULT = result_object(
    ["summary", "tables", "ranges"],
    {
        "summary": result_object(
            ["records", "distinct_keys", "null_keys", "duplicate_records"],
            {
                "records": {"type": "integer"},
                "distinct_keys": {"type": "integer"},
                "null_keys": {"type": "integer"},
                "duplicate_records": {
                    "type": "integer",
                    "description": "records whose key and value an earlier record had",
                },
                "sequence_gaps": {"type": ["integer", "null"]},
                "sequence_missing": {"type": ["integer", "null"]},
                "sequence_out_of_order": {"type": ["integer", "null"]},
            },
        ),
        "tables": {
            "type": "object",
            "properties": {
                "partitions": column_table(
                    "partition", "records", "null_keys", "first_ts", "last_ts"
                ),
                "hours": column_table("hour", "records"),
                "value_sizes": column_table("stat", "bytes"),
                "duplicates": column_table("key", "value_bytes", "copies"),
                # What explains a partition's skew: the keys with most records and bytes,
                # the share of all records each has and the partitions it is in.
                "top_keys": column_table("key", "records", "bytes", "share", "partitions"),
                "sequence": column_table(
                    "scope", "checked", "gaps", "missing", "out_of_order", "no_field"
                ),
            },
        },
        "ranges": _RANGES,
    },
)

_REPLAY_RESULT = result_object(
    ["records", "partitions", "target_topic", "ranges"],
    {
        "records": COUNT,
        "target_topic": {"type": "string"},
        "partitions": {**_COUNTS, "description": "{target partition or 'any': records}"},
        "ranges": _RANGES,
    },
)

TOPIC_JOB_TYPES: tuple[JobType, ...] = (
    JobType(
        name="topic-export",
        title="Export a topic to Parquet",
        description="A topic's records between two offsets or two date-times, per "
        "partition, written as Parquet under the export directory, partitioned by date, and "
        "as one gzipped JSON-lines file to download.",
        script="topic_export.py",
        params_schema=_params_schema(
            {
                "output_name": {
                    "description": "Directory name under the export directory; default "
                    "export-<job id>. An existing one is never overwritten (the job fails).",
                    "type": ["string", "null"],
                    "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$",
                    "default": None,
                },
                "download": {
                    "description": "Also write the records as one gzipped JSON-lines file "
                    "to download from the job's page (a local export directory only; "
                    "skipped over SPARK_DOWNLOAD_MAX_BYTES).",
                    "type": "boolean",
                    "default": True,
                },
            }
        ),
        result_schema=_EXPORT_RESULT,
        checks=(check_range,),
    ),
    JobType(
        name="topic-profile",
        title="Profile a topic's records",
        description="Records per partition and per hour, key cardinality, the top keys "
        "(records, bytes, partitions), null keys, value sizes, exact duplicates (same key "
        "and value) and, for a JSON field holding a sequence number, gaps and out-of-order "
        "records.",
        script="topic_profile.py",
        params_schema=_params_schema(
            {
                "sequence_field": {
                    "description": "A top-level field of JSON values holding a sequence "
                    "number; its gaps and reversals are counted.",
                    "type": ["string", "null"],
                    "pattern": "^[A-Za-z0-9_.-]{1,100}$",
                    "default": None,
                },
                "sequence_scope": {
                    "description": "Compare each record with the one before it in the "
                    "same partition, or with the same key (in that order).",
                    "enum": ["partition", "key"],
                    "default": "partition",
                },
                "top_duplicates": {
                    "description": "How many of the most copied records to list.",
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 1000,
                    "default": 20,
                },
            }
        ),
        result_schema=_PROFILE_RESULT,
        checks=(check_range,),
    ),
    JobType(
        name="topic-replay",
        title="Replay records into another topic",
        description="Copy a range of records (key, value, headers), optionally only some "
        "keys, into another topic with Spark's Kafka sink (at least once).",
        script="topic_replay.py",
        params_schema=_params_schema(
            {
                "target_topic": {**TOPIC_NAME, "description": "Where to write."},
                "keys": {
                    "description": "Only records with one of these keys (UTF-8); "
                    "default: every record.",
                    "type": ["array", "null"],
                    "items": {"type": "string", "maxLength": 1024},
                    "minItems": 1,
                    "maxItems": 1000,
                    "default": None,
                },
                "preserve_partitions": {
                    "description": "Write each record to the partition number it had; "
                    "false: the target's partitioner chooses by key.",
                    "type": "boolean",
                    "default": True,
                },
            },
            required=("target_topic",),
        ),
        result_schema=_REPLAY_RESULT,
        checks=(check_range, check_replay_target),
    ),
)


def _field(path: Any) -> str:
    out = "params"
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _is_json_integer(checker: Any, instance: Any) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


def _whole_pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Any:
    # JSON Schema's `pattern` is a search, and Python's `$` also matches before a final
    # newline: "x\n" passed "^[a-z]+$" (an output directory got a newline in its name).
    # A pattern anchored with `$` here matches the end of the text, nothing less.
    if not validator.is_type(instance, "string"):
        return
    anchored = (
        pattern[:-1] + r"\Z" if pattern.endswith("$") and not pattern.endswith("\\$") else pattern
    )
    if not re.search(anchored, instance):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


# Params as the API reads every input: integers are JSON integers (Draft 2020-12 counts 5.0 as
# one), patterns match the whole text.
StrictParamsValidator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    validators={"pattern": _whole_pattern},
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_json_integer),
)


def validate_params(job_type: JobType, params: Any) -> dict[str, Any]:
    """The params checked against the schema, with its defaults filled in."""
    if params is None:
        params = {}
    validator = StrictParamsValidator(job_type.params_schema)
    error = best_match(validator.iter_errors(params))
    if error is not None:
        where = _field(error.absolute_path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            unknown = sorted(set(error.instance) - set(error.schema.get("properties", {})))
            where = _field([*error.absolute_path, unknown[0]]) if unknown else where
        elif error.validator == "required":
            missing = [k for k in error.validator_value if k not in error.instance]
            where = _field([*error.absolute_path, missing[0]]) if missing else where
        raise BadInput(where, f"{where}: {error.message}")
    filled = copy.deepcopy(params)
    for key, prop in job_type.params_schema["properties"].items():
        if key not in filled and "default" in prop:
            filled[key] = copy.deepcopy(prop["default"])
    return filled


def check_params(job_type: JobType, snap: ClusterSnapshot, params: dict[str, Any]) -> None:
    check_inputs(job_type, params)
    for check in job_type.checks:
        check(snap, params)


def check_inputs(job_type: JobType, params: dict[str, Any]) -> None:
    """Each input param names a succeeded job of a type it accepts."""
    for param, types in job_type.inputs:
        job_id = params.get(param)
        if job_id is None:
            continue
        found = SparkJob.objects.filter(pk=job_id).values_list("job_type", "state").first()
        where = f"params.{param}"
        if found is None:
            raise BadInput(where, f"{where}: there is no Spark job {job_id}.")
        kind, state = found
        if kind not in types:
            raise BadInput(
                where, f"{where}: job {job_id} is a {kind} job, not {' or '.join(types)}."
            )
        if state != JobState.SUCCEEDED:
            raise BadInput(where, f"{where}: job {job_id} has not succeeded (it is {state}).")


def result_problem(job_type: JobType, result: Any) -> str | None:
    """Why a script's result does not match its schema, or None."""
    error = best_match(jsonschema.Draft202012Validator(job_type.result_schema).iter_errors(result))
    if error is None:
        return None
    return f"{_field(error.absolute_path).replace('params', 'result', 1)}: {error.message}"

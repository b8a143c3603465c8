"""topic-search: the records of a range that a CEL filter matches, on Spark.

Spark's Kafka source reads the range (as every topic job does); each Spark partition decodes
and filters its records with the messages browser's own modules (`messages.decoding`,
`messages.filtering`, shipped with the job), so a record matches here exactly when it matches
in the browser. Every match is written as Parquet under the output directory
(`search-<job id>`); the result lists the first `max_matches` by (partition, offset) and the
counts. Schemas come from the cluster's
Schema Registry over its REST API (executors have no Django and no console client), cached
per executor process.
"""

from __future__ import annotations

import base64
import json
import ssl
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any

from common import ranges_result, read_range, run
from pyspark import StorageLevel
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import (
    IntegerType,
    LongType,
    StringType,
    StructField,
    StructType,
)

from console.schema_refs import ReferenceProblem, resolve
from messages.decoding import decode
from messages.filtering import RecordFilter, variables
from messages.schemas import SchemaProblem

TIMEOUT_S = 10


class RegistrySchemas:
    """Schemas by id from a Confluent-API registry; a failure is a SchemaProblem (the record
    is shown as bytes with the reason), remembered so the registry is not asked per record."""

    def __init__(self, options: dict[str, Any]):
        self.url = options["url"].rstrip("/")
        self.headers = {"Accept": "application/vnd.schemaregistry.v1+json"}
        if options.get("username"):
            pair = f"{options['username']}:{options.get('password') or ''}".encode()
            self.headers["Authorization"] = "Basic " + base64.b64encode(pair).decode()
        ca = options.get("ca_location")
        self.context = ssl.create_default_context(cafile=ca) if ca else None
        self.known: dict[int, Any] = {}

    def __call__(self, schema_id: int) -> Any:
        if schema_id not in self.known:
            self.known[schema_id] = self._fetch(schema_id)
        found = self.known[schema_id]
        if isinstance(found, SchemaProblem):
            raise found
        return found

    def _get(self, path: str) -> Any:
        request = urllib.request.Request(f"{self.url}{path}", headers=self.headers)
        with urllib.request.urlopen(request, timeout=TIMEOUT_S, context=self.context) as r:
            return json.loads(r.read())

    def _version(self, subject: str, version: int) -> tuple[str, str, list[Any]]:
        path = f"/subjects/{urllib.parse.quote(subject, safe='')}/versions/{version}"
        try:
            body = self._get(path)
        except urllib.error.HTTPError as exc:
            if exc.code == 404:
                raise ReferenceProblem(
                    f"the referenced subject {subject!r} version {version} is not in the registry"
                ) from None
            raise
        return body.get("schemaType") or "AVRO", body.get("schema") or "", _refs(body)

    def _fetch(self, schema_id: int) -> Any:
        try:
            body = self._get(f"/schemas/ids/{schema_id}")
            references = resolve(_refs(body), self._version) if body.get("references") else ()
        except urllib.error.HTTPError as exc:
            if exc.code == 404:
                return SchemaProblem("the Schema Registry has no schema with this id")
            return SchemaProblem(f"the Schema Registry answered {exc.code}")
        except (urllib.error.URLError, OSError, ValueError) as exc:
            return SchemaProblem(f"the Schema Registry at {self.url} cannot be reached ({exc})")
        except ReferenceProblem as exc:
            return SchemaProblem(str(exc))
        return _Schema(
            schema_id,
            (body.get("schemaType") or "AVRO").upper(),
            body.get("schema") or "",
            references,
        )


def _refs(body: dict[str, Any]) -> list[tuple[str, str, int]]:
    return [(r["name"], r["subject"], int(r["version"])) for r in body.get("references") or []]


class _Schema:
    def __init__(self, schema_id: int, kind: str, text: str, references: tuple[Any, ...]):
        self.id, self.type, self.text, self.references = schema_id, kind, text, references


def _search(params: dict[str, Any], registry: dict[str, Any] | None):
    expression, key_format = params["filter"], params["key_format"]
    value_format = params["value_format"]

    def search(rows: Iterator[Any]) -> Iterator[tuple[str, Any]]:
        record_filter = RecordFilter(expression)
        schemas = RegistrySchemas(registry) if registry else None
        scanned = matched = 0
        for row in rows:
            scanned += 1
            key = decode(row.key, key_format, schemas)
            value = decode(row.value, value_format, schemas)
            headers = [
                (h.key, decode(None if h.value is None else bytes(h.value), "auto", schemas))
                for h in row.headers or []
            ]
            found = variables(
                row.partition,
                row.offset,
                row.ts_ms,
                key.data if key else None,
                value.data if value else None,
                [(name, d.data if d else None) for name, d in headers],
            )
            if not record_filter.matches(found):
                continue
            matched += 1
            yield (
                "match",
                {
                    "partition": row.partition,
                    "offset": row.offset,
                    "timestamp_ms": row.ts_ms,
                    "key": key.as_dict() if key else None,
                    "value": value.as_dict() if value else None,
                    "headers": [
                        {"key": name, "value": d.as_dict() if d else None} for name, d in headers
                    ],
                },
            )
        yield (
            "counts",
            {
                "records": scanned,
                "matched": matched,
                "filter_errors": record_filter.errors,
                "filter_error": record_filter.first_error,
            },
        )

    return search


def main(spark: SparkSession, spec: dict[str, Any]) -> dict[str, Any]:
    params = spec["params"]
    records = read_range(spark, spec).select(
        "partition",
        "offset",
        # Kafka's milliseconds exactly (a Python datetime would pass through the local zone).
        F.unix_millis("timestamp").alias("ts_ms"),
        "key",
        "value",
        "headers",
    )
    found = records.rdd.mapPartitions(_search(params, spec.get("schema_registry")))
    found = found.persist(StorageLevel.MEMORY_AND_DISK)  # read Kafka once, used three times
    matches = found.filter(lambda item: item[0] == "match").map(lambda item: item[1])
    output_path = f"{spec['output_dir'].rstrip('/')}/search-{spec['job_id']}"
    spark.createDataFrame(matches.map(_parquet_row), PARQUET_SCHEMA).write.parquet(output_path)
    counts = found.filter(lambda item: item[0] == "counts").map(lambda item: item[1]).collect()
    first = matches.takeOrdered(params["max_matches"], key=_position)
    found.unpersist()
    matched = sum(c["matched"] for c in counts)
    errors = [c["filter_error"] for c in counts if c["filter_error"]]
    return {
        "records": sum(c["records"] for c in counts),
        "matched": matched,
        "truncated": matched > params["max_matches"],
        "filter_errors": sum(c["filter_errors"] for c in counts),
        "filter_error": errors[0] if errors else None,
        "matches": first,
        "output_path": output_path,
        "ranges": ranges_result(spec),
    }


# Every match, as Parquet: the decoded key, value and headers as JSON text (their shapes vary
# from record to record), exactly as `matches` gives them.
PARQUET_SCHEMA = StructType(
    [
        StructField("partition", IntegerType(), False),
        StructField("offset", LongType(), False),
        StructField("timestamp_ms", LongType(), True),
        StructField("key", StringType(), True),
        StructField("value", StringType(), True),
        StructField("headers", StringType(), False),
    ]
)


def _parquet_row(match: dict[str, Any]) -> tuple[Any, ...]:
    def text(part: Any) -> str | None:
        return None if part is None else json.dumps(part, separators=(",", ":"))

    return (
        match["partition"],
        match["offset"],
        match["timestamp_ms"],
        text(match["key"]),
        text(match["value"]),
        json.dumps(match["headers"], separators=(",", ":")),
    )


def _position(match: dict[str, Any]) -> tuple[int, int]:
    return match["partition"], match["offset"]


if __name__ == "__main__":
    run(main)

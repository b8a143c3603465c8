// Spark job fixtures. SPARK_JOB_TYPES is GET /api/v1/spark/job-types as the server answers it
// (sparkjobs/job_types.py describe()), so the forms are tested against the real schemas.
import type { SparkJob, SparkJobType } from "../api/types";

export const SPARK_JOB_TYPES: SparkJobType[] = [
  {
    "name": "topic-export",
    "title": "Export a topic to Parquet",
    "description": "A topic's records between two offsets or two date-times, per partition, written as Parquet under the export directory, partitioned by date.",
    "params_schema": {
      "type": "object",
      "properties": {
        "topic": {
          "type": "string",
          "minLength": 1,
          "maxLength": 249,
          "pattern": "^[A-Za-z0-9._-]+$",
          "description": "The topic to read."
        },
        "partitions": {
          "description": "Partitions to read; default: all.",
          "type": [
            "array",
            "null"
          ],
          "items": {
            "type": "integer",
            "minimum": 0,
            "maximum": 2147483647
          },
          "uniqueItems": true,
          "minItems": 1,
          "default": null
        },
        "start_offset": {
          "description": "First offset: one offset for every partition, or {partition: offset}; inclusive. Default: the log start.",
          "anyOf": [
            {
              "type": "integer",
              "minimum": 0,
              "maximum": 9223372036854775807
            },
            {
              "type": "object",
              "propertyNames": {
                "pattern": "^(0|[1-9][0-9]{0,9})$"
              },
              "additionalProperties": {
                "type": "integer",
                "minimum": 0,
                "maximum": 9223372036854775807
              }
            },
            {
              "type": "null"
            }
          ],
          "default": null
        },
        "end_offset": {
          "description": "End offset: one offset for every partition, or {partition: offset}; exclusive. Default: the log end when the job starts.",
          "anyOf": [
            {
              "type": "integer",
              "minimum": 0,
              "maximum": 9223372036854775807
            },
            {
              "type": "object",
              "propertyNames": {
                "pattern": "^(0|[1-9][0-9]{0,9})$"
              },
              "additionalProperties": {
                "type": "integer",
                "minimum": 0,
                "maximum": 9223372036854775807
              }
            },
            {
              "type": "null"
            }
          ],
          "default": null
        },
        "start_time": {
          "description": "Start (ISO-8601 with a time zone): the first record written at or after it.",
          "type": [
            "string",
            "null"
          ],
          "maxLength": 64,
          "default": null
        },
        "end_time": {
          "description": "End (ISO-8601 with a time zone): the first record written at or after it is not included.",
          "type": [
            "string",
            "null"
          ],
          "maxLength": 64,
          "default": null
        },
        "output_name": {
          "description": "Directory name under the export directory; default export-<job id>. An existing one is never overwritten (the job fails).",
          "type": [
            "string",
            "null"
          ],
          "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$",
          "default": null
        }
      },
      "required": [
        "topic"
      ],
      "additionalProperties": false
    },
    "result_schema": {
      "type": "object",
      "required": [
        "rows",
        "bytes",
        "files",
        "output_path",
        "partitions",
        "ranges"
      ],
      "properties": {
        "rows": {
          "type": "integer",
          "minimum": 0
        },
        "bytes": {
          "type": "integer",
          "minimum": 0
        },
        "files": {
          "type": "integer",
          "minimum": 0
        },
        "output_path": {
          "type": "string"
        },
        "partitions": {
          "type": "object",
          "additionalProperties": {
            "type": "integer",
            "minimum": 0
          },
          "description": "{partition: rows written}"
        },
        "ranges": {
          "type": "object",
          "description": "{partition: [first offset, end offset)} as read",
          "additionalProperties": {
            "type": "array",
            "items": {
              "type": "integer"
            }
          }
        }
      }
    }
  },
  {
    "name": "topic-profile",
    "title": "Profile a topic's records",
    "description": "Records per partition and per hour, key cardinality, null keys, value sizes, exact duplicates (same key and value) and, for a JSON field holding a sequence number, gaps and out-of-order records.",
    "params_schema": {
      "type": "object",
      "properties": {
        "topic": {
          "type": "string",
          "minLength": 1,
          "maxLength": 249,
          "pattern": "^[A-Za-z0-9._-]+$",
          "description": "The topic to read."
        },
        "partitions": {
          "description": "Partitions to read; default: all.",
          "type": [
            "array",
            "null"
          ],
          "items": {
            "type": "integer",
            "minimum": 0,
            "maximum": 2147483647
          },
          "uniqueItems": true,
          "minItems": 1,
          "default": null
        },
        "start_offset": {
          "description": "First offset: one offset for every partition, or {partition: offset}; inclusive. Default: the log start.",
          "anyOf": [
            {
              "type": "integer",
              "minimum": 0,
              "maximum": 9223372036854775807
            },
            {
              "type": "object",
              "propertyNames": {
                "pattern": "^(0|[1-9][0-9]{0,9})$"
              },
              "additionalProperties": {
                "type": "integer",
                "minimum": 0,
                "maximum": 9223372036854775807
              }
            },
            {
              "type": "null"
            }
          ],
          "default": null
        },
        "end_offset": {
          "description": "End offset: one offset for every partition, or {partition: offset}; exclusive. Default: the log end when the job starts.",
          "anyOf": [
            {
              "type": "integer",
              "minimum": 0,
              "maximum": 9223372036854775807
            },
            {
              "type": "object",
              "propertyNames": {
                "pattern": "^(0|[1-9][0-9]{0,9})$"
              },
              "additionalProperties": {
                "type": "integer",
                "minimum": 0,
                "maximum": 9223372036854775807
              }
            },
            {
              "type": "null"
            }
          ],
          "default": null
        },
        "start_time": {
          "description": "Start (ISO-8601 with a time zone): the first record written at or after it.",
          "type": [
            "string",
            "null"
          ],
          "maxLength": 64,
          "default": null
        },
        "end_time": {
          "description": "End (ISO-8601 with a time zone): the first record written at or after it is not included.",
          "type": [
            "string",
            "null"
          ],
          "maxLength": 64,
          "default": null
        },
        "sequence_field": {
          "description": "A top-level field of JSON values holding a sequence number; its gaps and reversals are counted.",
          "type": [
            "string",
            "null"
          ],
          "pattern": "^[A-Za-z0-9_.-]{1,100}$",
          "default": null
        },
        "sequence_scope": {
          "description": "Compare each record with the one before it in the same partition, or with the same key (in that order).",
          "enum": [
            "partition",
            "key"
          ],
          "default": "partition"
        },
        "top_duplicates": {
          "description": "How many of the most copied records to list.",
          "type": "integer",
          "minimum": 0,
          "maximum": 1000,
          "default": 20
        }
      },
      "required": [
        "topic"
      ],
      "additionalProperties": false
    },
    "result_schema": {
      "type": "object",
      "required": [
        "summary",
        "tables",
        "ranges"
      ],
      "properties": {
        "summary": {
          "type": "object",
          "required": [
            "records",
            "distinct_keys",
            "null_keys",
            "duplicate_records"
          ],
          "properties": {
            "records": {
              "type": "integer"
            },
            "distinct_keys": {
              "type": "integer"
            },
            "null_keys": {
              "type": "integer"
            },
            "duplicate_records": {
              "type": "integer",
              "description": "records whose key and value an earlier record had"
            },
            "sequence_gaps": {
              "type": [
                "integer",
                "null"
              ]
            },
            "sequence_missing": {
              "type": [
                "integer",
                "null"
              ]
            },
            "sequence_out_of_order": {
              "type": [
                "integer",
                "null"
              ]
            }
          }
        },
        "tables": {
          "type": "object",
          "properties": {
            "partitions": {
              "type": "object",
              "required": [
                "columns",
                "rows"
              ],
              "properties": {
                "columns": {
                  "const": [
                    "partition",
                    "records",
                    "null_keys",
                    "first_ts",
                    "last_ts"
                  ]
                },
                "rows": {
                  "type": "array",
                  "items": {
                    "type": "array",
                    "minItems": 5
                  }
                }
              }
            },
            "hours": {
              "type": "object",
              "required": [
                "columns",
                "rows"
              ],
              "properties": {
                "columns": {
                  "const": [
                    "hour",
                    "records"
                  ]
                },
                "rows": {
                  "type": "array",
                  "items": {
                    "type": "array",
                    "minItems": 2
                  }
                }
              }
            },
            "value_sizes": {
              "type": "object",
              "required": [
                "columns",
                "rows"
              ],
              "properties": {
                "columns": {
                  "const": [
                    "stat",
                    "bytes"
                  ]
                },
                "rows": {
                  "type": "array",
                  "items": {
                    "type": "array",
                    "minItems": 2
                  }
                }
              }
            },
            "duplicates": {
              "type": "object",
              "required": [
                "columns",
                "rows"
              ],
              "properties": {
                "columns": {
                  "const": [
                    "key",
                    "value_bytes",
                    "copies"
                  ]
                },
                "rows": {
                  "type": "array",
                  "items": {
                    "type": "array",
                    "minItems": 3
                  }
                }
              }
            },
            "sequence": {
              "type": "object",
              "required": [
                "columns",
                "rows"
              ],
              "properties": {
                "columns": {
                  "const": [
                    "scope",
                    "checked",
                    "gaps",
                    "missing",
                    "out_of_order",
                    "no_field"
                  ]
                },
                "rows": {
                  "type": "array",
                  "items": {
                    "type": "array",
                    "minItems": 6
                  }
                }
              }
            }
          }
        },
        "ranges": {
          "type": "object",
          "description": "{partition: [first offset, end offset)} as read",
          "additionalProperties": {
            "type": "array",
            "items": {
              "type": "integer"
            }
          }
        }
      }
    }
  },
  {
    "name": "topic-replay",
    "title": "Replay records into another topic",
    "description": "Copy a range of records (key, value, headers), optionally only some keys, into another topic with Spark's Kafka sink (at least once).",
    "params_schema": {
      "type": "object",
      "properties": {
        "topic": {
          "type": "string",
          "minLength": 1,
          "maxLength": 249,
          "pattern": "^[A-Za-z0-9._-]+$",
          "description": "The topic to read."
        },
        "partitions": {
          "description": "Partitions to read; default: all.",
          "type": [
            "array",
            "null"
          ],
          "items": {
            "type": "integer",
            "minimum": 0,
            "maximum": 2147483647
          },
          "uniqueItems": true,
          "minItems": 1,
          "default": null
        },
        "start_offset": {
          "description": "First offset: one offset for every partition, or {partition: offset}; inclusive. Default: the log start.",
          "anyOf": [
            {
              "type": "integer",
              "minimum": 0,
              "maximum": 9223372036854775807
            },
            {
              "type": "object",
              "propertyNames": {
                "pattern": "^(0|[1-9][0-9]{0,9})$"
              },
              "additionalProperties": {
                "type": "integer",
                "minimum": 0,
                "maximum": 9223372036854775807
              }
            },
            {
              "type": "null"
            }
          ],
          "default": null
        },
        "end_offset": {
          "description": "End offset: one offset for every partition, or {partition: offset}; exclusive. Default: the log end when the job starts.",
          "anyOf": [
            {
              "type": "integer",
              "minimum": 0,
              "maximum": 9223372036854775807
            },
            {
              "type": "object",
              "propertyNames": {
                "pattern": "^(0|[1-9][0-9]{0,9})$"
              },
              "additionalProperties": {
                "type": "integer",
                "minimum": 0,
                "maximum": 9223372036854775807
              }
            },
            {
              "type": "null"
            }
          ],
          "default": null
        },
        "start_time": {
          "description": "Start (ISO-8601 with a time zone): the first record written at or after it.",
          "type": [
            "string",
            "null"
          ],
          "maxLength": 64,
          "default": null
        },
        "end_time": {
          "description": "End (ISO-8601 with a time zone): the first record written at or after it is not included.",
          "type": [
            "string",
            "null"
          ],
          "maxLength": 64,
          "default": null
        },
        "target_topic": {
          "type": "string",
          "minLength": 1,
          "maxLength": 249,
          "pattern": "^[A-Za-z0-9._-]+$",
          "description": "Where to write."
        },
        "keys": {
          "description": "Only records with one of these keys (UTF-8); default: every record.",
          "type": [
            "array",
            "null"
          ],
          "items": {
            "type": "string",
            "maxLength": 1024
          },
          "minItems": 1,
          "maxItems": 1000,
          "default": null
        },
        "preserve_partitions": {
          "description": "Write each record to the partition number it had; false: the target's partitioner chooses by key.",
          "type": "boolean",
          "default": true
        }
      },
      "required": [
        "topic",
        "target_topic"
      ],
      "additionalProperties": false
    },
    "result_schema": {
      "type": "object",
      "required": [
        "records",
        "partitions",
        "target_topic",
        "ranges"
      ],
      "properties": {
        "records": {
          "type": "integer",
          "minimum": 0
        },
        "target_topic": {
          "type": "string"
        },
        "partitions": {
          "type": "object",
          "additionalProperties": {
            "type": "integer",
            "minimum": 0
          },
          "description": "{target partition or 'any': records}"
        },
        "ranges": {
          "type": "object",
          "description": "{partition: [first offset, end offset)} as read",
          "additionalProperties": {
            "type": "array",
            "items": {
              "type": "integer"
            }
          }
        }
      }
    }
  }
];

/** A job; `overrides` change any field. */
export function sparkJob(overrides: Partial<SparkJob> = {}): SparkJob {
  return {
    id: 42,
    job_type: "topic-profile",
    cluster: "local",
    params: {
      topic: "orders",
      partitions: null,
      start_offset: null,
      end_offset: null,
      start_time: null,
      end_time: null,
      sequence_field: "seq",
      sequence_scope: "partition",
      top_duplicates: 20,
    },
    state: "running",
    progress: 0.25,
    spark_app_id: "local-1782900000000",
    created_by: "alice",
    created_at: "2026-07-01T14:00:00.000000Z",
    started_at: "2026-07-01T14:00:02.000000Z",
    finished_at: null,
    heartbeat_at: "2026-07-01T14:00:10.000000Z",
    cancel_requested: false,
    result: null,
    error: "",
    log_tail: "INFO SparkContext: Running Spark version 4.0.0\nINFO DAGScheduler: Submitting 4 tasks\n",
    steps: null,
    ...overrides,
  };
}

/** topic-profile's result over 2 partitions, with sequence checks. */
export const PROFILE_RESULT = {
  summary: {
    records: 60,
    distinct_keys: 4,
    null_keys: 8,
    null_values: 0,
    duplicate_records: 8,
    sequence_gaps: 1,
    sequence_missing: 2,
    sequence_out_of_order: 1,
  },
  tables: {
    partitions: {
      columns: ["partition", "records", "null_keys", "first_ts", "last_ts"],
      rows: [
        [0, 30, 4, "2026-07-01T13:00:00.000Z", "2026-07-01T13:59:00.000Z"],
        [1, 30, 4, "2026-07-01T13:00:01.000Z", "2026-07-01T13:59:01.000Z"],
      ],
    },
    hours: { columns: ["hour", "records"], rows: [["2026-07-01T13:00:00.000Z", 60]] },
    value_sizes: {
      columns: ["stat", "bytes"],
      rows: [["min", 17], ["p50", 18], ["p90", 19], ["p99", 19], ["max", 19], ["mean", 18.2]],
    },
    duplicates: { columns: ["key", "value_bytes", "copies"], rows: [["k0", 18, 2], [null, 18, 2]] },
    sequence: {
      columns: ["scope", "checked", "gaps", "missing", "out_of_order", "no_field"],
      rows: [["0", 30, 1, 2, 0, 0], ["1", 30, 0, 0, 1, 0]],
    },
  },
  ranges: { "0": [0, 30], "1": [0, 30] },
};

/** topic-export's result: partition 0 read from offset 3. */
export const EXPORT_RESULT = {
  rows: 57,
  bytes: 5321,
  files: 2,
  output_path: "/data/spark/output/export-7",
  partitions: { "0": 27, "1": 30 },
  ranges: { "0": [3, 30], "1": [0, 30] },
};

/** topic-replay's result, preserving partitions. */
export const REPLAY_RESULT = {
  records: 60,
  target_topic: "orders-copy",
  partitions: { "1": 30, "0": 30 },
  ranges: { "0": [0, 30], "1": [0, 30] },
};

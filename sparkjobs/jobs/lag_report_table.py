"""The lag report's statuses and table columns, in order, written once for both sides: the
script (lag_report.py imports it from its own directory, as the Spark driver runs it) and its
job type's result schema (sparkjobs/types_lag_report.py, which the SPA's sample report is
checked against). Pure Python: the console imports it without Spark."""

STATUSES = ("OK", "WARN", "STALL", "STOP", "ERR", "REWIND", "UNKNOWN")
COLUMNS = [
    "group",
    "samples",
    "lag_p50",
    "lag_p95",
    "lag_max",
    "lag_seconds_p50",
    "lag_seconds_p95",
    "lag_seconds_max",
    *(f"seconds_{s.lower()}" for s in STATUSES),
]

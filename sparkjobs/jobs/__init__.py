"""PySpark job scripts, run by spark-submit (not imported by the console, except two pure
modules both the scripts and the console use: `job_errors.py`, the error summary, and
`lag_report_table.py`, the lag report's columns)."""

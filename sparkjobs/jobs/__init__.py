"""PySpark job scripts, run by spark-submit (not imported by the console, except
`job_errors.py`, the pure error summary both the scripts and the console use)."""

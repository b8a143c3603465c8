"""PySpark job scripts, run by spark-submit (not imported by the console)."""

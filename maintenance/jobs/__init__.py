"""The predictive-maintenance PySpark job scripts, run by spark-submit (not imported by the
console), and `pipeline_steps.py`, which both the console and the pipeline script import.

A script imports `common` and `job_errors` (sparkjobs/jobs/, which spark-submit ships with
--py-files) and the modules next to it (the driver runs the script from this directory)."""

from pathlib import Path

JOBS_DIR = Path(__file__).resolve().parent

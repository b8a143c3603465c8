"""Spark job updates pushed to `/ws/spark/jobs/{id}`: the job object after every change.

`states` calls `job_changed` after each change it made; the push goes out once the change is
committed (a page must never see a state that was rolled back). A running job changes about
once a second (heartbeat, progress, log tail), which is the push rate of its page; its final
state is always pushed.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction

from console import push

JOB_EVENT = "spark.job"  # JobConsumer.spark_job handles it


def job_channel(job_id: int) -> str:
    return f"spark.job.{int(job_id)}"


def job_message(job: Any) -> dict[str, Any]:
    from sparkjobs.api.serializers import SparkJobSerializer

    return {"type": "job", **SparkJobSerializer(job).data}


def publish_job(job_id: int) -> bool:
    """Send the job as it is now to its sockets; whether it was sent. Never raises."""
    from sparkjobs.models import SparkJob

    job = SparkJob.objects.select_related("created_by").filter(pk=job_id).first()
    if job is None:
        return False
    event = {"type": JOB_EVENT, "message": job_message(job)}
    return push.send_to_groups([(job_channel(job_id), event)], f"spark job {job_id}") == 1


def job_changed(job_id: int) -> None:
    transaction.on_commit(partial(publish_job, job_id))

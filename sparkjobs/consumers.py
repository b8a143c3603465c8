"""`/ws/spark/jobs/{id}`: the current job on connect, then `{"type": "job", ...}` on every
change (sparkjobs.live). Viewers of the job's cluster and up; an unknown job is closed with 4404."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from console.ws_push import GroupPushConsumer
from sparkjobs.live import job_channel, job_message
from sparkjobs.models import SparkJob

CLOSE_UNKNOWN_JOB = 4404


@database_sync_to_async
def _job_message(job_id: int) -> dict[str, Any] | None:
    job = SparkJob.objects.select_related("created_by").filter(pk=job_id).first()
    return None if job is None else job_message(job)


@database_sync_to_async
def _job_cluster(job_id: int) -> str | None:
    return SparkJob.objects.filter(pk=job_id).values_list("cluster", flat=True).first()


class JobConsumer(GroupPushConsumer):
    def job_id(self) -> int:
        return int(self.scope["url_route"]["kwargs"]["job_id"])

    async def role_cluster(self) -> str | None:
        # The job's cluster; an unknown job needs the role anywhere, then closes with 4404.
        return await _job_cluster(self.job_id())

    async def group_for(self) -> str | None:
        if await _job_message(self.job_id()) is None:
            await self.close(code=CLOSE_UNKNOWN_JOB)
            return None
        return job_channel(self.job_id())

    async def on_joined(self) -> None:
        # Whatever changed before the socket joined is not lost: the page starts from now.
        message = await _job_message(self.job_id())
        if message is not None:
            await self.send_json(message)

    async def spark_job(self, event: dict[str, Any]) -> None:
        await self.send_json(event["message"])

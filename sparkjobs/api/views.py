from collections import deque
from pathlib import Path
from typing import Any

from django.http import FileResponse, HttpResponse
from django.http.response import HttpResponseBase
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from console.api.base import ConsoleAPIView, query_int
from console.api.downloads import content_disposition
from console.audit import audited
from console.errors import BadInput
from console.roles import scoped
from sparkjobs import downloads, log_lines, schedules, service
from sparkjobs.api import serializers as s
from sparkjobs.catalog import JOB_TYPES
from sparkjobs.choices import JobState

LIST_DEFAULT, LIST_MAX = 100, 1000
LOG_LINES_MAX = 10_000
TEXT = "text/plain; charset=utf-8"


def job_types_answer() -> list[dict[str, Any]]:
    """The answer of GET spark/job-types: every job type of the catalog, in its order (also
    what `manage.py tssamples` writes for the SPA's tests)."""
    return list(s.JobTypeSerializer([jt.describe() for jt in JOB_TYPES.values()], many=True).data)


class _SparkView(ConsoleAPIView):
    """Jobs and schedules carry their cluster: the role is checked on it."""

    def _job(self, job_id: int) -> Any:
        job = service.get_job(job_id)
        self.require_role(job.cluster)
        return job

    def _schedule(self, schedule_id: int) -> Any:
        schedule = schedules.get_schedule(schedule_id)
        self.require_role(schedule.cluster)
        return schedule


class JobTypeListView(_SparkView):
    @extend_schema(responses=s.JobTypeSerializer(many=True), summary="Spark job types")
    def get(self, request: Request) -> Response:
        return Response(job_types_answer())


class JobListView(_SparkView):
    write_role = "operator"

    @extend_schema(
        responses=s.SparkJobSerializer(many=True),
        summary="Spark jobs, newest first",
        parameters=[
            OpenApiParameter("state", str, enum=list(JobState.values)),
            OpenApiParameter("job_type", str),
            OpenApiParameter("limit", int, description=f"1..{LIST_MAX} (default {LIST_DEFAULT})"),
        ],
    )
    def get(self, request: Request) -> Response:
        query = request.query_params
        limit = query_int(query, "limit", LIST_DEFAULT, 1, LIST_MAX)
        jobs = service.list_jobs(query.get("state"), query.get("job_type"), limit, self.scope())
        return Response(s.SparkJobSerializer(jobs, many=True).data)

    @extend_schema(
        request=s.SubmitSerializer,
        responses={201: s.SparkJobSerializer},
        summary="Submit a Spark job (validated, then queued)",
    )
    def post(self, request: Request) -> Response:
        with audited(
            request.user,
            "spark.job.submit",
            cluster=self.body_field("cluster"),
            target=self.body_field("job_type"),
            request=request.data,
        ) as log:
            body = self.validated(s.SubmitSerializer, request.data)
            self.require_role(body["cluster"])
            job = service.submit(
                body["job_type"], body["cluster"], body["params"], request.user, log
            )
        return Response(s.SparkJobSerializer(job).data, status=201)


class JobDetailView(_SparkView):
    @extend_schema(responses=s.SparkJobSerializer, summary="One Spark job")
    def get(self, request: Request, job_id: int) -> Response:
        return Response(s.SparkJobSerializer(self._job(job_id)).data)


class JobCancelView(_SparkView):
    write_role = "operator"

    @extend_schema(
        request=None,
        responses={200: s.SparkJobSerializer, 202: s.SparkJobSerializer},
        summary="Cancel a job: 200 when it was queued (now cancelled), 202 when its worker "
        "is stopping it",
    )
    def post(self, request: Request, job_id: int) -> Response:
        existing = self._job(job_id)
        with audited(
            request.user, "spark.job.cancel", cluster=existing.cluster, target=str(job_id)
        ) as log:
            self.no_body()
            job = service.cancel(job_id)
            log.details["state"] = job.state
        status = 200 if job.state == JobState.CANCELLED else 202
        return Response(s.SparkJobSerializer(job).data, status=status)


class JobLogView(_SparkView):
    @extend_schema(
        responses={
            (200, "text/plain"): OpenApiResponse(
                description="the driver log: whole by default, else its lines the `level` "
                "keeps, the last `lines` of them"
            )
        },
        summary="A job's driver log",
        parameters=[
            OpenApiParameter(
                "level",
                str,
                enum=list(log_lines.FILTERS),
                description="all (default): every line; warn: errors and warnings, without "
                "Spark's TRACE, DEBUG and INFO lines and the lines continuing them (what the "
                "program prints itself is kept)",
            ),
            OpenApiParameter(
                "lines",
                int,
                description=f"only the last lines (of what `level` keeps), 1..{LOG_LINES_MAX} "
                "(default: the whole log); a line over "
                f"{service.LOG_LINE_CHARS} characters is cut",
            ),
        ],
    )
    def get(self, request: Request, job_id: int) -> HttpResponseBase:
        query = request.query_params
        level = query.get("level") or log_lines.ALL
        if level not in log_lines.FILTERS:
            raise BadInput("level", f"level: give {' or '.join(log_lines.FILTERS)}.")
        last = query_int(query, "lines", 0, 1, LOG_LINES_MAX)  # 0: not given, the whole log
        job = self._job(job_id)
        if level == log_lines.ALL and not last:
            path = Path(job.log_path) if job.log_path else None
            if path is None or not path.is_file():
                return HttpResponse(job.log_tail, content_type=TEXT)
            return FileResponse(path.open("rb"), content_type=TEXT)
        # Read line by line; of the last `lines` only those are ever held.
        kept = log_lines.iter_filtered(service.driver_log(job), level)
        return HttpResponse("".join(deque(kept, maxlen=last) if last else kept), content_type=TEXT)


class JobDownloadView(_SparkView):
    @extend_schema(
        responses={
            (200, downloads.CONTENT_TYPE): OpenApiResponse(
                description="A succeeded topic-export's records as one gzipped JSON-lines file "
                "(an attachment named <topic>-<job id>.jsonl.gz), as its result's `download` "
                "describes; 404 `no_download` (details.reason) when it has none"
            )
        },
        summary="Download a topic-export's records (JSON lines, gzip)",
    )
    def get(self, request: Request, job_id: int) -> HttpResponseBase:
        found = downloads.export_download(self._job(job_id))
        response = FileResponse(found.path.open("rb"), content_type=downloads.CONTENT_TYPE)
        response["Content-Disposition"] = content_disposition(found.filename)
        return response


class ScheduleListView(_SparkView):
    write_role = "operator"

    @extend_schema(responses=s.ScheduleSerializer(many=True), summary="Job schedules")
    def get(self, request: Request) -> Response:
        mine = scoped(schedules.list_schedules(), self.scope())
        return Response(s.ScheduleSerializer(mine, many=True).data)

    @extend_schema(
        request=s.ScheduleInputSerializer,
        responses={201: s.ScheduleDetailSerializer},
        summary="Schedule a job type with its params (cron in a time zone, or every N minutes)",
    )
    def post(self, request: Request) -> Response:
        with audited(
            request.user,
            "spark.schedule.create",
            cluster=self.body_field("cluster"),
            target=self.body_field("job_type"),
            request=request.data,
        ) as log:
            body = self.validated(s.ScheduleInputSerializer, request.data)
            self.require_role(body["cluster"])
            schedule = schedules.create_schedule(body, request.user)
            log.details["schedule_id"] = schedule.pk
        return Response(s.ScheduleDetailSerializer(schedule).data, status=201)


class ScheduleDetailView(_SparkView):
    write_role = "operator"

    @extend_schema(
        responses=s.ScheduleDetailSerializer, summary="One job schedule, with its last runs"
    )
    def get(self, request: Request, schedule_id: int) -> Response:
        return Response(s.ScheduleDetailSerializer(self._schedule(schedule_id)).data)

    @extend_schema(
        request=s.ScheduleInputSerializer(partial=True),
        responses=s.ScheduleDetailSerializer,
        summary="Change a job schedule (the fields given)",
    )
    def patch(self, request: Request, schedule_id: int) -> Response:
        schedule = self._schedule(schedule_id)
        with audited(
            request.user,
            "spark.schedule.update",
            cluster=schedule.cluster,
            target=str(schedule_id),
            request=request.data,
        ):
            body = self.validated(
                s.ScheduleInputSerializer,
                request.data,
                partial=True,
                context={"schedule": schedule},
            )
            if "cluster" in body:  # moved to another cluster: the role is needed there too
                self.require_role(body["cluster"])
            schedule = schedules.update_schedule(schedule, body)
        return Response(s.ScheduleDetailSerializer(schedule).data)

    @extend_schema(responses={204: None}, summary="Delete a job schedule (its jobs stay)")
    def delete(self, request: Request, schedule_id: int) -> Response:
        schedule = self._schedule(schedule_id)
        with audited(
            request.user, "spark.schedule.delete", cluster=schedule.cluster, target=str(schedule_id)
        ):
            self.no_body()
            schedule.delete()
        return Response(status=204)

"""Running one job: spark-submit in its own process group, watched until it ends.

Steps (in the Celery worker, see tasks.py):
1. Take the job: CAS queued -> submitted. Losing means another worker has it, or it was
   cancelled while queued: do nothing.
2. Resolve its offsets, write the spec (0600: it holds the cluster's secrets) into
   SPARK_WORK_DIR/<id>/, and start spark-submit in a new process group.
3. A reader thread copies the driver's output to driver.log, keeps the tail and picks up
   the application id and UI address. Every POLL_SECONDS the runner writes the heartbeat and
   the progress (completed/total tasks from the driver's REST API) and reads the cancel flag.
   A multi-step job (sparkjobs/steps.py) also prints a marker line per step transition: the
   reader keeps `steps` up to date, the runner saves them with the heartbeat, and progress is
   (finished steps + the running step's share of tasks) / steps.
4. Cancel: SIGTERM to the group (Spark's shutdown hooks stop the application), SIGKILL after
   SPARK_KILL_GRACE_SECONDS, then `cancelled`. Otherwise the exit decides: 0 with a result
   that matches its schema is `succeeded`, anything else `failed` with the error, the log tail
   and the log's lines that explain the failure (`failure_lines`, sparkjobs/log_lines.py), read
   from driver.log once, so that reading a job never parses its log.
The spec is deleted at the end whatever happened; the log and the result stay.
"""

from __future__ import annotations

import collections
import json
import logging
import os
import signal
import socket
import subprocess
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import psutil
from django.conf import settings
from django.utils import timezone

from console.clusters import get_cluster
from console.errors import BadInput, ConsoleError
from console.kafka import KafkaAdapterError
from sparkjobs import class_archive, log_lines, spark_submit, states
from sparkjobs import steps as job_steps
from sparkjobs.catalog import JOB_TYPES
from sparkjobs.choices import ACTIVE, JobState
from sparkjobs.job_types import JobType, result_problem
from sparkjobs.jobs import job_errors
from sparkjobs.kafka_options import masked, schema_registry_options, spark_kafka_options
from sparkjobs.models import SparkJob
from sparkjobs.ranges import resolve_ranges

log = logging.getLogger(__name__)

POLL_SECONDS = 1.0
TAIL_LINES = 80
# How much of driver.log's end is searched for the error when the script wrote none.
LOG_READ_BYTES = 2 * 1024 * 1024
STARTED = (JobState.SUBMITTED, JobState.RUNNING)


def work_dir(job_id: int) -> Path:
    return Path(settings.SPARK_WORK_DIR) / str(job_id)


def spec_path(job_id: int) -> Path:
    return work_dir(job_id) / "spec.json"


def _write_private(path: Path, text: str) -> None:
    """Created 0600 from the start: never readable by others, not even for a moment."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)


@dataclass
class DriverOutput:
    """What the reader thread learned from the driver's output."""

    tail: collections.deque[str] = field(default_factory=lambda: collections.deque(maxlen=400))
    app_id: str | None = None
    ui_url: str | None = None
    # A multi-step job's steps as its marker lines left them (None: the job has no steps).
    steps: list[dict[str, Any]] | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def text(self, lines: int = TAIL_LINES) -> str:
        with self.lock:
            return "".join(list(self.tail)[-lines:])

    def lines(self) -> list[str]:
        with self.lock:
            return list(self.tail)

    def current_steps(self) -> list[dict[str, Any]] | None:
        with self.lock:
            return None if self.steps is None else list(self.steps)


def _pump(stream: IO[str], log_file: IO[str], out: DriverOutput, markers: bool) -> None:
    """One of the driver's two streams into driver.log and `out`, a whole line at a time.
    Step markers are read from stdout only (`markers`): the script's prints reach it through
    the JVM's System.out in chunks, and on a stream shared with stderr a log line written by
    another JVM thread between two chunks cut a long marker in two (its step then read as
    failed, though it succeeded)."""
    for line in stream:
        with out.lock:
            log_file.write(line)
            log_file.flush()
            out.tail.append(line)
            out.app_id = out.app_id or spark_submit.parse_app_id(line)
            out.ui_url = spark_submit.parse_ui_url(line) or out.ui_url
            if (
                markers
                and out.steps is not None
                and (event := job_steps.parse_line(line)) is not None
            ):
                out.steps = job_steps.apply(out.steps, event, timezone.now().isoformat())


def kill_group(pid: int, grace: float | None = None) -> None:
    """SIGTERM the process group led by `pid`, then SIGKILL whatever is left after `grace`."""
    grace = settings.SPARK_KILL_GRACE_SECONDS if grace is None else grace
    members = _group_members(pid)
    try:
        os.killpg(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    _, alive = psutil.wait_procs(members, timeout=grace)
    if alive or _group_members(pid):
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        psutil.wait_procs(_group_members(pid), timeout=5)


def _group_members(pgid: int) -> list[psutil.Process]:
    members = []
    for proc in psutil.process_iter(["pid"]):
        try:
            if os.getpgid(proc.pid) == pgid:
                members.append(proc)
        except (ProcessLookupError, PermissionError, psutil.Error):
            continue
    return members


def _driver_api(out: DriverOutput, what: str) -> Any:
    """`/api/v1/applications/<app>/<what>` of the driver's monitoring REST API, or None."""
    if not out.app_id or not out.ui_url:
        return None
    port = out.ui_url.rsplit(":", 1)[-1].strip("/")
    url = f"http://127.0.0.1:{port}/api/v1/applications/{out.app_id}/{what}"
    try:
        with urllib.request.urlopen(url, timeout=1.0) as answer:
            return json.load(answer)
    except (OSError, ValueError):
        return None  # the UI is starting or already stopped


def _progress(out: DriverOutput) -> float | None:
    """Completed share of tasks from the driver's monitoring REST API, None if unknown; for a
    multi-step job, finished steps plus the running step's share of its Spark jobs' tasks."""
    current = out.current_steps()
    if current is not None:
        name = job_steps.running(current)
        jobs = _driver_api(out, "jobs") if name else None
        return job_steps.progress(current, job_steps.group_fraction(jobs, name or ""))
    stages = _driver_api(out, "stages")
    return None if stages is None else spark_submit.stage_progress(stages)


def input_results(job_type: JobType, params: dict[str, Any]) -> dict[str, Any]:
    """The results of the earlier jobs this one reads (checked at submit; checked again here,
    since an input could have been deleted since)."""
    out: dict[str, Any] = {}
    for param, types in job_type.inputs:
        job_id = params.get(param)
        if job_id is None:
            continue
        earlier = SparkJob.objects.filter(
            pk=job_id, job_type__in=types, state=JobState.SUCCEEDED
        ).first()
        if earlier is None or not isinstance(earlier.result, dict):
            raise BadInput(f"params.{param}", f"params.{param}: job {job_id} has no result.")
        out[param] = earlier.result
    return out


def _prepare(job: SparkJob) -> tuple[list[str], Path]:
    """Write the spec and return (command, work dir); raises ConsoleError on bad input."""
    job_type = JOB_TYPES[job.job_type]
    cfg = get_cluster(job.cluster)
    ranges = resolve_ranges(cfg, job.params) if job_type.reads_range else {}
    options = spark_kafka_options(cfg)
    where = work_dir(job.pk)
    where.mkdir(parents=True, exist_ok=True, mode=0o700)
    for stale in ("result.json", "error.txt"):
        (where / stale).unlink(missing_ok=True)
    spec = {
        "job_id": job.pk,
        "job_type": job.job_type,
        "cluster": job.cluster,
        "params": job.params,
        "topic": job.params["topic"] if job_type.reads_range else None,
        "ranges": {str(p): list(r) for p, r in ranges.items()},
        "inputs": input_results(job_type, job.params),
        "kafka_options": options,
        # The cluster's Schema Registry (its password too: the spec is private to the job).
        "schema_registry": schema_registry_options(cfg),
        "output_dir": str(settings.SPARK_OUTPUT_DIR),
        "download_max_bytes": settings.SPARK_DOWNLOAD_MAX_BYTES,
        "result_path": str(where / "result.json"),
        "error_path": str(where / "error.txt"),
    }
    _write_private(spec_path(job.pk), json.dumps(spec))
    log.info("job %s: kafka options %s", job.pk, masked(options))
    cmd = spark_submit.build_command(
        script=job_type.script_path,
        spec_path=spec_path(job.pk),
        master=settings.SPARK_MASTER,
        jars=spark_submit.kafka_jars(Path(settings.SPARK_KAFKA_JARS_DIR)),
        ui_port=spark_submit.free_port(),
        app_name=f"kafka-console job {job.pk} {job.job_type}",
        conf=class_archive.with_archive({str(k): str(v) for k, v in settings.SPARK_CONF.items()}),
        py_files=[
            spark_submit.product_zip(
                job_type.product_modules, settings.BASE_DIR, where / "product.zip"
            )
        ]
        if job_type.product_modules
        else [],
    )
    return cmd, where


def run(job_id: int) -> str:
    """Run job `job_id` to its end; returns the state it ended in (see the module doc)."""
    host = socket.gethostname()
    if not states.transition(job_id, JobState.QUEUED, JobState.SUBMITTED, worker_host=host):
        state = SparkJob.objects.filter(pk=job_id).values_list("state", flat=True).first()
        log.info("job %s not taken: it is %s", job_id, state)
        return str(state)
    job = SparkJob.objects.get(pk=job_id)
    try:
        cmd, where = _prepare(job)
    except Exception as exc:  # whatever it is, the job must not stay `submitted`
        known = isinstance(exc, (ConsoleError, KafkaAdapterError, OSError))
        message = getattr(exc, "message", None) or str(exc)
        if not known:
            log.exception("job %s could not start", job_id)
            message = f"The job could not start: {type(exc).__name__}: {message}"
        states.transition(job_id, JobState.SUBMITTED, JobState.FAILED, error=message)
        return JobState.FAILED
    log.info("job %s: %s", job_id, " ".join(spark_submit.mask(cmd)))
    try:
        return _watch(job, cmd, where)
    finally:
        spec_path(job_id).unlink(missing_ok=True)  # the secrets go with the run


def _watch(job: SparkJob, cmd: list[str], where: Path) -> str:
    log_path = where / "driver.log"
    names = job_steps.JOB_STEPS.get(job.job_type)
    out = DriverOutput(steps=job.steps or (job_steps.initial(names) if names else None))
    with log_path.open("a") as log_file:
        proc = subprocess.Popen(
            cmd,
            cwd=where,
            env=spark_submit.driver_env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,  # apart: see _pump
            text=True,
            errors="replace",
            start_new_session=True,  # its own process group: one signal reaches the JVM too
        )
        states.update_active(job.pk, spark_pid=proc.pid, log_path=str(log_path))
        assert proc.stdout is not None and proc.stderr is not None
        readers = [
            threading.Thread(target=_pump, args=(stream, log_file, out, markers), daemon=True)
            for stream, markers in ((proc.stdout, True), (proc.stderr, False))
        ]
        for reader in readers:
            reader.start()
        try:
            outcome = _poll_until_done(job.pk, proc, out)
        except BaseException:
            # The soft time limit, a worker shutdown: never leave the JVM behind.
            kill_group(proc.pid)
            for reader in readers:
                reader.join(timeout=10)
            error = "Stopped by the worker (time limit or shutdown)."
            states.transition(
                job.pk,
                STARTED,
                JobState.FAILED,
                error=error,
                failure_lines=log_lines.failure_lines(_log_lines(where, out)),
                log_tail=out.text(),
                spark_pid=None,
                **_final_steps(out, JobState.FAILED, error),
            )
            raise
        for reader in readers:
            reader.join(timeout=30)
    return _finish(job, proc, out, outcome, where)


def _poll_until_done(job_id: int, proc: subprocess.Popen, out: DriverOutput) -> str:
    """Heartbeat, progress and the cancel flag, until the process ends or is cancelled.
    Returns "exited", "cancelled" or "gone" (someone else ended the job, e.g. the reaper)."""
    progress = 0.0
    recorded_app: tuple[str | None, str | None] = (None, None)
    while proc.poll() is None:
        # On a cluster the master's app id shows before the driver's UI address: record both.
        if out.app_id and (out.app_id, out.ui_url) != recorded_app:
            recorded_app = (out.app_id, out.ui_url)
            fields = {"spark_app_id": out.app_id, "spark_ui_url": out.ui_url or ""}
            if not states.transition(job_id, JobState.SUBMITTED, JobState.RUNNING, **fields):
                states.update_active(job_id, **fields)
        measured = _progress(out)
        if measured is not None:
            progress = max(progress, min(measured, 0.99))  # 1.0 only once it succeeded
        current = out.current_steps()
        states.update_active(
            job_id,
            heartbeat_at=timezone.now(),
            progress=progress,
            log_tail=out.text(),
            **({} if current is None else {"steps": current}),
        )
        row = SparkJob.objects.filter(pk=job_id).values("state", "cancel_requested").first()
        if row is None or row["state"] not in ACTIVE:
            kill_group(proc.pid)
            return "gone"
        if row["cancel_requested"]:
            kill_group(proc.pid)
            return "cancelled"
        time.sleep(POLL_SECONDS)
    return "exited"


def _finish(
    job: SparkJob, proc: subprocess.Popen, out: DriverOutput, outcome: str, where: Path
) -> str:
    proc.wait()
    tail = out.text()
    done: dict[str, Any] = {"log_tail": tail, "spark_pid": None}
    if outcome == "gone":
        state = str(SparkJob.objects.values_list("state", flat=True).get(pk=job.pk))
        SparkJob.objects.filter(pk=job.pk).update(spark_pid=None, **_final_steps(out, state, ""))
        return state
    if outcome == "cancelled":
        done.update(_final_steps(out, JobState.CANCELLED, ""))
        states.transition(job.pk, STARTED, JobState.CANCELLED, **done)
        return JobState.CANCELLED
    result, problem = None, None
    if proc.returncode == 0:
        try:
            result = json.loads((where / "result.json").read_text())
            problem = result_problem(JOB_TYPES[job.job_type], result)
        except (OSError, ValueError) as exc:
            problem = f"the job wrote no readable result ({exc})"
    if proc.returncode == 0 and problem is None:
        done.update(_final_steps(out, JobState.SUCCEEDED, ""))
        if states.transition(
            job.pk, STARTED, JobState.SUCCEEDED, result=result, progress=1.0, **done
        ):
            _after_success(job)
        return JobState.SUCCEEDED
    lines = _log_lines(where, out)
    error = problem or _error_of(where, out, proc.returncode, lines)
    final = _final_steps(out, JobState.FAILED, error)
    if final:
        # A multi-step job's result is what its steps produced, as far as it got.
        done.update(final, result=job_steps.results(final["steps"]))
    done["failure_lines"] = log_lines.failure_lines(lines)
    states.transition(job.pk, STARTED, JobState.FAILED, error=error, **done)
    return JobState.FAILED


def _after_success(job: SparkJob) -> None:
    """The job type's `on_success`, once (only the call that made the job succeed runs it). Its
    failure is logged, never the job's: the job did succeed."""
    hook = JOB_TYPES[job.job_type].on_success
    if hook is None:
        return
    try:
        hook(job.pk)
    except Exception:
        log.exception("job %s (%s): its on_success hook failed", job.pk, job.job_type)


def _final_steps(out: DriverOutput, state: str, error: str) -> dict[str, Any]:
    """`{"steps": ...}` as the job ends (a running step failed, pending ones skipped), or {}
    for a job without steps."""
    current = out.current_steps()
    if current is None:
        return {}
    return {"steps": job_steps.finalize(current, state, error, timezone.now().isoformat())}


def _log_lines(where: Path, out: DriverOutput) -> list[str]:
    """The end of driver.log (at most LOG_READ_BYTES): a Spark stack trace can be longer than
    the tail kept in memory. The kept tail when the file cannot be read."""
    try:
        with (where / "driver.log").open("rb") as f:
            size = f.seek(0, os.SEEK_END)
            f.seek(max(0, size - LOG_READ_BYTES))
            lines = f.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return out.lines()
    return lines[1:] if size > LOG_READ_BYTES else lines  # the first may be cut


def _error_of(
    where: Path, out: DriverOutput, returncode: int, lines: list[str] | None = None
) -> str:
    """The job's error: the script's (error.txt, its exception's root cause), else the root
    cause the driver log shows (no error.txt: the JVM or Python died before writing it; or
    one naming only py4j's wrapper, whose Java text could not be read). `lines`: the end of
    the driver log, when already read (`_log_lines`)."""
    try:
        written = (where / "error.txt").read_text().strip()
    except OSError:
        written = ""
    if written and not job_errors.names_no_cause(written):
        return written
    found = spark_submit.parse_error(_log_lines(where, out) if lines is None else lines)
    return found or written or f"spark-submit exited with status {returncode}; see the driver log."

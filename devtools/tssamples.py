"""What the server sends the SPA, built by the server's own code from fixed inputs, so that the
SPA's hand-written types are checked against it (`manage.py tssamples`, run by `bin/api-types`):

- `socketSamples.gen.ts`: WebSocket messages, one `export const name = {...} satisfies Type;`
  each (the types of `frontend/src/api/live.ts`): tsc refuses a field the type does not have
  and a required field the message lacks; the SPA's tests check that every field of a type is
  sent by some sample and that `parseLiveMessage` keeps every sample as it is.
- `jobTypes.gen.json`: the answer of GET spark/job-types (the real catalog, every registered
  job type), the SPA tests' `SPARK_JOB_TYPES`.

Everything is built from fixed inputs (times, offsets, names): the same code writes the same
bytes. Settings that reach a message are pinned here, and a setting read when a module was
imported (the lag report's default export topic) must be at its default.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError
from django.test import override_settings

from console import ws_push
from console.clusters import ClusterConfig
from console.kafka.types import (
    Broker,
    ClusterDescription,
    GroupDescription,
    GroupListing,
    GroupMember,
    PartitionMeta,
    Reassigning,
    TopicMeta,
)
from console.metadata import ClusterSnapshot
from console.metadata_push import metadata_changes
from console.ws_auth import AUTH_METHOD
from console.ws_frames import FrameError, error_message
from console.ws_origin import refusal, refusal_message
from groups.consumers import read_subscription, status_message
from groups.lag.live import decode, pass_events
from groups.lag.read import GroupsRead
from groups.lag.sampler import ClusterSampler
from reassign import live as reassign_live
from reassign.models import Reassignment
from reassign.progress import Observed, describe
from sparkjobs import log_lines
from sparkjobs import steps as job_steps
from sparkjobs.api.views import job_types_answer
from sparkjobs.catalog import JOB_TYPES
from sparkjobs.job_types import result_problem, validate_params
from sparkjobs.live import job_message
from sparkjobs.models import SparkJob
from sparkjobs.types_lag_report import DEFAULT_EXPORT_TOPIC

SOCKET_SAMPLES = "socketSamples.gen.ts"
JOB_TYPES_FILE = "jobTypes.gen.json"
FILES = (SOCKET_SAMPLES, JOB_TYPES_FILE)
COMMAND = "manage.py tssamples"

T0 = 1782900000.0  # 2026-07-01T10:00:00Z, liveFixtures' T0
SAMPLE_SECONDS = 5.0  # LAG_SAMPLE_SECONDS as the samples show it (the default)


@dataclass(frozen=True)
class Sample:
    name: str  # the TS constant
    ts_type: str  # the type of frontend/src/api/live.ts it must satisfy
    source: str  # the server code that built it
    about: str
    message: dict[str, Any]


# --- lag and group_state: the sampler's evaluation of constructed reads ---------------------------
ORDERS, PAYMENTS = "orders", "payments"


def _member(member_id: str, *tps: tuple[str, int]) -> GroupMember:
    return GroupMember(member_id, f"client-{member_id}", "/10.0.0.7", sorted(tps))


def _read(at_pass: int) -> GroupsRead:
    """The groups of the cluster at one pass (0..4): orders-app falls behind on orders and
    payments; billing rebalances at the last pass; reports appears then, legacy-etl is gone."""
    i = at_pass
    last = i == 4
    ends = {(ORDERS, 0): 1000 + 40 * i, (ORDERS, 1): 2000 + 40 * i, (PAYMENTS, 0): 500 + 10 * i}
    o0, o1, p0 = (ORDERS, 0), (ORDERS, 1), (PAYMENTS, 0)
    groups: list[tuple[str, str, list[GroupMember], dict[tuple[str, int], int | None]]] = [
        (
            "orders-app",
            "Stable",
            [_member("m-1", o0, p0), _member("m-2", o1)] if last else [_member("m-1", o0, o1, p0)],
            {o0: 900 + 20 * i, o1: 1990 + 40 * i, p0: 500 + 10 * i},
        ),
        (
            "billing",
            "PreparingRebalance" if last else "Stable",
            [_member("b-1", p0), _member("b-2")] if last else [_member("b-1", p0)],
            {p0: 480 + 10 * i},
        ),
    ]
    if last:
        groups.append(("reports", "Empty", [], {o0: 600, o1: None}))
    else:
        groups.append(("legacy-etl", "Empty", [], {o1: 1500}))
    return GroupsRead(
        listings=[GroupListing(g, state, False) for g, state, _, _ in groups],
        descriptions={
            g: GroupDescription(g, state, "consumer", "range", members, 1)
            for g, state, members, _ in groups
        },
        committed={g: committed for g, _, _, committed in groups},
        log_ends=ends,
        log_starts={(ORDERS, 0): 0, (ORDERS, 1): 1200, (PAYMENTS, 0): 0},
    )


def lag_pass_messages() -> list[dict[str, Any]]:
    """The messages of the last of five sampler passes, as the cluster's batch event carries
    them to an "all" socket (groups.lag.live.pass_events, then decode)."""
    sampler = ClusterSampler(ClusterConfig("local", "127.0.0.1:19092"), interval_s=SAMPLE_SECONDS)
    # The record orders-app reads next on orders-0 was written 40 s before the last pass.
    sampler.timestamps.known[((ORDERS, 0), 980)] = int((T0 - 20) * 1000)
    previous: dict[str, dict[str, Any]] | None = None
    events: list[tuple[str, dict[str, Any]]] = []
    for i in range(5):
        read, at = _read(i), T0 + SAMPLE_SECONDS * i
        sampler.update_windows(read, at)
        evaluations = sampler.evaluate(read, at)
        # The store keeps evaluations as JSON; a pass compares with the last one as stored.
        evaluations = json.loads(json.dumps(evaluations))
        events = pass_events("local", evaluations, previous)
        previous = evaluations
    return decode(events[-1][1])


def _pick(messages: list[dict[str, Any]], kind: str, group: str) -> dict[str, Any]:
    found = [m for m in messages if m["type"] == kind and m["group_id"] == group]
    if len(found) != 1:
        raise CommandError(f"tssamples: the pass sent {len(found)} {kind} messages for {group}")
    return found[0]


def lag_samples() -> list[Sample]:
    messages = lag_pass_messages()
    lag = "groups.lag.live.pass_events (lag_message), after five sampler passes"
    state = "groups.lag.live.pass_events (state_changes), at the fifth sampler pass"
    return [
        Sample(
            "lagFallingBehind",
            "LagMessage",
            lag,
            "A group behind on two topics: rates, lag seconds, catch-up.",
            _pick(messages, "lag", "orders-app"),
        ),
        Sample(
            "lagFirstSample",
            "LagMessage",
            lag,
            "A group seen for the first time, one partition without a committed offset.",
            _pick(messages, "lag", "reports"),
        ),
        Sample(
            "lagRebalancing",
            "LagMessage",
            lag,
            "A rebalancing group.",
            _pick(messages, "lag", "billing"),
        ),
        Sample(
            "groupStateMembers",
            "GroupStateMessage",
            state,
            "A member joined; the partitions' owners account for every member: `members`.",
            _pick(messages, "group_state", "orders-app"),
        ),
        Sample(
            "groupStateNoMembers",
            "GroupStateMessage",
            state,
            "A rebalance with a member that owns nothing yet: no `members`.",
            _pick(messages, "group_state", "billing"),
        ),
        Sample(
            "groupStateAppeared",
            "GroupStateMessage",
            state,
            "A group that appeared (`previous_state` null).",
            _pick(messages, "group_state", "reports"),
        ),
        Sample(
            "groupStateGone",
            "GroupStateMessage",
            state,
            "A group that is gone (`Dead`).",
            _pick(messages, "group_state", "legacy-etl"),
        ),
    ]


# --- metadata ------------------------------------------------------------------------------------
def _snapshot(
    brokers: list[Broker], controller: int, topics: dict[str, list[tuple[int | None, list[int]]]]
) -> ClusterSnapshot:
    return ClusterSnapshot(
        taken_at=T0,
        description=ClusterDescription("cluster-1", controller, brokers),
        topics={
            name: TopicMeta(
                name,
                False,
                [PartitionMeta(p, leader, [1, 2, 3], isr) for p, (leader, isr) in enumerate(parts)],
            )
            for name, parts in topics.items()
        },
    )


def metadata_samples() -> list[Sample]:
    b1, b2, b3 = (
        Broker(1, "kafka-1", 9092, "rack-a"),
        Broker(2, "kafka-2", 9092, None),
        Broker(3, "kafka-3", 9092, None),
    )
    before = _snapshot(
        [b1, b2, b3],
        1,
        {ORDERS: [(1, [1, 2, 3]), (2, [1, 2, 3])], "legacy-events": [(3, [3])]},
    )
    broker_gone = _snapshot(
        [b1, b2],
        2,
        {ORDERS: [(1, [1, 2]), (2, [1, 2])], PAYMENTS: [(1, [1, 2])]},
    )
    offline = _snapshot(
        [b1, b2],
        2,
        {ORDERS: [(None, []), (2, [1, 2])], PAYMENTS: [(1, [1, 2])]},
    )
    source = "console.metadata_push.metadata_changes"
    samples = [
        (
            "metadataBrokerGone",
            "A broker left: the controller moved, ISRs shrank, a topic created, one deleted.",
            metadata_changes(before, broker_gone, now=T0 + 30),
        ),
        (
            "metadataLeaderOffline",
            "A partition lost its leader (null); no topic created or deleted.",
            metadata_changes(broker_gone, offline, now=T0 + 35),
        ),
    ]
    out = []
    for name, about, message in samples:
        if message is None:
            raise CommandError(f"tssamples: {name}: metadata_changes saw no change")
        out.append(Sample(name, "MetadataMessage", source, about, message))
    return out


# --- status and error ----------------------------------------------------------------------------
def status_samples() -> list[Sample]:
    with override_settings(LAG_SAMPLE_SECONDS=SAMPLE_SECONDS):
        lag_live, lag_down = (
            status_message(None),
            status_message("Live updates are unavailable (Redis)."),
        )
    return [
        Sample(
            "statusLagLive",
            "StatusMessage",
            "groups.consumers.status_message",
            "The lag socket after a subscription: live, with the sampler's interval.",
            lag_live,
        ),
        Sample(
            "statusLagDown",
            "StatusMessage",
            "groups.consumers.status_message",
            "The lag socket when Redis is down: not live, why, and the interval.",
            lag_down,
        ),
        Sample(
            "statusPushLive",
            "StatusMessage",
            "console.ws_push.LIVE",
            "The metadata and job sockets once joined.",
            dict(ws_push.LIVE),
        ),
        Sample(
            "statusPushDown",
            "StatusMessage",
            "console.ws_push.UNAVAILABLE",
            "The metadata and job sockets while Redis is down.",
            dict(ws_push.UNAVAILABLE),
        ),
    ]


def _frame_error(text: str) -> dict[str, Any]:
    try:
        read_subscription(text)
    except FrameError as exc:
        return error_message(exc)
    raise CommandError(f"tssamples: the lag socket took {text!r}")


def error_samples() -> list[Sample]:
    reason = refusal({"type": "websocket", "headers": [], AUTH_METHOD: "session"})
    if reason is None:
        raise CommandError("tssamples: a session socket without an Origin was not refused")
    frame = "groups.consumers.read_subscription + console.ws_frames.error_message"
    return [
        Sample(
            "errorSubscription",
            "ErrorMessage",
            frame,
            "A subscription the lag socket cannot act on.",
            _frame_error('{"subscribe": {"all": true, "groups": ["orders-app"]}}'),
        ),
        Sample(
            "errorFrame",
            "ErrorMessage",
            frame,
            "A frame that is not JSON.",
            _frame_error("subscribe to everything"),
        ),
        Sample(
            "errorOrigin",
            "ErrorMessage",
            "console.ws_origin.refusal_message",
            "A handshake refused for its origin (sent before the socket is closed).",
            refusal_message(reason),
        ),
    ]


# --- job -----------------------------------------------------------------------------------------
def _at(seconds: float) -> datetime:
    return datetime.fromtimestamp(T0 + seconds, UTC)


def _iso(seconds: float) -> str:
    return _at(seconds).isoformat()


def _job(job_type: str, params: dict[str, Any], **fields: Any) -> SparkJob:
    """An unsaved job as the runner leaves it (params filled in as submit does)."""
    user = get_user_model()(username="alice")
    values: dict[str, Any] = {
        "id": 42,
        "job_type": job_type,
        "cluster": "local",
        "params": validate_params(JOB_TYPES[job_type], params),
        "created_by": user,
        "created_at": _at(0),
        **fields,
    }
    return SparkJob(**values)


def _stepped(events: list[tuple[str, str, dict[str, Any]]], job_state: str, error: str) -> list:
    """A pipeline's steps after the marker lines its script printed, then its end."""
    steps = job_steps.initial(JOB_TYPES["maintenance-pipeline"].steps)
    for n, (step, state, extra) in enumerate(events):
        event = job_steps.parse_line(job_steps.marker_line(step, state, **extra))
        if event is None:
            raise CommandError(f"tssamples: marker line {step} {state} not parsed")
        steps = job_steps.apply(steps, event, _iso(10 + 10 * n))
    return job_steps.finalize(steps, job_state, error, _iso(60)) if job_state else steps


def job_samples() -> list[Sample]:
    replay_result = {
        "records": 60,
        "target_topic": "orders-copy",
        "partitions": {"0": 30, "1": 30},
        "ranges": {"0": [0, 30], "1": [0, 30]},
    }
    problem = result_problem(JOB_TYPES["topic-replay"], replay_result)
    if problem:
        raise CommandError(f"tssamples: the replay result does not fit its schema: {problem}")
    failed = "ValueError: no alarms in the topic"
    # The end of the failed pipeline's driver log, as the runner reads it.
    failed_log = [
        "26/11/25 16:07:10 INFO DAGScheduler: Job 2 finished: count, took 0.081 s",
        "Traceback (most recent call last):",
        '  File "/opt/console/maintenance/jobs/maintenance_pipeline.py", line 70, in step',
        "    result = call()",
        f"{failed}",
        "",
        "The above exception was the direct cause of the following exception:",
        "",
        "Traceback (most recent call last):",
        '  File "/opt/console/maintenance/jobs/maintenance_pipeline.py", line 79, in step',
        f"StepFailed: step window-features: {failed}",
        "26/11/25 16:07:11 INFO SparkContext: Successfully stopped SparkContext",
    ]
    pipeline = {"training": {"cutoff_date": "2026-06-08"}}
    jobs = [
        (
            "jobRunning",
            "A running job, its log's tail.",
            _job(
                "topic-profile",
                {"topic": ORDERS, "sequence_field": "seq"},
                state="running",
                progress=0.25,
                spark_app_id="local-1782900002000",
                started_at=_at(2),
                heartbeat_at=_at(10),
                log_tail="INFO SparkContext: Running Spark version 4.0.0\n",
            ),
        ),
        (
            "jobSucceeded",
            "A job that succeeded, with its result.",
            _job(
                "topic-replay",
                {"topic": ORDERS, "target_topic": "orders-copy"},
                state="succeeded",
                progress=1.0,
                spark_app_id="local-1782900002000",
                started_at=_at(2),
                finished_at=_at(40),
                heartbeat_at=_at(40),
                result=replay_result,
            ),
        ),
        (
            "jobPipelineRunning",
            "A multi-step job at its first step: `steps`.",
            _job(
                "maintenance-pipeline",
                pipeline,
                state="running",
                progress=0.1,
                started_at=_at(2),
                heartbeat_at=_at(12),
                steps=_stepped([("window-features", "running", {})], "", ""),
            ),
        ),
        (
            "jobPipelineFailed",
            "A multi-step job whose first step failed, submitted by a user since deleted.",
            _job(
                "maintenance-pipeline",
                pipeline,
                created_by=None,
                state="failed",
                progress=0.2,
                started_at=_at(2),
                finished_at=_at(60),
                heartbeat_at=_at(58),
                error=f"StepFailed: step window-features: {failed}",
                failure_lines=log_lines.failure_lines(failed_log),
                steps=_stepped(
                    [
                        ("window-features", "running", {}),
                        ("window-features", "failed", {"error": failed}),
                    ],
                    "failed",
                    failed,
                ),
            ),
        ),
    ]
    source = "sparkjobs.live.job_message (SparkJobSerializer) of an unsaved SparkJob"
    return [
        Sample(name, "JobMessage", source, about, job_message(job)) for name, about, job in jobs
    ]


# --- reassignment progress: describe() of an unsaved reassignment and what Kafka says -----------
def _plan(*rows: tuple[int, list[int]]) -> dict[str, Any]:
    return {
        "version": 1,
        "partitions": [
            {"topic": ORDERS, "partition": p, "replicas": r, "log_dirs": ["any"] * len(r)}
            for p, r in rows
        ],
    }


def reassignment_samples() -> list[Sample]:
    mib = 1 << 20

    def unsaved(state: str, **fields: Any) -> Reassignment:
        return Reassignment(
            pk=7,
            cluster="local",
            state=state,
            throttle_bytes_per_s=mib,
            plan=_plan((0, [2, 3]), (1, [3, 2])),
            rollback=_plan((0, [1, 2]), (1, [1, 3])),
            bytes_total={f"{ORDERS}-0": 30 * mib, f"{ORDERS}-1": 20 * mib},
            throttled_topics=[ORDERS],
            throttled_brokers=[1, 2, 3],
            reason="drain broker 1",
            created_by="admin",
            created_at=_at(0),
            **fields,
        )

    running = describe(
        unsaved("running"),
        Observed(
            moving={(ORDERS, 0): Reassigning([2, 3, 1], [3], [1])},
            partitions={
                (ORDERS, 0): PartitionMeta(0, 1, [2, 3, 1], [1, 2]),
                (ORDERS, 1): PartitionMeta(1, 3, [3, 2], [3, 2]),
            },
            sizes={(ORDERS, 0, 3): 12 * mib, (ORDERS, 1, 2): 20 * mib},
        ),
    )
    done = describe(
        unsaved("completed", finished_at=_at(45)),
        Observed(
            partitions={
                (ORDERS, 0): PartitionMeta(0, 3, [2, 3], [2, 3]),
                (ORDERS, 1): PartitionMeta(1, 3, [3, 2], [3, 2]),
            }
        ),
    )
    source = "reassign.progress.describe of an unsaved Reassignment (reassign.live.message)"
    return [
        Sample(
            "reassignmentMoving",
            "ReassignmentMessage",
            source,
            "One partition copying to a new replica at the throttle, one done.",
            reassign_live.message(running),
        ),
        Sample(
            "reassignmentCompleted",
            "ReassignmentMessage",
            source,
            "Completed; orders-0 is led by 3, not its preferred leader 2.",
            reassign_live.message(done),
        ),
    ]


# --- the files -----------------------------------------------------------------------------------
BUILDERS: tuple[Callable[[], list[Sample]], ...] = (
    lag_samples,
    metadata_samples,
    status_samples,
    error_samples,
    job_samples,
    reassignment_samples,
)


def socket_samples() -> list[Sample]:
    samples = [sample for build in BUILDERS for sample in build()]
    names = [s.name for s in samples]
    if len(set(names)) != len(names):
        raise CommandError("tssamples: two samples have the same name")
    return samples


def _json(value: Any, depth: int = 0) -> str:
    """JSON in the server's key order (the builders' own, fixed), indented by 2 spaces, an
    array of scalars on one line when it fits in 80 characters: stable, no prettier needed."""
    pad, close = "  " * (depth + 1), "  " * depth
    if isinstance(value, dict):
        if not value:
            return "{}"
        if not all(isinstance(key, str) for key in value):
            raise CommandError(f"tssamples: a key that is not a string in {value!r}")
        items = [f"{pad}{_json(k)}: {_json(v, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + close + "}"
    if isinstance(value, list | tuple):
        if not value:
            return "[]"
        if not any(isinstance(v, dict | list | tuple) for v in value):
            inline = "[" + ", ".join(_json(v) for v in value) + "]"
            if len(pad) + len(inline) <= 80:
                return inline
        items = [pad + _json(v, depth + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + close + "]"
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def render_socket_samples(samples: list[Sample]) -> str:
    types = sorted({s.ts_type for s in samples})
    lines = [
        f"// Generated by `{COMMAND}` (devtools/tssamples.py; `bin/api-types gen`): do not edit.",
        "// WebSocket messages built by the server's own code from fixed inputs. `satisfies`",
        "// makes tsc refuse a field the SPA's type lacks and a required field the server does",
        "// not send; socketSamples.test.ts checks the rest (docs: frontend/README.md).",
        f'import type {{ {", ".join(types)} }} from "../api/live";',
    ]
    for s in samples:
        lines += [
            "",
            f"/** {s.about} From {s.source}. */",
            f"export const {s.name} = {_json(s.message)} satisfies {s.ts_type};",
        ]
    return "\n".join(lines) + "\n"


def check_settings() -> None:
    default = JOB_TYPES["lag-report"].params_schema["properties"]["export_topic"]["default"]
    if default != DEFAULT_EXPORT_TOPIC:
        raise CommandError(
            f"tssamples: LAG_EXPORT_TOPIC is set ({default!r}): the job types would hold this "
            "machine's setting; run it without (bin/api-types does)."
        )


def render_job_types() -> str:
    check_settings()
    return _json(job_types_answer()) + "\n"


def write(out: Path) -> list[Path]:
    """Write the files into `out`; the paths written."""
    texts = {
        SOCKET_SAMPLES: render_socket_samples(socket_samples()),
        JOB_TYPES_FILE: render_job_types(),
    }
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in texts.items():
        path = out / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written

"""`/ws/spark/jobs/{id}`: the job on connect, then every change pushed (real ASGI stack and
Channels, in-memory layer)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.authtoken.models import Token

from sparkjobs import states
from sparkjobs.choices import JobState
from sparkjobs.models import SparkJob

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
HEADERS = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1")]

sockets = pytest.mark.django_db(transaction=True)


@pytest.fixture
def token(viewer_client, settings) -> str:
    settings.CHANNEL_LAYERS = IN_MEMORY
    return Token.objects.get(user=viewer_client.user).key


async def _open(path: str) -> tuple[WebsocketCommunicator, bool, int | None]:
    from project.asgi import application

    communicator = WebsocketCommunicator(application, path, headers=HEADERS)
    connected, code = await communicator.connect(timeout=5)
    return communicator, connected, code


@sockets
async def test_job_socket_sends_the_job_then_each_change(token):
    job = await sync_to_async(SparkJob.objects.create)(
        job_type="topic-profile", cluster="local", params={"topic": "t"}
    )
    socket, connected, _ = await _open(f"/ws/spark/jobs/{job.pk}?token={token}")
    assert connected
    assert await socket.receive_json_from(timeout=5) == {"type": "status", "live": True}
    first = await socket.receive_json_from(timeout=5)
    assert (first["type"], first["id"], first["state"]) == ("job", job.pk, "queued")

    moved = await sync_to_async(states.transition)(job.pk, JobState.QUEUED, JobState.SUBMITTED)
    assert moved
    pushed = await socket.receive_json_from(timeout=5)
    assert (pushed["state"], pushed["started_at"] is not None) == ("submitted", True)
    await sync_to_async(states.update_active)(job.pk, progress=0.5, log_tail="stage 1 of 2")
    pushed = await socket.receive_json_from(timeout=5)
    assert (pushed["progress"], pushed["log_tail"]) == (0.5, "stage 1 of 2")

    # A transition that lost (the job is not queued any more) changes nothing: no push.
    assert not await sync_to_async(states.transition)(job.pk, JobState.QUEUED, JobState.CANCELLED)
    assert await socket.receive_nothing(timeout=0.3)
    await sync_to_async(states.request_cancel)(job.pk)
    assert (await socket.receive_json_from(timeout=5))["cancel_requested"] is True
    await sync_to_async(states.transition)(job.pk, JobState.SUBMITTED, JobState.CANCELLED)
    final = await socket.receive_json_from(timeout=5)
    assert (final["state"], final["finished_at"] is not None) == ("cancelled", True)
    await socket.send_to(text_data="junk")  # ignored, the socket stays
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()


@sockets
@pytest.mark.parametrize(
    "path, code",
    [
        pytest.param("/ws/spark/jobs/{job}", 4401, id="no-token"),
        pytest.param("/ws/spark/jobs/{job}?token={token}x", 4401, id="bad-token"),
        pytest.param("/ws/spark/jobs/999999?token={token}", 4404, id="unknown-job"),
        pytest.param("/ws/spark/jobs/" + "9" * 30 + "?token={token}", 4404, id="no-such-route"),
    ],
)
async def test_job_socket_refuses_strangers_and_unknown_jobs(token, path, code):
    job = await sync_to_async(SparkJob.objects.create)(job_type="topic-export", cluster="local")
    socket, _, _ = await _open(path.format(job=job.pk, token=token))
    assert await socket.receive_output(timeout=5) == {"type": "websocket.close", "code": code}

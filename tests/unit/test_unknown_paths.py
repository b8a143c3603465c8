"""Unknown paths: the API answers its JSON 404 whatever the method, and a WebSocket is
accepted, then closed with 4404. No Kafka is asked (`no_kafka`).
"""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from tests.conftest import assert_error

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_kafka")]


@pytest.mark.parametrize("method", ["GET", "POST", "DELETE"])
def test_unknown_api_paths_answer_json_404_even_for_token_writes(operator_client, method):
    response = operator_client.generic(method, "/api/v1/no/such/thing", b"{}", "application/json")
    assert_error(response, 404, "not_found")


@pytest.mark.parametrize(
    "path",
    ["/ws/clusters/local/lag/x", "/ws/clusters/local/nothing", "/ws/", "/ws/%00/x"],
    ids=["below-the-lag-socket", "no-such-socket", "root", "odd-bytes"],
)
async def test_unknown_websocket_paths_close_with_4404(path):
    from project.asgi import application

    communicator = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1")]
    )
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    assert await communicator.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}
    await communicator.wait()


async def test_unknown_websocket_paths_close_with_a_code():
    from project.asgi import application

    communicator = WebsocketCommunicator(
        application,
        "/ws/clusters/local/nothing-here",
        headers=[(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")],
    )
    connected, _ = await communicator.connect()
    assert connected
    message = await communicator.receive_output(timeout=5)
    assert message == {"type": "websocket.close", "code": 4404}
    await communicator.wait()

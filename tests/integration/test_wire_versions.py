"""The wire client's ApiVersions check against the dev stack's brokers: every request it
sends is one each broker speaks, on the plain and on the SASL_SSL listeners."""

from __future__ import annotations

import pytest

from console.clusters import get_cluster
from console.kafka import protocol
from console.kafka.connection import Connection, parse_servers

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("cluster", ["local", "local-secure"])
def test_each_broker_speaks_every_version_the_wire_client_sends(stack, cluster):
    cfg = get_cluster(cluster)
    for address in parse_servers(cfg.bootstrap_servers):
        conn = Connection(address, cfg.security, timeout=10)
        try:
            assert conn.versions, f"{address}: no ApiVersions table"
            refused = {
                name: protocol.unsupported(conn.versions, key, version)
                for key, (name, version) in protocol.SPOKEN.items()
            }
            assert {n: why for n, why in refused.items() if why} == {}, address
            # And a request goes through on the checked connection.
            answer = conn.exchange(protocol.describe_quorum_request, 10)
            assert protocol.parse_describe_quorum_leader(answer) is not None
        finally:
            conn.close()

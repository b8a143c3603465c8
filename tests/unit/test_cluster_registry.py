import pytest
from django.core.exceptions import ImproperlyConfigured

from console.clusters import parse_registry


def test_registry_maps_friendly_keys_and_secret_from_env():
    registry = parse_registry(
        {
            "clusters": [
                {
                    "name": "prod",
                    "bootstrap_servers": "k1:9093,k2:9093",
                    "security_protocol": "SASL_SSL",
                    "sasl_mechanism": "SCRAM-SHA-512",
                    "sasl_username": "console",
                    "sasl_password_env": "PROD_PW",
                    "client_config": {"client.id": "kafka-console"},
                }
            ]
        },
        {"PROD_PW": "s3cret"},
    )
    prod = registry["prod"]
    assert prod.bootstrap_servers == "k1:9093,k2:9093"
    assert prod.client_config == {
        "security.protocol": "SASL_SSL",
        "sasl.mechanism": "SCRAM-SHA-512",
        "sasl.username": "console",
        "sasl.password": "s3cret",
        "client.id": "kafka-console",
    }
    # The secret must never show up in a repr (logs, error pages).
    assert "s3cret" not in repr(prod)


def test_local_cluster_defaults_to_dev_stack():
    from devtools.devstack.config import BOOTSTRAP_SERVERS

    registry = parse_registry([{"name": "local"}], {})
    assert registry["local"].bootstrap_servers == BOOTSTRAP_SERVERS


@pytest.mark.parametrize(
    "data, fragment",
    [
        ([], "non-empty list"),
        ([{"name": "bad name!", "bootstrap_servers": "x:1"}], "invalid cluster name"),
        (
            [{"name": "a", "bootstrap_servers": "x:1"}, {"name": "a", "bootstrap_servers": "y:1"}],
            "twice",
        ),
        ([{"name": "remote"}], "needs bootstrap_servers"),
        ([{"name": "p", "bootstrap_servers": "x:1", "sasl_password_env": "MISSING"}], "MISSING"),
    ],
)
def test_registry_rejects_mistakes_loudly(data, fragment):
    with pytest.raises(ImproperlyConfigured, match=fragment):
        parse_registry(data, {})

"""The sign-in failure limit (console/signin_limit.py): keyed on the user name as it is
authenticated, on every sign-in path, shared through Redis, per client address as a trusted
proxy reports it (console/client_address.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.test import Client, RequestFactory

from tests.stack import ROOT
from tests.unit.conftest import manage_check

pytestmark = pytest.mark.django_db

PASSWORD = "right-password-1"
# Every one of these signs in as `admin`: the login form strips whitespace and applies NFKC.
SPELLINGS = ["admin ", " admin", "admin\t", "ａｄｍｉｎ"]


@pytest.fixture
def admin_user(django_user_model):
    return django_user_model.objects.create_user(
        username="admin", password=PASSWORD, is_staff=True, is_superuser=True
    )


def sign_in(client: Client, name: str, password: str, path: str = "/login/", **meta: str):
    return client.post(path, {"username": name, "password": password}, **meta)


def fail(client: Client, name: str, times: int, path: str = "/login/", **meta: str) -> None:
    for _ in range(times):
        response = sign_in(client, name, "wrong", path, **meta)
        assert response.status_code == 200, response.status_code  # the form again


def signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def assert_limited(response) -> None:
    assert response.status_code == 429, response.status_code
    assert b"Too many failed sign-ins" in response.content


# --- the key: the user name as authenticated ---


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_every_spelling_that_signs_in_is_refused_after_ten_failures(admin_user, spelling):
    assert sign_in(Client(), spelling, PASSWORD).status_code == 302  # it does sign in as admin
    client = Client()
    fail(client, "admin", 10)
    refused = sign_in(client, spelling, PASSWORD)
    assert_limited(refused)
    assert 0 < int(refused["Retry-After"]) <= 15 * 60
    assert not signed_in(client)


def test_failures_spread_over_spellings_add_up(admin_user):
    spellings = ["admin", *SPELLINGS, "\u3000admin", "Admin"]  # six ways, and one case
    client = Client()
    for i in range(10):
        assert sign_in(client, spellings[i % len(spellings)], "wrong").status_code == 200
    for spelling in spellings:
        assert_limited(sign_in(client, spelling, PASSWORD))
    assert not signed_in(client)


def test_canonical_username_is_the_authenticated_form_case_folded():
    from django.contrib.auth.forms import AuthenticationForm

    from console.signin_limit import canonical_username, counter_key

    field = AuthenticationForm.base_fields["username"]
    for spelling in SPELLINGS:
        assert field.clean(spelling) == "admin"  # how Django's login form reads it
        assert canonical_username(spelling) == "admin"
    assert canonical_username("ADMIN") == canonical_username("ａｄｍｉｎ") == "admin"
    assert canonical_username("Straße") == canonical_username("STRASSE")
    assert canonical_username("someone") != canonical_username("admin")
    key = counter_key("203.0.113.1", "ａｄｍｉｎ ")
    assert key == counter_key("203.0.113.1", "admin") != counter_key("203.0.113.2", "admin")
    assert len(key) < 100 and " " not in key


def test_a_successful_sign_in_clears_the_count(admin_user):
    client = Client()
    fail(client, "admin", 9)
    assert sign_in(client, "admin", PASSWORD).status_code == 302
    client.logout()
    fail(client, "admin", 10)
    assert_limited(sign_in(client, "admin", PASSWORD))


def test_the_limit_is_per_user_name_and_address(admin_user, django_user_model):
    django_user_model.objects.create_user(username="bob", password=PASSWORD)
    client = Client()
    fail(client, "admin", 10)
    assert sign_in(client, "bob", PASSWORD).status_code == 302  # another name
    assert sign_in(Client(), "admin", PASSWORD, REMOTE_ADDR="192.0.2.9").status_code == 302


def test_parallel_guesses_cannot_pass_the_limit(settings):
    # Every attempt is counted before any backend checks the password, atomically: 30 guesses
    # at once reach the password check 10 times, not "all that read the count before".
    from django.contrib.auth import authenticate

    settings.AUTHENTICATION_BACKENDS = [
        "console.signin_limit.SignInLimitBackend",
        f"{__name__}.SlowBackend",
    ]
    SlowBackend.calls = 0
    start = threading.Barrier(30)

    def guess(i: int) -> None:
        request = RequestFactory().post("/login/", REMOTE_ADDR="198.51.100.3")
        start.wait()
        assert authenticate(request, username="admin", password=f"guess-{i}") is None

    with ThreadPoolExecutor(30) as pool:
        list(pool.map(guess, range(30)))
    assert SlowBackend.calls == 10


class SlowBackend:
    calls = 0
    lock = threading.Lock()

    def authenticate(self, request, username=None, password=None, **kwargs):
        with self.lock:
            SlowBackend.calls += 1
        time.sleep(0.05)  # a password hash's worth of time
        return None


def test_without_a_request_nothing_is_counted(admin_user):
    # The test client's login() and management commands call authenticate() without one.
    from django.contrib.auth import authenticate

    for _ in range(12):
        assert authenticate(username="admin", password="wrong") is None
    assert authenticate(username="admin", password=PASSWORD) == admin_user


# --- every sign-in path ---


def test_django_admin_sign_in_is_limited(admin_user):
    client = Client()
    fail(client, "admin", 10, "/admin/login/")
    assert_limited(sign_in(client, "admin", PASSWORD, "/admin/login/"))
    assert_limited(sign_in(client, "admin ", PASSWORD, "/admin/login/"))
    assert not signed_in(client)
    fresh = Client(REMOTE_ADDR="192.0.2.10")
    assert sign_in(fresh, "admin", PASSWORD, "/admin/login/").status_code == 302
    assert fresh.get("/admin/auth/user/").status_code == 200


def test_both_sign_in_pages_share_one_count(admin_user):
    client = Client()
    fail(client, "admin", 5, "/login/")
    fail(client, "ａｄｍｉｎ", 5, "/admin/login/")
    assert_limited(sign_in(client, "admin", PASSWORD, "/login/"))
    assert_limited(sign_in(client, "admin", PASSWORD, "/admin/login/"))
    assert not signed_in(client)


# --- Redis: shared, and down ---


def test_the_console_counts_in_redis_not_in_process_memory(settings):
    # Unit tests swap in a local-memory cache (tests/conftest.py); the console's own is Redis.
    from project import settings as console_settings

    cache = console_settings.CACHES["default"]
    assert cache["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert cache["LOCATION"] == settings.REDIS_URL
    assert cache["KEY_PREFIX"] == "kafka-console"


@pytest.mark.parametrize("path", ["/login/", "/admin/login/"])
def test_with_redis_down_sign_in_fails_closed_with_503(admin_user, settings, path):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    client = Client()
    response = sign_in(client, "admin", PASSWORD, path)
    assert response.status_code == 503
    assert b"Redis" in response.content and response["Retry-After"]
    assert not signed_in(client)


SHARED_SCRIPT = """
import sys
import django
django.setup()
from django.core.exceptions import PermissionDenied
from django.test import RequestFactory
from console.signin_limit import SignInLimitBackend
name, attempts = sys.argv[1], int(sys.argv[2])
outcomes = []
for _ in range(attempts):
    request = RequestFactory().post("/login/", REMOTE_ADDR="203.0.113.77")
    try:
        SignInLimitBackend().authenticate(request, username=name, password="wrong")
        outcomes.append("counted")
    except PermissionDenied as exc:
        outcomes.append(str(exc))
print(",".join(outcomes))
"""


@pytest.mark.redis
def test_the_count_is_shared_between_processes_through_redis(settings):
    import redis

    from console.signin_limit import WINDOW_S, counter_key

    name = f"shared-{time.time_ns()}"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "project.settings"}
    env["REDIS_URL"] = settings.REDIS_URL

    def attempts(spelling: str, n: int) -> list[str]:
        run = subprocess.run(
            [sys.executable, "-c", SHARED_SCRIPT, spelling, str(n)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert run.returncode == 0, run.stderr
        return run.stdout.strip().split(",")

    server = redis.Redis.from_url(settings.REDIS_URL)
    key = "kafka-console:1:" + counter_key("203.0.113.77", name)
    try:
        assert attempts(name, 6) == ["counted"] * 6  # one process
        assert attempts(f" {name}\t", 4) == ["counted"] * 4  # another, another spelling
        assert int(server.get(key) or 0) == 10
        assert 0 < server.ttl(key) <= WINDOW_S
        assert attempts(name.upper(), 1) == ["limited"]  # a third process sees all ten
    finally:
        server.delete(key)


# --- the client address: the peer, or what a trusted proxy reports ---


@pytest.mark.parametrize(
    ("peer", "forwarded", "trusted", "client"),
    [
        # No trusted proxies: the peer, whatever the header says.
        ("203.0.113.5", "198.51.100.1", [], "203.0.113.5"),
        # An untrusted peer's header is the client's to write: ignored.
        ("203.0.113.5", "198.51.100.1", ["10.0.0.0/8"], "203.0.113.5"),
        # A trusted peer: the rightmost entry, whatever the client put left of it.
        ("10.0.0.1", "198.51.100.1", ["10.0.0.0/8"], "198.51.100.1"),
        ("10.0.0.1", "1.2.3.4, 198.51.100.1", ["10.0.0.0/8"], "198.51.100.1"),
        # Two proxies: skip the trusted hop.
        ("10.0.0.1", "1.2.3.4, 198.51.100.1, 10.0.0.2", ["10.0.0.0/8"], "198.51.100.1"),
        # Garbage where a trusted proxy should have written an address: the last trusted hop.
        ("10.0.0.1", "198.51.100.1, unknown", ["10.0.0.0/8"], "10.0.0.1"),
        # Every hop trusted (a client inside the proxies' network): the leftmost.
        ("10.0.0.1", "10.0.0.3, 10.0.0.2", ["10.0.0.0/8"], "10.0.0.3"),
        # A trusted peer without the header: the peer.
        ("10.0.0.1", "", ["10.0.0.0/8"], "10.0.0.1"),
        # Ports, brackets, IPv6, IPv4 on a dual-stack socket.
        ("::ffff:10.0.0.1", "198.51.100.1:5555", ["10.0.0.0/8"], "198.51.100.1"),
        ("2001:db8::1", "[2001:DB8::99]:443", ["2001:db8::/64"], "2001:db8::99"),
        # Not an IP peer (a Unix socket): as given.
        ("", "198.51.100.1", ["10.0.0.0/8"], ""),
    ],
)
def test_client_address_rule(peer, forwarded, trusted, client):
    from console.client_address import parse_networks, resolve

    assert resolve(peer, forwarded, parse_networks(trusted)) == client


def test_client_address_reads_the_request_and_the_setting(settings):
    from console.client_address import client_address

    request = RequestFactory().get(
        "/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4, 198.51.100.1"
    )
    assert client_address(request) == "10.0.0.1"
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    assert client_address(request) == "198.51.100.1"


def test_behind_a_trusted_proxy_each_client_has_its_own_count(admin_user, settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    proxy = {"REMOTE_ADDR": "10.0.0.1"}
    attacker = Client(**proxy, HTTP_X_FORWARDED_FOR="198.51.100.7")
    fail(attacker, "admin", 10)
    assert_limited(sign_in(attacker, "admin", PASSWORD))
    # A spoofed entry left of the proxy's does not make a new client.
    spoofed = Client(**proxy, HTTP_X_FORWARDED_FOR="192.0.2.1, 198.51.100.7")
    assert_limited(sign_in(spoofed, "admin", PASSWORD))
    # Another client behind the same proxy is not locked out with the attacker.
    other = Client(**proxy, HTTP_X_FORWARDED_FOR="198.51.100.8")
    assert sign_in(other, "admin", PASSWORD).status_code == 302


def test_from_an_untrusted_peer_x_forwarded_for_is_ignored(admin_user, settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    client = Client(REMOTE_ADDR="203.0.113.5")
    for i in range(10):  # a new made-up address in each attempt
        response = sign_in(client, "admin", "wrong", HTTP_X_FORWARDED_FOR=f"192.0.2.{i}")
        assert response.status_code == 200
    assert_limited(sign_in(client, "admin", PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.200"))


def test_an_ipv6_client_counts_by_its_64(admin_user):
    fail(Client(), "admin", 10, REMOTE_ADDR="2001:db8:1:2::1")
    assert_limited(sign_in(Client(), "admin", PASSWORD, REMOTE_ADDR="2001:db8:1:2::ffff"))
    assert sign_in(Client(), "admin", PASSWORD, REMOTE_ADDR="2001:db8:1:3::1").status_code == 302


def test_a_bad_trusted_proxies_value_stops_the_console():
    env = {**os.environ, "TRUSTED_PROXIES": "10.0.0.0/8,not-a-network"}
    run = manage_check(env)
    assert run.returncode != 0
    assert "TRUSTED_PROXIES" in run.stderr

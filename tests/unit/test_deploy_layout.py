"""The production layout in deploy/ matches the code: the systemd units start real modules and
commands, every variable of the example environment is a setting the console reads, the proxy
agrees with the settings, and `manage.py check --deploy` is clean with production settings
(as bin/test runs it)."""

from __future__ import annotations

import ast
import configparser
import importlib.util
import ipaddress
import os
import re
import secrets
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import get_commands

from project import serve

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
INSTALL_DIR = "/opt/kafka-console"
ENV_FILE = DEPLOY / "kafka-console.env.example"
NGINX = DEPLOY / "nginx-kafka-console.conf"
UNITS = sorted(DEPLOY.glob("*.service"))

# bin/test's production environment (its `check --deploy` line).
PRODUCTION_ENV = {
    "DEBUG": "false",
    "HTTPS": "true",
    "TRUST_X_FORWARDED_PROTO": "true",
    "HSTS_INCLUDE_SUBDOMAINS": "true",
    "ALLOWED_HOSTS": "console.example.com",
    "CSRF_TRUSTED_ORIGINS": "https://console.example.com",
    "SECRET_KEY_FILE": "",
}


def _unit(path: Path) -> configparser.ConfigParser:
    # systemd allows repeated keys; none of these units repeats one.
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str
    parser.read_string(path.read_text())
    return parser


def _exec_start(path: Path) -> list[str]:
    return shlex.split(_unit(path)["Service"]["ExecStart"])


def _env_example() -> tuple[dict[str, str], set[str]]:
    """The variables the example sets, and those it shows commented out (`#NAME=value`)."""
    values: dict[str, str] = {}
    shown: set[str] = set()
    for line in ENV_FILE.read_text().splitlines():
        if match := re.fullmatch(r"([A-Z][A-Z0-9_]*)=(.*)", line):
            values[match[1]] = match[2]
        elif match := re.fullmatch(r"#([A-Z][A-Z0-9_]*)=.*", line):
            shown.add(match[1])
    return values, shown


def _literal_names(tree: ast.AST, call_names: set[str]) -> set[str]:
    """First string arguments of calls to these functions (`get`: the environment's)."""
    names = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func, first = node.func, node.args[0]
        if isinstance(func, ast.Attribute):
            # Only the environment's get: `os.environ.get(...)`, `environ.get(...)`.
            called = func.attr if ast.unparse(func.value) in ("os.environ", "environ") else ""
        else:
            called = getattr(func, "id", "")
        if called in call_names and isinstance(first, ast.Constant):
            names.add(first.value)
    return names


def _settings_variables() -> set[str]:
    """Every environment variable project/settings.py reads, with the registry's (settings
    calls console.clusters.load_registry) and NAME_FILE for each envsecret(NAME)."""
    tree = ast.parse((ROOT / "project" / "settings.py").read_text())
    names = _literal_names(tree, {"envbool", "envint", "envlist", "envsecret", "get"})
    names |= {f"{n}_FILE" for n in _literal_names(tree, {"envsecret"})}
    clusters = ast.parse((ROOT / "console" / "clusters.py").read_text())
    loader = next(
        n
        for n in ast.walk(clusters)
        if isinstance(n, ast.FunctionDef) and n.name == "load_registry"
    )
    return names | _literal_names(loader, {"get"})


# --- the systemd units -----------------------------------------------------------------------


def test_the_units_are_there():
    assert {u.name for u in UNITS} == {
        "kafka-console-web.service",
        "kafka-console-worker.service",
        "kafka-console-lagsampler@.service",
        "kafka-console-scheduler@.service",
    }
    assert (DEPLOY / "kafka-console.target").is_file()


@pytest.mark.parametrize("unit", UNITS, ids=lambda p: p.name)
def test_every_unit_runs_the_checkout_with_the_environment_file(unit):
    config = _unit(unit)
    service = config["Service"]
    assert service["User"] == service["Group"] == "kafka-console"
    assert service["WorkingDirectory"] == INSTALL_DIR
    assert service["EnvironmentFile"] == "/etc/kafka-console/console.env"
    assert config["Unit"]["PartOf"] == "kafka-console.target"
    assert config["Install"]["WantedBy"] == "kafka-console.target"
    program = _exec_start(unit)[0]
    assert program.startswith(INSTALL_DIR + "/.venv/bin/")
    # The program exists in this checkout's environment (uv sync --no-dev installs it too:
    # python and the console scripts of runtime packages only).
    assert (ROOT / program.removeprefix(INSTALL_DIR + "/")).exists(), program


@pytest.mark.parametrize("unit", UNITS, ids=lambda p: p.name)
def test_variables_in_exec_start_are_settings_with_defaults_in_the_unit(unit):
    used = set(re.findall(r"\$\{([A-Z_]+)\}", _unit(unit)["Service"]["ExecStart"]))
    assert used <= _settings_variables()
    defaults = dict(
        item.split("=", 1) for item in shlex.split(_unit(unit)["Service"].get("Environment", ""))
    )
    for name in used:
        # The unit's default is the settings' default, so a missing line changes nothing.
        assert defaults[name] == str(getattr(settings, name)), name


def test_web_unit_starts_console_serve_like_the_procfile():
    argv = _exec_start(DEPLOY / "kafka-console-web.service")
    assert argv[1:3] == ["-m", "project.serve"]
    assert importlib.util.find_spec("project.serve") is not None
    assert argv[3:7] == ["-b", "${CONSOLE_BIND}", "-p", "${CONSOLE_PORT}"]
    module, _, attribute = argv[-1].partition(":")
    assert importlib.util.find_spec(module) is not None
    assert re.search(
        rf"^{attribute} = ", Path(importlib.util.find_spec(module).origin).read_text(), re.M
    )
    assert "--proxy-headers" not in argv  # the console reads X-Forwarded-For itself
    procfile = _procfile()["web"]
    assert procfile[1:3] == argv[1:3] and procfile[-1] == argv[-1]


def test_worker_unit_runs_the_celery_app_on_every_queue_of_the_procfile():
    argv = _exec_start(DEPLOY / "kafka-console-worker.service")
    assert Path(argv[0]).name == "celery"
    assert argv[1:4] == ["-A", "project", "worker"]
    assert importlib.util.find_spec("project.celery") is not None
    options = dict(a.split("=", 1) for a in argv[4:] if a.startswith("--") and "=" in a)
    procfile = dict(a.split("=", 1) for a in _procfile()["worker"] if "=" in a)
    assert options["--queues"] == procfile["--queues"]
    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    assert routed | {"celery"} <= set(options["--queues"].split(","))


def test_sampler_unit_runs_the_lagsampler_command():
    argv = _exec_start(DEPLOY / "kafka-console-lagsampler@.service")
    assert argv[1] == INSTALL_DIR + "/manage.py" and (ROOT / "manage.py").is_file()
    assert argv[2:] == ["lagsampler"]
    assert "lagsampler" in get_commands()
    assert _procfile()["lagsampler"][1:] == ["manage.py", "lagsampler"]


def test_scheduler_unit_runs_the_scheduler_command():
    argv = _exec_start(DEPLOY / "kafka-console-scheduler@.service")
    assert argv[1] == INSTALL_DIR + "/manage.py"
    assert argv[2:] == ["scheduler"]
    assert "scheduler" in get_commands()
    assert _procfile()["scheduler"][1:] == ["manage.py", "scheduler"]


def _procfile() -> dict[str, list[str]]:
    lines = (ROOT / "Procfile").read_text().splitlines()
    return {name: shlex.split(cmd) for name, _, cmd in (line.partition(": ") for line in lines)}


# --- the example environment -----------------------------------------------------------------


def test_every_variable_of_the_example_environment_is_read_by_the_settings():
    values, shown = _env_example()
    assert values and shown
    unknown = (set(values) | shown) - _settings_variables()
    assert not unknown, (
        f"deploy/kafka-console.env.example names what settings never read: {unknown}"
    )


def test_the_example_environment_has_what_production_needs():
    values, _ = _env_example()
    assert values["DEBUG"] == "false" and values["HTTPS"] == "true"
    for name in ("SECRET_KEY_FILE", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "DATABASE_URL"):
        assert values[name], name
    for name in ("REDIS_URL", "KAFKA_CLUSTERS_FILE", "SPARK_WORK_DIR", "SPARK_OUTPUT_DIR"):
        assert values[name], name
    assert "SECRET_KEY" not in values  # by file, not in the environment file
    assert values["DATABASE_URL"].startswith("postgres://")


def test_the_example_environment_passes_the_deployment_checks(tmp_path):
    # Its values, with the files it names made here: `check --deploy` is clean.
    values, _ = _env_example()
    (tmp_path / "secret_key").write_text(secrets.token_urlsafe(50))
    (tmp_path / "metrics_token").write_text(secrets.token_urlsafe(30))
    (tmp_path / "clusters.json").write_text(
        '{"clusters": [{"name": "prod", "bootstrap_servers": "kafka1.example.com:9093"}]}'
    )
    for name in ("SECRET_KEY_FILE", "METRICS_BEARER_TOKEN_FILE", "KAFKA_CLUSTERS_FILE"):
        values[name] = str(tmp_path / Path(values[name]).name)
    run = _check_deploy(values)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "no issues" in run.stdout


# --- the proxy -------------------------------------------------------------------------------


def _size(text: str) -> int:
    number, unit = re.fullmatch(r"(\d+)([kKmM]?)", text).groups()
    return int(number) * {"": 1, "k": 1024, "m": 1024 * 1024}[unit.lower()]


def test_proxy_body_limit_and_upstream_match_the_settings():
    conf = NGINX.read_text()
    values, _ = _env_example()
    body = re.search(r"^\s*client_max_body_size (\S+);", conf, re.M)[1]
    assert _size(body) == int(values["MAX_REQUEST_BYTES"]) == settings.MAX_REQUEST_BYTES
    upstream = re.search(r"upstream kafka_console \{\s*server (\S+);", conf)[1]
    assert upstream == f"{values['CONSOLE_BIND']}:{values['CONSOLE_PORT']}"
    # The proxy reaches the console from an address TRUSTED_PROXIES lists.
    proxy = ipaddress.ip_address(values["CONSOLE_BIND"])
    assert any(proxy in ipaddress.ip_network(n) for n in values["TRUSTED_PROXIES"].split(","))
    buffers = re.search(r"large_client_header_buffers \d+ (\S+);", conf)[1]
    assert _size(buffers) >= serve.MAX_REQUEST_LINE_BYTES


def test_every_proxied_location_forwards_host_client_and_scheme():
    # nginx drops the server's proxy_set_header lines in a location with its own: each
    # location must set all of them.
    locations = re.findall(r"^ *location ([^{]+)\{(.*?)\n    \}", NGINX.read_text(), re.S | re.M)
    assert {path.strip() for path, _ in locations} == {"/ws/", "= /metrics", "/"}
    for path, body in locations:
        assert "proxy_pass http://kafka_console;" in body, path
        for header in (
            "Host $host",
            "X-Forwarded-For $proxy_add_x_forwarded_for",
            "X-Forwarded-Proto $scheme",
        ):
            assert f"proxy_set_header {header};" in body, (path, header)
    websocket = dict((p.strip(), b) for p, b in locations)["/ws/"]
    assert "proxy_set_header Upgrade $http_upgrade;" in websocket
    assert 'proxy_set_header Connection "upgrade";' in websocket


# --- manage.py check --deploy ----------------------------------------------------------------


def _check_deploy(env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in ("SECRET_KEY", "SECRET_KEY_FILE", "DEBUG", "DJANGO_SETTINGS_MODULE")
    }
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "check", "--deploy", "--fail-level", "WARNING"],
        env={**clean, "DEV_SECRET_KEY_FILE": "/nonexistent/secret", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_bin_test_runs_the_same_check():
    # bin/test runs `check --deploy` with the production settings in both tiers (so it is not
    # run again here): its command must be the one these tests stand for.
    script = (ROOT / "bin" / "test").read_text()
    command = re.search(r"\n\s*((?:DEBUG=.*\\\n)(?:.*\\\n)*.*check --deploy.*)\n", script)
    assert command, "bin/test runs no `manage.py check --deploy`"
    words = shlex.split(command[1].replace("\\\n", " "), posix=True)
    assignments = dict(w.split("=", 1) for w in words if re.match(r"[A-Z_]+=", w))
    assert {k: v for k, v in assignments.items() if k != "SECRET_KEY"} == PRODUCTION_ENV
    assert words[-5:] == ["manage.py", "check", "--deploy", "--fail-level", "WARNING"]


def test_without_https_the_deployment_checks_do_complain():
    """The check is not silenced wholesale: plain-HTTP cookies are still reported."""
    env = {**PRODUCTION_ENV, "HTTPS": "false", "SECRET_KEY": secrets.token_urlsafe(50)}
    run = _check_deploy(env)
    assert run.returncode != 0
    assert "security.W012" in run.stderr + run.stdout

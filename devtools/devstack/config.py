"""Ports, paths, versions and rendered config files of the dev stack.

Pure data and string rendering only: importing this module starts nothing and needs no Django,
so settings and tests can take `BOOTSTRAP_SERVERS`, `REDIS_URL` and `BROKER_IDS` from here.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

# --- versions -------------------------------------------------------------------------------
KAFKA_VERSION = "4.3.1"  # newest 4.x whose whole runtime tree resolves from Maven (4.4.0 does not)
SCALA_BINARY = "2.13"
# Kafka's POMs carry no logging backend; 4.x logs through slf4j-api 1.7.x, so the binding is
# log4j-slf4j-impl (not the slf4j2 one), the same log4j release the 4.x tarballs ship.
LOG4J_VERSION = "2.24.3"

# --- topology -------------------------------------------------------------------------------
HOST = "127.0.0.1"
BROKER_IDS: tuple[int, ...] = (1, 2, 3)


def broker_port(node_id: int) -> int:
    """PLAINTEXT port of a node: 19092, 29092, 39092."""
    return node_id * 10000 + 9092


def secure_port(node_id: int) -> int:
    """SASL_SSL port of a node: 19094, 29094, 39094."""
    return node_id * 10000 + 9094


def controller_port(node_id: int) -> int:
    """KRaft controller port of a node: 19093, 29093, 39093."""
    return node_id * 10000 + 9093


BOOTSTRAP_SERVERS = ",".join(f"{HOST}:{broker_port(n)}" for n in BROKER_IDS)
SECURE_BOOTSTRAP_SERVERS = ",".join(f"{HOST}:{secure_port(n)}" for n in BROKER_IDS)
# The console's user on the secured listener (its password is a file in tls_dir()).
SASL_USERNAME = "console"
SASL_MECHANISM = "SCRAM-SHA-512"
QUORUM_VOTERS = ",".join(f"{n}@{HOST}:{controller_port(n)}" for n in BROKER_IDS)

REDIS_PORT = 16379  # not 6379, so a system Redis can run beside ours
REDIS_URL = f"redis://{HOST}:{REDIS_PORT}/0"
# PostgreSQL for tests and development against a real server (not 5432: a system one may run).
POSTGRES_PORT = 15432
POSTGRES_USER = "console"
POSTGRES_DB = "console"
POSTGRES_URL = f"postgres://{POSTGRES_USER}@{HOST}:{POSTGRES_PORT}/{POSTGRES_DB}"

# A Spark standalone master and one worker (`devstack spark-up`), from the installed pyspark.
# Not 7077/8080/8081, so a system Spark (or anything else on 8080) can run beside ours.
SPARK_MASTER_PORT = 17077
SPARK_MASTER_WEBUI_PORT = 18080
SPARK_WORKER_WEBUI_PORT = 18081
SPARK_MASTER_URL = f"spark://{HOST}:{SPARK_MASTER_PORT}"
SPARK_WORKER_CORES = 2
SPARK_WORKER_MEMORY = "1g"  # what the worker offers executors (one default 1g executor)

# A Schema Registry speaking Confluent's REST API: Apicurio Registry's `ccompat/v7` endpoint
# (the Confluent registry is not on Maven Central; Apicurio's runnable distribution is). Its
# storage is in memory: schemas registered in development go with a restart.
APICURIO_VERSION = "3.0.9"
SCHEMA_REGISTRY_PORT = 18085  # 18081 is the Spark worker's UI
SCHEMA_REGISTRY_URL = f"http://{HOST}:{SCHEMA_REGISTRY_PORT}/apis/ccompat/v7"
SCHEMA_REGISTRY_HEAP = ["-Xms64m", "-Xmx320m"]
SCHEMA_REGISTRY_READY_TIMEOUT_S = 120.0

# An OpenID Connect provider for single sign-on (devtools/oidc_provider, django-oauth-toolkit):
# one client, the console, and users whose groups map to the console's roles as OIDC_ENV says.
OIDC_PORT = 18090
OIDC_URL = f"http://{HOST}:{OIDC_PORT}"
OIDC_CLIENT_ID = "kafka-console-dev"
OIDC_CLIENT_SECRET = "kafka-console-dev-secret"  # a development value, like the users' password
OIDC_USER_PASSWORD = "sso-dev-password"
OIDC_USERS: dict[str, list[str]] = {
    "sso-admin": ["kafka-admins"],
    "sso-operator": ["kafka-operators"],
    "sso-local-operator": ["kafka-viewers", "local-operators"],  # viewer; operator on `local`
    "sso-nobody": ["marketing"],  # a group the console does not map: no role
}
OIDC_GROUP_ROLES = {
    "kafka-admins": "admin",
    "kafka-operators": "operator",
    "kafka-viewers": "viewer",
    "local-operators": {"local": "operator"},
}


def oidc_console_env() -> dict[str, str]:
    """The console's environment for signing in through the dev provider."""
    import json

    return {
        "OIDC_RP_CLIENT_ID": OIDC_CLIENT_ID,
        "OIDC_RP_CLIENT_SECRET": OIDC_CLIENT_SECRET,
        "OIDC_OP_AUTHORIZATION_ENDPOINT": f"{OIDC_URL}/o/authorize/",
        "OIDC_OP_TOKEN_ENDPOINT": f"{OIDC_URL}/o/token/",
        "OIDC_OP_USER_ENDPOINT": f"{OIDC_URL}/o/userinfo/",
        "OIDC_OP_JWKS_ENDPOINT": f"{OIDC_URL}/o/.well-known/jwks.json",
        "CONSOLE_OIDC_GROUP_ROLES": json.dumps(OIDC_GROUP_ROLES),
        "CONSOLE_OIDC_LABEL": "the dev identity provider",
    }


# --- JVM ------------------------------------------------------------------------------------


def broker_heap() -> list[str]:
    """Each broker's heap: 512 MB (three brokers must fit a small dev box), or
    `DEVSTACK_BROKER_HEAP_MB` for benchmarks at tens of thousands of partitions (512 MB runs
    out at 40,000)."""
    raw = os.environ.get("DEVSTACK_BROKER_HEAP_MB", "512")
    if not raw.isdigit() or not 256 <= int(raw) <= 16384:
        raise SystemExit(
            f"DEVSTACK_BROKER_HEAP_MB must be a whole number of MB, 256..16384: {raw!r}"
        )
    return [f"-Xms{min(384, int(raw))}m", f"-Xmx{int(raw)}m"]


TOOL_HEAP = ["-Xmx256m"]
SPARK_DAEMON_MEMORY = "256m"  # heap of the Spark master and worker daemons (executors: above)
SPARK_READY_TIMEOUT_S = 90.0
READY_TIMEOUT_S = 180.0
# After the cluster is ready: TLS handshakes, and storing the SCRAM credential (JVM tool runs).
SECURE_READY_TIMEOUT_S = 90.0
STOP_TIMEOUT_S = 30.0

# --- paths ----------------------------------------------------------------------------------
REPO_ROOT = Path(__file__).resolve().parents[2]
CACHE_DIR = REPO_ROOT / ".cache"


def state_dir() -> Path:
    """Runtime state (configs, data, logs, pids); `DEVSTACK_DIR` overrides `.devstack/`."""
    override = os.environ.get("DEVSTACK_DIR")
    return Path(override).resolve() if override else REPO_ROOT / ".devstack"


def tls_dir() -> Path:
    """CA, broker keystore and passwords of the secured listener."""
    return state_dir() / "tls"


def node_dir(node_id: int) -> Path:
    return state_dir() / f"node{node_id}"


def schema_registry_dir() -> Path:
    return state_dir() / "schema-registry"


def apicurio_home() -> Path:
    return CACHE_DIR / "apicurio" / APICURIO_VERSION


def oidc_dir() -> Path:
    return state_dir() / "oidc"


def redis_dir() -> Path:
    return state_dir() / "redis"


def postgres_dir() -> Path:
    """PostgreSQL's data directory and socket. The server refuses to run as root, so as root it
    runs as Debian's `postgres` user, which may not be able to enter the state dir (a clone in
    a private temporary directory): then its files live in /var/tmp, one dir per state dir."""
    if os.geteuid() != 0:
        return state_dir() / "postgres"
    digest = hashlib.sha1(str(state_dir()).encode()).hexdigest()[:12]
    return Path("/var/tmp") / f"kafka-console-devstack-{digest}" / "postgres"


def spark_dir() -> Path:
    """The standalone master's and worker's pids and logs; the worker's application dirs."""
    return state_dir() / "spark"


def kafka_home() -> Path:
    return CACHE_DIR / "kafka" / KAFKA_VERSION


def kafka_libs_dir() -> Path:
    return kafka_home() / "libs"


# --- rendered files -------------------------------------------------------------------------
def node_properties(
    node_id: int, data_dir: Path, secure_listener: dict[str, str] | None = None
) -> str:
    """server.properties of one combined broker+controller node of the static 3-voter quorum.

    With `secure_listener` (the SECURE listener's TLS and SASL properties), the node also
    listens for SASL_SSL clients on `secure_port`; brokers and controllers keep talking
    PLAINTEXT among themselves.
    """
    if node_id not in BROKER_IDS:
        raise ValueError(f"unknown node id {node_id}; the dev stack has {list(BROKER_IDS)}")
    listeners = [f"PLAINTEXT://{HOST}:{broker_port(node_id)}"]
    if secure_listener:
        listeners.append(f"SECURE://{HOST}:{secure_port(node_id)}")
    listeners.append(f"CONTROLLER://{HOST}:{controller_port(node_id)}")
    props = {
        "process.roles": "broker,controller",
        "node.id": str(node_id),
        "controller.quorum.voters": QUORUM_VOTERS,
        "listeners": ",".join(listeners),
        "advertised.listeners": ",".join(listeners),
        "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"
        + (",SECURE:SASL_SSL" if secure_listener else ""),
        "inter.broker.listener.name": "PLAINTEXT",
        "controller.listener.names": "CONTROLLER",
        "log.dirs": str(data_dir),
        # Replicated internal topics, as in production, so broker failures behave realistically.
        "offsets.topic.replication.factor": "3",
        "transaction.state.log.replication.factor": "3",
        "transaction.state.log.min.isr": "2",
        # An RF=3 topic is then "at min ISR" (not yet unwritable) when one broker is down.
        "min.insync.replicas": "2",
        "group.initial.rebalance.delay.ms": "0",  # tests should not wait 3 s per new group
        # 10 rather than 50 partitions: the internal topics are created much faster on 2 cores.
        "offsets.topic.num.partitions": "10",
        "transaction.state.log.num.partitions": "10",
        "num.partitions": "1",
        # Retention runs every 5 s instead of 5 min, so tests see real segments deleted.
        "log.retention.check.interval.ms": "5000",
        # With min.insync.replicas=2 an RF=1 topic rejects acks=all writes, so default to RF=3.
        "default.replication.factor": "3",
        "delete.topic.enable": "true",
        "auto.create.topics.enable": "true",
        # Completed delayed fetches stay referenced from every partition they watched until a
        # purge, which runs after this many: at 1,000 (the default) the followers' fetches of
        # ~500 partitions each held 100,000+ entries and a 512 MB broker died of heap.
        "fetch.purgatory.purge.interval.requests": "100",
        # A stopped follower leaves the ISR within 10 s, well inside a 30 s test window.
        "replica.lag.time.max.ms": "10000",
        # A restarted broker gets its preferred leaderships back in ~30 s rather than 5 min.
        "leader.imbalance.check.interval.seconds": "30",
        # Fewer threads than the defaults: three JVMs share two cores.
        "num.network.threads": "2",
        "num.io.threads": "4",
        "num.recovery.threads.per.data.dir": "1",
        # ACLs are enforced (KRaft's own authorizer), so the console's ACL pages act on a real
        # authorizer. PLAINTEXT (brokers, controllers, the dev clients: User:ANONYMOUS) and the
        # console's SCRAM user are super users; any other principal is held to the ACLs of a
        # resource that has some, and allowed where none exist.
        "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
        "super.users": f"User:ANONYMOUS;User:{SASL_USERNAME}",
        "allow.everyone.if.no.acl.found": "true",
    }
    props.update(secure_listener or {})
    lines = [f"# Written by devtools.devstack for node {node_id}; regenerated on every start."]
    lines += [f"{key}={value}" for key, value in props.items()]
    return "\n".join(lines) + "\n"


_LOG_PATTERN = "[%d] %p %m (%c)%n"

# Loggers that are chatty at INFO without telling a developer anything useful.
_QUIET_LOGGERS = {
    "kafka.request.logger": "WARN",
    "kafka.network.RequestChannel$": "WARN",
    "state.change.logger": "WARN",
    "kafka.log.LogCleaner": "WARN",
    "org.apache.kafka.storage.internals.log": "WARN",
    "org.apache.kafka.clients": "WARN",
    "org.apache.kafka.common.metrics": "WARN",
    "org.apache.kafka.common.utils.AppInfoParser": "WARN",
}


def server_log4j2(logs_dir: Path) -> str:
    """log4j2 properties for a broker: INFO to stdout (captured in server.out) and server.log."""
    lines = [
        "status = warn",
        "name = devstack-kafka-server",
        "appender.stdout.type = Console",
        "appender.stdout.name = STDOUT",
        "appender.stdout.layout.type = PatternLayout",
        f"appender.stdout.layout.pattern = {_LOG_PATTERN}",
        "appender.file.type = RollingFile",
        "appender.file.name = FILE",
        f"appender.file.fileName = {logs_dir}/server.log",
        f"appender.file.filePattern = {logs_dir}/server.log.%i",
        "appender.file.layout.type = PatternLayout",
        f"appender.file.layout.pattern = {_LOG_PATTERN}",
        "appender.file.policies.type = Policies",
        "appender.file.policies.size.type = SizeBasedTriggeringPolicy",
        "appender.file.policies.size.size = 20MB",
        "appender.file.strategy.type = DefaultRolloverStrategy",
        "appender.file.strategy.max = 3",
        "rootLogger.level = INFO",
        "rootLogger.appenderRef.stdout.ref = STDOUT",
        "rootLogger.appenderRef.file.ref = FILE",
    ]
    for i, (name, level) in enumerate(_QUIET_LOGGERS.items()):
        lines += [f"logger.q{i}.name = {name}", f"logger.q{i}.level = {level}"]
    return "\n".join(lines) + "\n"


def tools_log4j2() -> str:
    """log4j2 properties for CLI tools: WARN to stderr, so stdout stays parseable."""
    lines = [
        "status = error",
        "name = devstack-kafka-tools",
        "appender.stderr.type = Console",
        "appender.stderr.name = STDERR",
        "appender.stderr.target = SYSTEM_ERR",
        "appender.stderr.layout.type = PatternLayout",
        f"appender.stderr.layout.pattern = {_LOG_PATTERN}",
        "rootLogger.level = WARN",
        "rootLogger.appenderRef.stderr.ref = STDERR",
    ]
    return "\n".join(lines) + "\n"

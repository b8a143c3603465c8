"""Django settings, driven by the environment (12-factor).

Every value has a working default for the local dev stack, so `manage.py runserver` works
with no setup. Bad values fail loudly at start-up rather than at the first request.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import ipaddress
import json
import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from accounts.sso_roles import MappingError, parse_group_roles
from console.clusters import load_registry
from console.envvars import channel_prefix, envbool, envint, envlist, envsecret

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = envbool("DEBUG", False)
# SECRET_KEY (or SECRET_KEY_FILE) in production; the dev commands (bin/setup) generate a random
# one into the ignored file .secret_key, read when nothing else is given. With DEBUG off and
# neither, the console refuses to start rather than sign sessions with a known key.
DEV_SECRET_KEY_FILE = Path(os.environ.get("DEV_SECRET_KEY_FILE") or BASE_DIR / ".secret_key")
SECRET_KEY = envsecret("SECRET_KEY", "")
if not SECRET_KEY and DEV_SECRET_KEY_FILE.is_file():
    SECRET_KEY = DEV_SECRET_KEY_FILE.read_text().strip()
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set: give SECRET_KEY or SECRET_KEY_FILE (a long random value), "
            "or run bin/setup, which writes a development key into .secret_key."
        )
    SECRET_KEY = "dev-only-insecure-key-" + "x" * 30

# Behind a TLS-terminating proxy that sets X-Forwarded-Proto, HTTPS=true marks cookies Secure
# and turns on HSTS; TRUST_X_FORWARDED_PROTO=true makes Django believe the proxy's header.
HTTPS = envbool("HTTPS", False)
if envbool("TRUST_X_FORWARDED_PROTO", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = 31_536_000 if HTTPS else 0
# The console usually lives on a host of its own (console.example.com): HSTS for the hosts
# below it costs nothing. HSTS_INCLUDE_SUBDOMAINS=false when it is served from a domain whose
# subdomains still speak plain HTTP.
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS and envbool("HSTS_INCLUDE_SUBDOMAINS", True)
# `manage.py check --deploy` warnings that do not apply to this layout (bin/test runs it):
# - W008 (SECURE_SSL_REDIRECT off): daphne serves plain HTTP behind the TLS-terminating proxy,
#   which redirects http to https (deploy/nginx-kafka-console.conf); a redirect here would
#   also bounce the health probes and scrapes that reach daphne directly on its local port.
# - W021 (SECURE_HSTS_PRELOAD off): preloading is decided for a whole registered domain by its
#   owner (hstspreload.org), not by one application on one of its hosts.
SILENCED_SYSTEM_CHECKS = ["security.W008", "security.W021"]
SECURE_CONTENT_TYPE_NOSNIFF = True
# No inline scripts anywhere (the SPA is a module file, Swagger UI uses its split view);
# styles may be inline (charts set style attributes).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; "
    "form-action 'self'"
)
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = envlist(
    "CSRF_TRUSTED_ORIGINS", ["http://127.0.0.1:8000", "http://localhost:8000"]
)
# Reverse proxies (comma-separated CIDRs) whose X-Forwarded-For names the client, for the
# sign-in limit's client address (console/client_address.py); from any other peer the header
# is ignored. Default: none, the peer is the client.
TRUSTED_PROXIES = envlist("TRUSTED_PROXIES", [])
try:
    for _cidr in TRUSTED_PROXIES:
        ipaddress.ip_network(_cidr, strict=False)
except ValueError as exc:
    raise ImproperlyConfigured(f"TRUSTED_PROXIES: {exc}") from None

# The console's apps, each with its REST, WebSocket and other routes in `<app>/routes.py`
# (mounted by project/urls.py and project/ws_routing.py in this order).
CONSOLE_APPS = [
    "topics",
    "groups",
    "messages",
    "sparkjobs",
    "maintenance",
    "alerts",
    "reassign",
    "access",
    "accounts",
    "approvals",
]
# Not "daphne": its app only replaces `runserver` and imports Twisted (~1 s) into every
# process; the console is served by `python -m project.serve` (daphne underneath).
INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "console",
    *CONSOLE_APPS,
]
# Developer tooling (manage.py devstack, demotraffic) when it is shipped; the product never
# imports it.
if importlib.util.find_spec("devtools") is not None:
    INSTALLED_APPS.append("devtools")

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "console.middleware.content_security_policy",
]

ROOT_URLCONF = "project.urls"
ASGI_APPLICATION = "project.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=envint("DATABASE_CONN_MAX_AGE", 0),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The web server, the Celery worker and the lag sampler all write: WAL lets readers go on
    # during a write, IMMEDIATE transactions take the write lock up front (no "database is
    # locked" when a read transaction later tries to write), and a writer waits up to 20 s.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        timeout=20,
        transaction_mode="IMMEDIATE",
        init_command="PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
# The sign-in limit comes first: it counts every attempt and stops authenticate() past
# the limit before any backend sees the password (console/signin_limit.py).
# CONSOLE_LOCAL_SIGNIN=off turns password sign-in off (the console's and Django admin's), once
# single sign-on works; API tokens keep working.
LOCAL_SIGNIN = envbool("CONSOLE_LOCAL_SIGNIN", True)
AUTHENTICATION_BACKENDS = ["console.signin_limit.SignInLimitBackend"]
if LOCAL_SIGNIN:
    AUTHENTICATION_BACKENDS.append("django.contrib.auth.backends.ModelBackend")
LOGIN_URL = "/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/login/"

# Single sign-on with OpenID Connect (accounts/sso.py, docs/sso.md): on when OIDC_RP_CLIENT_ID
# is set. The provider's endpoints are given one by one, as mozilla-django-oidc reads them.
OIDC_RP_CLIENT_ID = os.environ.get("OIDC_RP_CLIENT_ID", "")
SSO_ENABLED = bool(OIDC_RP_CLIENT_ID)
if SSO_ENABLED:
    OIDC_RP_CLIENT_SECRET = envsecret("OIDC_RP_CLIENT_SECRET", "")
    _missing = [
        name
        for name in (
            "OIDC_OP_AUTHORIZATION_ENDPOINT",
            "OIDC_OP_TOKEN_ENDPOINT",
            "OIDC_OP_USER_ENDPOINT",
            "OIDC_OP_JWKS_ENDPOINT",
        )
        if not os.environ.get(name)
    ]
    if _missing or not OIDC_RP_CLIENT_SECRET:
        raise ImproperlyConfigured(
            "OIDC_RP_CLIENT_ID is set, so single sign-on needs "
            + ", ".join(_missing + ([] if OIDC_RP_CLIENT_SECRET else ["OIDC_RP_CLIENT_SECRET"]))
        )
    OIDC_OP_AUTHORIZATION_ENDPOINT = os.environ["OIDC_OP_AUTHORIZATION_ENDPOINT"]
    OIDC_OP_TOKEN_ENDPOINT = os.environ["OIDC_OP_TOKEN_ENDPOINT"]
    OIDC_OP_USER_ENDPOINT = os.environ["OIDC_OP_USER_ENDPOINT"]
    OIDC_OP_JWKS_ENDPOINT = os.environ["OIDC_OP_JWKS_ENDPOINT"]
    OIDC_RP_SIGN_ALGO = os.environ.get("OIDC_RP_SIGN_ALGO", "RS256")
    OIDC_RP_SCOPES = os.environ.get("OIDC_RP_SCOPES", "openid email profile groups")
    OIDC_USE_PKCE = envbool("OIDC_USE_PKCE", True)
    OIDC_TIMEOUT = envint("OIDC_TIMEOUT_SECONDS", 10)  # a hung provider fails the sign-in
    OIDC_VERIFY_SSL = envbool("OIDC_VERIFY_SSL", True)
    LOGIN_REDIRECT_URL_FAILURE = "/login/?sso=failed"
    AUTHENTICATION_BACKENDS.append("accounts.sso.ConsoleOIDCBackend")
# Read even with SSO off, so a bad mapping is caught before it is needed.
OIDC_GROUPS_CLAIM = os.environ.get("CONSOLE_OIDC_GROUPS_CLAIM", "groups")
try:
    OIDC_GROUP_ROLES = parse_group_roles(os.environ.get("CONSOLE_OIDC_GROUP_ROLES", ""))
except MappingError as exc:
    raise ImproperlyConfigured(f"CONSOLE_OIDC_GROUP_ROLES: {exc}") from None
# The sign-in page's button: "Sign in with <label>".
OIDC_PROVIDER_LABEL = os.environ.get("CONSOLE_OIDC_LABEL", "single sign-on")

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# The built SPA (frontend/dist) is served under /static/; index.html goes through a view.
FRONTEND_DIST = BASE_DIR / "frontend" / "dist"
STATICFILES_DIRS = [FRONTEND_DIST] if FRONTEND_DIST.is_dir() else []
WHITENOISE_USE_FINDERS = True

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:16379/0")

# Django's cache in Redis, shared by every web process and surviving restarts: the sign-in
# failure counts live there. Short socket timeouts, so an unreachable Redis refuses sign-in
# (503) within seconds instead of hanging it.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "kafka-console",
        "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
    }
}

# Redis pub/sub, with outage events for the sockets: console/channel_layer.py says why. The
# prefix names the database (pub/sub ignores databases): consoles on two databases of one
# Redis stay apart, as their leases, caches and queues do.
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "console.channel_layer.PubSubChannelLayer",
        "CONFIG": {"hosts": [REDIS_URL], "prefix": channel_prefix(REDIS_URL)},
    }
}

CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL)
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", REDIS_URL)
CELERY_TASK_TRACK_STARTED = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ACKS_LATE = True

# Clusters this console manages: KAFKA_CLUSTERS_FILE (JSON) or KAFKA_CLUSTERS (JSON text);
# default: the dev stack's two listeners, `local` (PLAINTEXT) and `local-secure` (SASL_SSL
# with SCRAM-SHA-512; its CA and password are files the dev stack writes). See docs/clusters.md.
DEVSTACK_DIR = Path(os.environ.get("DEVSTACK_DIR") or BASE_DIR / ".devstack").resolve()
DEV_TLS_DIR = DEVSTACK_DIR / "tls"
# The dev stack's Schema Registry (Apicurio's Confluent-compatible API) serves both.
DEV_SCHEMA_REGISTRY_URL = "http://127.0.0.1:18085/apis/ccompat/v7"
DEFAULT_KAFKA_CLUSTERS: list[dict[str, object]] = [
    {
        "name": "local",
        "bootstrap_servers": "127.0.0.1:19092,127.0.0.1:29092,127.0.0.1:39092",
        "schema_registry_url": DEV_SCHEMA_REGISTRY_URL,
    },
    {
        "name": "local-secure",
        "bootstrap_servers": "127.0.0.1:19094,127.0.0.1:29094,127.0.0.1:39094",
        "security_protocol": "SASL_SSL",
        "sasl_mechanism": "SCRAM-SHA-512",
        "sasl_username": "console",
        "sasl_password_file": str(DEV_TLS_DIR / "console.password"),
        "ssl_ca_location": str(DEV_TLS_DIR / "ca.pem"),
        "schema_registry_url": DEV_SCHEMA_REGISTRY_URL,
    },
]
KAFKA_CLUSTERS = load_registry(os.environ, DEFAULT_KAFKA_CLUSTERS)
KAFKA_TIMEOUT_SECONDS = float(os.environ.get("KAFKA_TIMEOUT_SECONDS", "8"))
# How long a topic that no broker knows is asked for again before the console believes it
# missing (a topic created a moment ago reaches each broker a little later).
KAFKA_TOPIC_GRACE_SECONDS = float(os.environ.get("KAFKA_TOPIC_GRACE_SECONDS", "1.5"))
# On a cluster marked "protected" in the registry, changes wait for a second person's approval
# (approvals/); a request not decided within this many seconds expires.
APPROVAL_TTL_SECONDS = int(os.environ.get("APPROVAL_TTL_SECONDS", "3600"))

# --- Spark jobs (docs/spark-jobs.md) ---
# Spark jobs run in the Celery worker that consumes the `spark` queue (Procfile `worker`).
CELERY_TASK_ROUTES = {"sparkjobs.tasks.run_spark_job": {"queue": "spark"}}
# Where spark-submit sends the job: local[*] (this machine), spark://host:7077, yarn, k8s://...
SPARK_MASTER = os.environ.get("SPARK_MASTER", "local[*]")
# Per-job spec (secrets, 0600), driver log and result files; local to the worker.
# The defaults sit in the dev stack's (git-ignored) state directory; set both in production.
SPARK_WORK_DIR = Path(os.environ.get("SPARK_WORK_DIR") or DEVSTACK_DIR / "spark" / "work")
# Where exports are written: a local path or a URI every Spark executor can reach (hdfs://...).
SPARK_OUTPUT_DIR = os.environ.get("SPARK_OUTPUT_DIR") or str(DEVSTACK_DIR / "spark" / "output")
# A topic-export written to a local SPARK_OUTPUT_DIR also writes its records as one gzipped
# JSON-lines file to download, when it is at most this big (0: never); docs/spark-jobs.md.
SPARK_DOWNLOAD_MAX_BYTES = envint("SPARK_DOWNLOAD_MAX_BYTES", 1 << 30)
# Spark's Kafka source jars and their dependencies, for the installed pyspark (bin/setup
# fetches them there).
SPARK_KAFKA_JARS_DIR = Path(
    os.environ.get("SPARK_KAFKA_JARS_DIR")
    or BASE_DIR / ".cache" / "spark-kafka" / importlib.metadata.version("pyspark")
)
# The drivers' class-data sharing archives (`manage.py sparkarchive` builds one; jobs start
# faster with it). Empty: none is used.
SPARK_CLASS_ARCHIVE_DIR = os.environ.get(
    "SPARK_CLASS_ARCHIVE_DIR", str(BASE_DIR / ".cache" / "spark-class-archive")
)
# More spark-submit --conf, as a JSON object: {"spark.executor.memory": "4g", ...}.
SPARK_CONF: dict[str, str] = json.loads(os.environ.get("SPARK_CONF") or "{}")
if not isinstance(SPARK_CONF, dict):
    raise ImproperlyConfigured('SPARK_CONF must be a JSON object: {"spark.key": "value"}.')
SPARK_JOB_SOFT_TIME_LIMIT = envint("SPARK_JOB_SOFT_TIME_LIMIT", 6 * 3600)
SPARK_JOB_HARD_TIME_LIMIT = envint("SPARK_JOB_HARD_TIME_LIMIT", 6 * 3600 + 120)
# A started job whose heartbeat is older than this is `lost`; workers check every interval.
SPARK_HEARTBEAT_TIMEOUT = envint("SPARK_HEARTBEAT_TIMEOUT", 30)
SPARK_REAPER_INTERVAL = envint("SPARK_REAPER_INTERVAL", 10)
# Seconds between SIGTERM (Spark's shutdown hooks stop the application) and SIGKILL.
SPARK_KILL_GRACE_SECONDS = envint("SPARK_KILL_GRACE_SECONDS", 5)
# Jobs one user may have queued or running at once; one more is a 429 (0: no limit).
SPARK_MAX_ACTIVE_JOBS_PER_USER = envint("SPARK_MAX_ACTIVE_JOBS_PER_USER", 10)
# Seconds between the scheduler's looks at the job schedules (`manage.py scheduler`): a slot
# starts at most this late.
SCHEDULER_TICK_SECONDS = envint("SCHEDULER_TICK_SECONDS", 5)
# Audit entries older than this are deleted daily by the worker (`manage.py pruneaudit`);
# 0 keeps them all.
AUDIT_RETENTION_DAYS = envint("AUDIT_RETENTION_DAYS", 365)
if not 0 < SPARK_JOB_SOFT_TIME_LIMIT < SPARK_JOB_HARD_TIME_LIMIT:
    raise ImproperlyConfigured("SPARK_JOB_SOFT_TIME_LIMIT must be > 0 and below the hard limit.")
if SPARK_HEARTBEAT_TIMEOUT < 5 or SPARK_REAPER_INTERVAL < 1:
    raise ImproperlyConfigured("SPARK_HEARTBEAT_TIMEOUT must be >= 5, SPARK_REAPER_INTERVAL >= 1.")
if SPARK_DOWNLOAD_MAX_BYTES < 0:
    raise ImproperlyConfigured("SPARK_DOWNLOAD_MAX_BYTES must be >= 0 (0: no download files).")

# Where the web server listens (`python -m project.serve -b CONSOLE_BIND -p CONSOLE_PORT`, the
# systemd unit deploy/kafka-console-web.service); read here too so a bad value fails
# `manage.py check`. Keep it on a local address behind the reverse proxy.
CONSOLE_BIND = os.environ.get("CONSOLE_BIND", "127.0.0.1")
CONSOLE_PORT = envint("CONSOLE_PORT", 8000)
try:
    ipaddress.ip_address(CONSOLE_BIND)
except ValueError as exc:
    raise ImproperlyConfigured(f"CONSOLE_BIND: {exc}") from None
if not 0 < CONSOLE_PORT < 65536:
    raise ImproperlyConfigured("CONSOLE_PORT must be a TCP port (1-65535).")

# Largest API request body (bytes); a bigger one is refused with 413 before it is read
# (console/api/body_limit.py, console/api/parsers.py). The other input limits are in
# console/api/limits.py.
MAX_REQUEST_BYTES = envint("MAX_REQUEST_BYTES", 1024 * 1024)

# --- live lag (docs/live-lag.md) ---
LAG_SAMPLE_SECONDS = float(os.environ.get("LAG_SAMPLE_SECONDS", "5"))
LAG_WINDOW = envint("LAG_WINDOW", 10)  # samples per partition window (Burrow keeps 10)
LAG_RETENTION_RISK = float(os.environ.get("LAG_RETENTION_RISK", "0.10"))
if LAG_SAMPLE_SECONDS <= 0 or LAG_WINDOW < 3 or not 0 <= LAG_RETENTION_RISK < 1:
    raise ImproperlyConfigured(
        "LAG_SAMPLE_SECONDS must be > 0, LAG_WINDOW >= 3, LAG_RETENTION_RISK in [0, 1)."
    )
# --- lag alerts (docs/alerts.md) ---
# The console's address as people reach it, for links in alerts (empty: no link).
CONSOLE_PUBLIC_URL = os.environ.get("CONSOLE_PUBLIC_URL", "").strip()
ALERT_HTTP_TIMEOUT_SECONDS = float(os.environ.get("ALERT_HTTP_TIMEOUT_SECONDS", "5"))
ALERT_DELIVERY_ATTEMPTS = envint("ALERT_DELIVERY_ATTEMPTS", 6)
ALERT_RETRY_BASE_SECONDS = float(os.environ.get("ALERT_RETRY_BASE_SECONDS", "2"))
if ALERT_HTTP_TIMEOUT_SECONDS <= 0 or ALERT_DELIVERY_ATTEMPTS < 1 or ALERT_RETRY_BASE_SECONDS < 0:
    raise ImproperlyConfigured(
        "ALERT_HTTP_TIMEOUT_SECONDS must be > 0, ALERT_DELIVERY_ATTEMPTS >= 1, "
        "ALERT_RETRY_BASE_SECONDS >= 0."
    )
# Alerts sent older than this are deleted daily by the worker (0: kept forever).
ALERT_RETENTION_DAYS = envint("ALERT_RETENTION_DAYS", 90)
# Email alerts go through Django's mail backend: SMTP on EMAIL_HOST:EMAIL_PORT.
ALERT_EMAIL_FROM = os.environ.get("ALERT_EMAIL_FROM", "kafka-console@localhost")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = envint("EMAIL_PORT", 25)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = envsecret("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = 10

# Each pass also writes one record per group to this topic of the sampled cluster (created
# if missing, with this retention), for Spark's `lag-report` (docs/maintenance-pipeline.md).
# Empty: no export.
LAG_EXPORT_TOPIC = os.environ.get("LAG_EXPORT_TOPIC", "kafka-console-lag-samples").strip()
LAG_EXPORT_RETENTION_HOURS = envint("LAG_EXPORT_RETENTION_HOURS", 7 * 24)
if LAG_EXPORT_RETENTION_HOURS < 1:
    raise ImproperlyConfigured("LAG_EXPORT_RETENTION_HOURS must be >= 1.")
# Who may scrape GET /metrics (groups/lag/metrics_view.py): with a token, exactly
# `Authorization: Bearer <token>` from anywhere; without one, clients whose socket address
# (REMOTE_ADDR, never X-Forwarded-For) is in these comma-separated CIDRs.
METRICS_BEARER_TOKEN = envsecret("METRICS_BEARER_TOKEN", "")
METRICS_ALLOWED_NETWORKS = envlist("METRICS_ALLOWED_NETWORKS", ["127.0.0.0/8", "::1/128"])
try:
    for _cidr in METRICS_ALLOWED_NETWORKS:
        ipaddress.ip_network(_cidr, strict=False)
except ValueError as exc:
    raise ImproperlyConfigured(f"METRICS_ALLOWED_NETWORKS: {exc}") from None
# GET /readyz (console/health.py): the database, Redis and the lag sampler's last pass, each
# given this long. Without a sampler meant to run (or when a stopped sampler should not take
# the web servers out of a load balancer), READINESS_REQUIRE_SAMPLER=false skips that check.
READINESS_REQUIRE_SAMPLER = envbool("READINESS_REQUIRE_SAMPLER", True)
READINESS_TIMEOUT_SECONDS = float(os.environ.get("READINESS_TIMEOUT_SECONDS", "2"))
if not 0 < READINESS_TIMEOUT_SECONDS <= 30:
    raise ImproperlyConfigured("READINESS_TIMEOUT_SECONDS must be > 0 and at most 30.")

REST_FRAMEWORK = {
    # Token first, so an anonymous request gets 401 with WWW-Authenticate, not 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Named tokens with an expiry first; a key that is not one: manage.py apitoken's.
        "console.tokens.ApiTokenAuthentication",
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["console.permissions.RolePermission"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "console.api.errors.exception_handler",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # JSON only, bounded (console/api/limits.py): a form body answers 415, not "fields absent".
    "DEFAULT_PARSER_CLASSES": ["console.api.parsers.StrictJSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "UNAUTHENTICATED_USER": None,
    # Writes (POST, PUT, PATCH, DELETE) per user, refused ones included: a 429 with
    # Retry-After beyond it. Counted in Django's cache (console.api.throttle).
    "DEFAULT_THROTTLE_CLASSES": ["console.api.throttle.WriteRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {"writes": os.environ.get("WRITE_RATE_LIMIT", "300/min")},
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Kafka Console API",
    "DESCRIPTION": "REST API of Kafka Console (described in words in docs/api.md).",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # The schema and its docs need the viewer role, like every read.
    "SERVE_PERMISSIONS": ["console.permissions.RolePermission"],
    "SCHEMA_PATH_PREFIX": "/api/v1",
    # Two `status` fields have different choices: each its own stable name, so the SPA's
    # types do not change with the order the schema meets them in.
    "ENUM_NAME_OVERRIDES": {
        "StatusEnum": "groups.api.serializers.LAG_STATUSES",
        "WorklistStatusEnum": "maintenance.models.WorklistMark.Status",
        "ReassignmentStateEnum": "reassign.models.Reassignment.State",
        "ReassignmentPartitionStateEnum": "reassign.progress.PARTITION_STATES",
        "AclFileFormatEnum": "access.acl_files.FORMATS",
        # A record's encodings (messages/): its name from before the ACL file format came.
        "FormatEnum": "messages.encoding.WRITE_FORMATS",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "console.api.schema.add_error_responses",
    ],
    # Swagger UI assets come from the sidecar package, not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "daphne": {"level": "WARNING"},
        # The Schema Registry client's HTTP library logs every request at INFO.
        "httpx2": {"level": "WARNING"},
        "httpx": {"level": "WARNING"},
        # Connection refusals while a broker is down are expected; keep them out of the way.
        "console.kafka.librdkafka": {"level": os.environ.get("LIBRDKAFKA_LOG_LEVEL", "CRITICAL")},
    },
}

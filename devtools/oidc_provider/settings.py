"""Settings of the dev OpenID Connect provider (read by `python -m devtools.oidc_provider`)."""

from __future__ import annotations

import os
from pathlib import Path

STATE_DIR = Path(os.environ["OIDC_DEV_STATE_DIR"])
HERE = Path(__file__).resolve().parent

SECRET_KEY = (STATE_DIR / "secret_key").read_text().strip()
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
ROOT_URLCONF = "devtools.oidc_provider.urls"
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oauth2_provider",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [HERE / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]
DATABASES = {
    "default": {"ENGINE": "django.db.backends.sqlite3", "NAME": STATE_DIR / "provider.sqlite3"}
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True
TIME_ZONE = "UTC"
LOGIN_URL = "/accounts/login/"
# Its own cookie names: the console on the same host (127.0.0.1, another port) keeps its own.
SESSION_COOKIE_NAME = "oidc_dev_sessionid"
CSRF_COOKIE_NAME = "oidc_dev_csrftoken"

OAUTH2_PROVIDER = {
    "OIDC_ENABLED": True,
    "OIDC_RSA_PRIVATE_KEY": (STATE_DIR / "signing-key.pem").read_text(),
    "PKCE_REQUIRED": True,
    "SCOPES": {
        "openid": "OpenID Connect",
        "profile": "Your name",
        "email": "Your e-mail address",
        "groups": "Your groups",
    },
    "OAUTH2_VALIDATOR_CLASS": "devtools.oidc_provider.validator.GroupsValidator",
    "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https"],
    "ALLOW_LOCALHOST_LOOPBACK": True,
}

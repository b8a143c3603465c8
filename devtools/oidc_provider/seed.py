"""The dev provider's client (the console) and users, made or brought back to the dev stack's
values at every start."""

from __future__ import annotations

from django.contrib.auth.models import Group, User
from oauth2_provider.models import Application

from devtools.devstack import config

# Any port on the loopback addresses: the tests' consoles listen on free ports (RFC 8252 7.3).
REDIRECT_URIS = " ".join(f"http://{host}/oidc/callback/" for host in ("127.0.0.1", "localhost"))


def seed() -> None:
    app, _ = Application.objects.get_or_create(client_id=config.OIDC_CLIENT_ID)
    app.name = "Kafka Console (dev)"
    app.client_type = Application.CLIENT_CONFIDENTIAL
    app.authorization_grant_type = Application.GRANT_AUTHORIZATION_CODE
    app.client_secret = config.OIDC_CLIENT_SECRET  # hashed on save
    app.redirect_uris = REDIRECT_URIS
    app.algorithm = Application.RS256_ALGORITHM
    app.skip_authorization = True  # no consent page: the console is the provider's own client
    app.save()
    for username, groups in config.OIDC_USERS.items():
        user, _ = User.objects.get_or_create(username=username)
        user.email = f"{username}@example.test"
        user.set_password(config.OIDC_USER_PASSWORD)
        user.save()
        user.groups.set([Group.objects.get_or_create(name=g)[0] for g in groups])

"""`python -m devtools.oidc_provider STATE_DIR PORT`: prepare the state (a secret key, an RSA
signing key, the database with its client and users), then serve on 127.0.0.1:PORT."""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path


def _prepare(state: Path) -> None:
    state.mkdir(parents=True, exist_ok=True)
    key_file = state / "secret_key"
    if not key_file.is_file():
        key_file.write_text(secrets.token_urlsafe(50))
    pem = state / "signing-key.pem"
    if not pem.is_file():
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import rsa

        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        pem.write_bytes(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )


def main(argv: list[str]) -> None:
    state, port = Path(argv[0]).resolve(), int(argv[1])
    _prepare(state)
    os.environ["OIDC_DEV_STATE_DIR"] = str(state)
    os.environ["DJANGO_SETTINGS_MODULE"] = "devtools.oidc_provider.settings"
    import django

    django.setup()
    from django.core.management import call_command
    from django.core.servers.basehttp import run
    from django.core.wsgi import get_wsgi_application

    from devtools.oidc_provider.seed import seed

    call_command("migrate", verbosity=0, interactive=False)
    seed()
    print(f"dev OIDC provider on http://127.0.0.1:{port}", flush=True)
    run("127.0.0.1", port, get_wsgi_application(), threading=True)


if __name__ == "__main__":
    main(sys.argv[1:])

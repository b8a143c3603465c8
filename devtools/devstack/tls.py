"""The secured listener's material: a dev CA, the brokers' keystore, the console's SCRAM user.

Generated once into `<state dir>/tls/` with the JDK's keytool (the JDK is needed for Kafka
anyway), kept across restarts:
- `ca.pem`: the CA certificate, what clients trust (`ssl_ca_location`);
- `broker.p12`: the brokers' key and certificate (SAN IP:127.0.0.1, DNS:localhost) signed
  by the CA, with the CA in the chain;
- `keystore.password`, `console.password`: random passwords, mode 600.
The CA's own key stays in `ca.p12`; nothing else is ever signed with it.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
from pathlib import Path

from devtools.devstack import config
from devtools.devstack.errors import DevstackError

VALIDITY_DAYS = "3650"


def ca_pem() -> Path:
    return config.tls_dir() / "ca.pem"


def keystore() -> Path:
    return config.tls_dir() / "broker.p12"


def keystore_password_file() -> Path:
    return config.tls_dir() / "keystore.password"


def console_password_file() -> Path:
    return config.tls_dir() / "console.password"


def _secret_file(path: Path) -> str:
    """The password in `path`, created (random, mode 600) when missing."""
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(24))
    return path.read_text().strip()


def keystore_password() -> str:
    return _secret_file(keystore_password_file())


def console_password() -> str:
    return _secret_file(console_password_file())


def _keytool(*args: str, stdin: str | None = None) -> str:
    tool = shutil.which("keytool")
    if not tool:
        raise DevstackError("keytool is not on PATH; install a JDK 17+ (Debian: openjdk-17-jdk).")
    done = subprocess.run(
        [tool, *args], input=stdin, capture_output=True, text=True, check=False, timeout=120
    )
    if done.returncode != 0:
        # keytool's own message; the command line holds store passwords, so it is not shown.
        raise DevstackError(
            f"keytool {args[0]} failed: {done.stdout.strip()} {done.stderr.strip()}"
        )
    return done.stdout


def ensure_material() -> None:
    """Create the CA, the broker keystore and the passwords unless they all exist."""
    tls = config.tls_dir()
    if ca_pem().is_file() and keystore().is_file() and keystore_password_file().is_file():
        console_password()
        return
    tls.mkdir(parents=True, exist_ok=True)
    for stale in (ca_pem(), keystore(), tls / "ca.p12", tls / "broker.pem"):
        stale.unlink(missing_ok=True)
    password = keystore_password()
    console_password()
    ca_store = ["-keystore", str(tls / "ca.p12"), "-storetype", "PKCS12", "-storepass", password]
    broker_store = ["-keystore", str(keystore()), "-storetype", "PKCS12", "-storepass", password]
    key = ["-keyalg", "RSA", "-keysize", "2048", "-validity", VALIDITY_DAYS]
    _keytool("-genkeypair", "-alias", "ca", "-dname", "CN=kafka-console dev CA",
             "-ext", "bc:c", *key, *ca_store, "-keypass", password)  # fmt: skip
    ca_pem().write_text(_keytool("-exportcert", "-rfc", "-alias", "ca", *ca_store))
    _keytool("-genkeypair", "-alias", "broker", "-dname", "CN=localhost",
             *key, *broker_store, "-keypass", password)  # fmt: skip
    request = _keytool("-certreq", "-alias", "broker", *broker_store)
    signed = _keytool(
        "-gencert", "-alias", "ca", *ca_store, "-rfc", "-validity", VALIDITY_DAYS,
        "-ext", "SAN=IP:127.0.0.1,DNS:localhost",
        "-ext", "KU=digitalSignature,keyEncipherment", "-ext", "EKU=serverAuth",
        stdin=request,
    )  # fmt: skip
    (tls / "broker.pem").write_text(signed)
    _keytool("-importcert", "-noprompt", "-alias", "ca", "-file", str(ca_pem()), *broker_store)
    _keytool("-importcert", "-alias", "broker", "-file", str(tls / "broker.pem"), *broker_store)
    for path in tls.iterdir():
        path.chmod(0o600 if path.suffix in (".p12", ".password") else 0o644)


def listener_properties() -> dict[str, str]:
    """Broker properties of the SASL_SSL listener (named SECURE)."""
    prefix = "listener.name.secure."
    return {
        f"{prefix}sasl.enabled.mechanisms": config.SASL_MECHANISM,
        f"{prefix}scram-sha-512.sasl.jaas.config": (
            "org.apache.kafka.common.security.scram.ScramLoginModule required;"
        ),
        f"{prefix}ssl.keystore.type": "PKCS12",
        f"{prefix}ssl.keystore.location": str(keystore()),
        f"{prefix}ssl.keystore.password": keystore_password(),
        f"{prefix}ssl.key.password": keystore_password(),
    }

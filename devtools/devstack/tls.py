"""The secured listener's material: a dev CA, the brokers' stores, the console's SCRAM password.

Generated once into `<state dir>/tls/` with the JDK's keytool (the JDK is needed for Kafka
anyway), kept across restarts:
- `ca.pem`: the CA certificate, what clients trust (librdkafka's `ssl.ca.location`, Python's
  `ssl` module);
- `broker.p12`: the brokers' key and certificate (SAN IP:127.0.0.1, DNS:localhost) signed by
  the CA, with the CA in the chain; `truststore.p12`: the CA alone;
- `keystore.password`, `console.password`: random passwords, mode 600;
- `client.properties` (mode 600, rewritten on every start): Kafka's Java tools on the SASL_SSL
  listener as the console user, `--command-config` of e.g. `devstack tool kafka-topics`.
The CA's own key stays in `ca.p12`; nothing but the broker certificate is ever signed with it.
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
# Files anyone may read; everything else in tls_dir() holds a key or a password.
PUBLIC_FILES = ("ca.pem", "broker.pem")


def ca_pem() -> Path:
    return config.tls_dir() / "ca.pem"


def keystore() -> Path:
    return config.tls_dir() / "broker.p12"


def truststore() -> Path:
    return config.tls_dir() / "truststore.p12"


def keystore_password_file() -> Path:
    return config.tls_dir() / "keystore.password"


def console_password_file() -> Path:
    return config.tls_dir() / "console.password"


def client_properties_file() -> Path:
    return config.tls_dir() / "client.properties"


def _write_private(path: Path, text: str) -> None:
    """Write `path` readable by us only (mode 600 also when it already existed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)


def _secret_file(path: Path) -> str:
    """The password in `path`, created (random, URL-safe, no newline) when missing."""
    if not path.is_file():
        # URL-safe characters only: the password goes into `[name=...,password=...]` specs
        # and a JAAS string, which have no escaping.
        _write_private(path, secrets.token_urlsafe(24))
    return path.read_text().strip()


def keystore_password() -> str:
    return _secret_file(keystore_password_file())


def console_password() -> str:
    return _secret_file(console_password_file())


def redact(text: str) -> str:
    """`text` with our passwords replaced by ***, for tool output shown in error messages."""
    for path in (keystore_password_file(), console_password_file()):
        secret = path.read_text().strip() if path.is_file() else ""
        if secret:
            text = text.replace(secret, "***")
    return text


def scram_format_arg() -> str:
    """`kafka-storage format --add-scram` value: the console user in a fresh cluster."""
    return f"{config.SASL_MECHANISM}=[name={config.SASL_USERNAME},password={console_password()}]"


def scram_config_arg() -> str:
    """`kafka-configs --add-config` value that upserts the console user's credential."""
    return f"{config.SASL_MECHANISM}=[password={console_password()}]"


def _keytool(*args: str, stdin: str | None = None) -> str:
    tool = shutil.which("keytool")
    if not tool:
        raise DevstackError("keytool is not on PATH; install a JDK 17+ (Debian: openjdk-17-jdk).")
    done = subprocess.run(
        [tool, *args], input=stdin, capture_output=True, text=True, check=False, timeout=120
    )
    if done.returncode != 0:
        raise DevstackError(
            f"keytool {args[0]} failed: {redact(done.stdout.strip())} {redact(done.stderr.strip())}"
        )
    return done.stdout


def _store(path: Path) -> list[str]:
    # Passwords from the file, so they never appear on a command line.
    pw = str(keystore_password_file())
    return ["-keystore", str(path), "-storetype", "PKCS12", "-storepass:file", pw]


def _make_truststore() -> None:
    truststore().unlink(missing_ok=True)
    _keytool("-importcert", "-noprompt", "-alias", "ca", "-file", str(ca_pem()),
             *_store(truststore()))  # fmt: skip


def _make_ca_and_keystore() -> None:
    tls = config.tls_dir()
    ca_store, broker_store = _store(tls / "ca.p12"), _store(keystore())
    keypass = ["-keypass:file", str(keystore_password_file())]
    key = ["-keyalg", "RSA", "-keysize", "2048", "-validity", VALIDITY_DAYS]
    # keyUsage on the CA: OpenSSL's strict mode (Python 3.13+ default contexts) requires it.
    _keytool("-genkeypair", "-alias", "ca", "-dname", "CN=kafka-console dev CA",
             "-ext", "bc:c", "-ext", "KU:c=keyCertSign,cRLSign",
             *key, *ca_store, *keypass)  # fmt: skip
    ca_pem().write_text(_keytool("-exportcert", "-rfc", "-alias", "ca", *ca_store))
    _keytool("-genkeypair", "-alias", "broker", "-dname", "CN=localhost",
             *key, *broker_store, *keypass)  # fmt: skip
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


def ensure_material() -> None:
    """Create whatever of the CA, stores, passwords and client.properties is missing.

    The CA and broker keystore are made once and kept: a new CA would invalidate every
    `ca.pem` a developer already pointed a client at.
    """
    tls = config.tls_dir()
    tls.mkdir(parents=True, exist_ok=True)
    if not (ca_pem().is_file() and keystore().is_file() and keystore_password_file().is_file()):
        for stale in (ca_pem(), keystore(), truststore(), tls / "ca.p12", tls / "broker.pem"):
            stale.unlink(missing_ok=True)
        keystore_password_file().unlink(missing_ok=True)  # a keystore-less password: new one
        keystore_password()
        _make_ca_and_keystore()
    if not truststore().is_file():  # material made before the truststore existed
        _make_truststore()
    write_client_properties()
    for path in tls.iterdir():
        path.chmod(0o644 if path.name in PUBLIC_FILES else 0o600)


def write_client_properties() -> Path:
    """Client settings of the console user on the SASL_SSL listener, for Kafka's Java tools."""
    jaas = (
        "org.apache.kafka.common.security.scram.ScramLoginModule required "
        f'username="{config.SASL_USERNAME}" password="{console_password()}";'
    )
    props = {
        "security.protocol": "SASL_SSL",
        "sasl.mechanism": config.SASL_MECHANISM,
        "sasl.jaas.config": jaas,
        "ssl.truststore.type": "PEM",
        "ssl.truststore.location": str(ca_pem()),
    }
    path = client_properties_file()
    _write_private(path, "".join(f"{key}={value}\n" for key, value in props.items()))
    return path


def listener_properties() -> dict[str, str]:
    """Broker properties of the SASL_SSL listener (named SECURE)."""
    prefix = "listener.name.secure."
    password = keystore_password()
    return {
        f"{prefix}sasl.enabled.mechanisms": config.SASL_MECHANISM,
        f"{prefix}{config.SASL_MECHANISM.lower()}.sasl.jaas.config": (
            "org.apache.kafka.common.security.scram.ScramLoginModule required;"
        ),
        f"{prefix}ssl.keystore.type": "PKCS12",
        f"{prefix}ssl.keystore.location": str(keystore()),
        f"{prefix}ssl.keystore.password": password,
        f"{prefix}ssl.key.password": password,
        f"{prefix}ssl.truststore.type": "PKCS12",
        f"{prefix}ssl.truststore.location": str(truststore()),
        f"{prefix}ssl.truststore.password": password,
    }

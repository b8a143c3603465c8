"""SASL client mechanisms as pure functions: PLAIN and SCRAM-SHA-256/512 (RFC 5802, 7677).

Kafka's SCRAM is the standard one without channel binding (gs2 header "n,,"). The server's
final signature is checked, so a man in the middle without the password cannot fake success.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

HASHES = {"SCRAM-SHA-256": "sha256", "SCRAM-SHA-512": "sha512"}


class SaslError(Exception):
    pass


def plain_initial(username: str, password: str) -> bytes:
    return b"\0" + username.encode() + b"\0" + password.encode()


def _saslname(name: str) -> str:
    return name.replace("=", "=3D").replace(",", "=2C")


class ScramClient:
    """One SCRAM exchange: `first()`, then `final(server_first)`, then `verify(server_final)`."""

    def __init__(self, mechanism: str, username: str, password: str, nonce: str | None = None):
        if mechanism not in HASHES:
            raise SaslError(f"unsupported SCRAM mechanism {mechanism}")
        self.hash = HASHES[mechanism]
        self.username = username
        self.password = password
        self.nonce = nonce or base64.b64encode(secrets.token_bytes(24)).decode()
        self.client_first_bare = f"n={_saslname(username)},r={self.nonce}"
        self._server_signature = b""

    def first(self) -> bytes:
        return ("n,," + self.client_first_bare).encode()

    def _hmac(self, key: bytes, message: bytes) -> bytes:
        return hmac.new(key, message, self.hash).digest()

    def final(self, server_first: bytes) -> bytes:
        text = server_first.decode()
        fields = dict(part.split("=", 1) for part in text.split(",") if "=" in part)
        if "e" in fields:
            raise SaslError(f"server refused SCRAM: {fields['e']}")
        nonce, salt, iterations = fields.get("r", ""), fields.get("s", ""), fields.get("i", "")
        if not nonce.startswith(self.nonce) or not salt or not iterations.isdigit():
            raise SaslError("malformed SCRAM server-first message")
        salted = hashlib.pbkdf2_hmac(
            self.hash, self.password.encode(), base64.b64decode(salt), int(iterations)
        )
        client_key = self._hmac(salted, b"Client Key")
        stored_key = hashlib.new(self.hash, client_key).digest()
        without_proof = f"c=biws,r={nonce}"
        auth_message = f"{self.client_first_bare},{text},{without_proof}".encode()
        signature = self._hmac(stored_key, auth_message)
        proof = bytes(a ^ b for a, b in zip(client_key, signature, strict=True))
        self._server_signature = self._hmac(self._hmac(salted, b"Server Key"), auth_message)
        return f"{without_proof},p={base64.b64encode(proof).decode()}".encode()

    def verify(self, server_final: bytes) -> None:
        fields = dict(p.split("=", 1) for p in server_final.decode().split(",") if "=" in p)
        if "e" in fields:
            raise SaslError(f"server refused SCRAM: {fields['e']}")
        if not hmac.compare_digest(base64.b64decode(fields.get("v", "")), self._server_signature):
            raise SaslError("the server's SCRAM signature does not match")

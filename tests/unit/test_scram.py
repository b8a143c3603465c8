"""SCRAM against RFC 7677's published exchange, and PLAIN's framing (no services)."""

import base64

import pytest

from console.kafka import scram

# RFC 7677, section 3: user "user", password "pencil", SCRAM-SHA-256.
CLIENT_NONCE = "rOprNGfwEbeRWgbNEkqO"
SERVER_FIRST = (
    b"r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"
)
CLIENT_FINAL = (
    b"c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
    b"p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="
)
SERVER_FINAL = b"v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="


def rfc_client() -> scram.ScramClient:
    return scram.ScramClient("SCRAM-SHA-256", "user", "pencil", nonce=CLIENT_NONCE)


def test_scram_sha256_matches_rfc7677_exchange():
    client = rfc_client()
    assert client.first() == b"n,,n=user,r=rOprNGfwEbeRWgbNEkqO"
    assert client.final(SERVER_FIRST) == CLIENT_FINAL
    client.verify(SERVER_FINAL)  # does not raise


def test_scram_refuses_a_forged_server_signature():
    client = rfc_client()
    client.final(SERVER_FIRST)
    forged = b"v=" + base64.b64encode(b"\0" * 32)
    with pytest.raises(scram.SaslError, match="signature"):
        client.verify(forged)


def test_scram_refuses_a_server_nonce_that_does_not_extend_ours():
    client = rfc_client()
    with pytest.raises(scram.SaslError, match="malformed"):
        client.final(b"r=someone-elses-nonce,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096")


def test_scram_reports_a_server_error():
    client = rfc_client()
    with pytest.raises(scram.SaslError, match="invalid-proof"):
        client.final(SERVER_FIRST)
        client.verify(b"e=invalid-proof")


def test_scram_escapes_comma_and_equals_in_user_names():
    client = scram.ScramClient("SCRAM-SHA-512", "a,b=c", "pw", nonce="n")
    assert client.first() == b"n,,n=a=2Cb=3Dc,r=n"


def test_plain_initial_response_framing():
    assert scram.plain_initial("console", "s3cret") == b"\0console\0s3cret"

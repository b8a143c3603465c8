"""A small OpenID Connect provider for the dev stack and the tests, built on
django-oauth-toolkit: a Django project of its own (its own settings and SQLite database),
run by `devstack up` on 127.0.0.1:18090.

It knows the console as one confidential client (authorization code with PKCE, RS256 ID
tokens, the console's callback on any loopback port) and a few users whose `groups` claim
exercises the console's group-to-role mapping (`seed.py`). It is a development tool: the
console itself works with any OpenID Connect provider.
"""

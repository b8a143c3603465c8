"""Developer tooling, apart from the product: the local dev stack and the demo traffic.

The console itself never imports this package. It is a Django app only so that
`manage.py devstack ...` and `manage.py demotraffic` exist; settings add it to
INSTALLED_APPS when it is importable, so a deployment may ship without it.
"""

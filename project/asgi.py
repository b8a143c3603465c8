"""ASGI entry point: HTTP goes to Django, /ws/ to Channels consumers behind session/token auth."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")
# Django must be set up before anything imports models (the consumers and auth middleware).
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from console.api.body_limit import BodyLimit  # noqa: E402
from console.api.query import declared  # noqa: E402
from console.ws_auth import TokenOrSessionAuthMiddlewareStack  # noqa: E402
from console.ws_origin import OriginCheck  # noqa: E402
from project.ws_routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        # API bodies over MAX_REQUEST_BYTES are refused (413) before Django reads them.
        "http": BodyLimit(django_asgi_app),
        # The Origin check runs after auth: without an Origin only a token client passes.
        # It compares scheme, host and port, as Django's CSRF check (console/ws_origin.py).
        "websocket": TokenOrSessionAuthMiddlewareStack(
            OriginCheck(URLRouter(websocket_urlpatterns))
        ),
    }
)

# The OpenAPI schema's query parameters, read once before any request: drf-spectacular's
# generator is not thread-safe, and the first requests arrive in parallel.
declared()

# Everything loaded so far (Django, DRF, Channels, the URL conf) lives as long as the process.
# Frozen out of the collector's generations, a full collection no longer walks it: with 500
# sockets open those walks took 80-180 ms a few times a minute, and the pushes that waited on
# them reached every socket that much later. The sockets' own objects still made full
# collections of 25-60 ms about four times a minute; one every 100 middle-generation
# collections instead of 10 leaves about none a minute (bench/ws_lag_latency.py at 500
# sockets: p99 334 ms before, about 200 ms with both).
gc.freeze()
gc.set_threshold(700, 10, 100)

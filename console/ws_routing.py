"""All WebSocket routes, gathered from the apps."""

websocket_urlpatterns: list = []

from django.urls import register_converter

from console.api.routes import routes
from groups.api import views


class GroupIdConverter:
    """Any text, "/" and line breaks included (Django's `path` converter stops at a newline,
    which would make such an id a 404 rather than the 400 its control characters earn)."""

    regex = r"[\s\S]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(GroupIdConverter, "group_id")

# Group ids are free text in Kafka and may hold "/": the routes with a suffix come first.
# (A group whose id itself ends in "/offset-resets" or "/offsets.csv" is reachable only
# through those suffixed routes; docs/api.md says so.)
urlpatterns = [
    *routes("clusters/<str:cluster>/groups", [("", views.GroupListView, "group-list")]),
    *routes(
        "clusters/<str:cluster>/groups/<group_id:group>",
        [
            ("/offset-resets", views.OffsetResetListView, "offset-reset-list"),
            ("/lag-history", views.LagHistoryView, "group-lag-history"),
            ("/offsets.csv", views.OffsetsCsvView, "group-offsets-csv"),
            ("", views.GroupDetailView, "group-detail"),
        ],
    ),
    *routes(
        "offset-resets/<int:reset_id>",
        [
            ("", views.OffsetResetDetailView, "reset"),
            ("/execute", views.OffsetResetExecuteView, "reset-execute"),
            ("/undo", views.OffsetResetUndoView, "reset-undo"),
        ],
    ),
]

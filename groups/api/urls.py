from django.urls import path, register_converter

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
    path("clusters/<str:cluster>/groups", views.GroupListView.as_view(), name="group-list"),
    path(
        "clusters/<str:cluster>/groups/<group_id:group>/offset-resets",
        views.OffsetResetListView.as_view(),
        name="offset-reset-list",
    ),
    path(
        "clusters/<str:cluster>/groups/<group_id:group>/lag-history",
        views.LagHistoryView.as_view(),
        name="group-lag-history",
    ),
    path(
        "clusters/<str:cluster>/groups/<group_id:group>/offsets.csv",
        views.OffsetsCsvView.as_view(),
        name="group-offsets-csv",
    ),
    path(
        "clusters/<str:cluster>/groups/<group_id:group>",
        views.GroupDetailView.as_view(),
        name="group-detail",
    ),
    path("offset-resets/<int:reset_id>", views.OffsetResetDetailView.as_view(), name="reset"),
    path(
        "offset-resets/<int:reset_id>/execute",
        views.OffsetResetExecuteView.as_view(),
        name="reset-execute",
    ),
    path(
        "offset-resets/<int:reset_id>/undo",
        views.OffsetResetUndoView.as_view(),
        name="reset-undo",
    ),
]

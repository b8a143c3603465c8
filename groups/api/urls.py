from django.urls import path

from groups.api import views

# Group ids are free text in Kafka and may hold "/": they are matched with the `path`
# converter, so the routes with a suffix come first. (A group whose id itself ends in
# "/offset-resets" or "/offsets.csv" is reachable only through those suffixed routes.)
urlpatterns = [
    path("clusters/<str:cluster>/groups", views.GroupListView.as_view(), name="group-list"),
    path(
        "clusters/<str:cluster>/groups/<path:group>/offset-resets",
        views.OffsetResetListView.as_view(),
        name="offset-reset-list",
    ),
    path(
        "clusters/<str:cluster>/groups/<path:group>/offsets.csv",
        views.OffsetsCsvView.as_view(),
        name="group-offsets-csv",
    ),
    path(
        "clusters/<str:cluster>/groups/<path:group>",
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

from django.urls import path

from groups.api import views

urlpatterns = [
    path("clusters/<str:cluster>/groups", views.GroupListView.as_view(), name="group-list"),
    path(
        "clusters/<str:cluster>/groups/<str:group>",
        views.GroupDetailView.as_view(),
        name="group-detail",
    ),
    path(
        "clusters/<str:cluster>/groups/<str:group>/offset-resets",
        views.OffsetResetListView.as_view(),
        name="offset-reset-list",
    ),
    path(
        "clusters/<str:cluster>/groups/<str:group>/offsets.csv",
        views.OffsetsCsvView.as_view(),
        name="group-offsets-csv",
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

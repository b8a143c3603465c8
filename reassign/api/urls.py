from console.api.routes import routes
from reassign.api import views

urlpatterns = [
    *routes(
        "clusters/<str:cluster>/reassignments",
        [
            ("", views.ReassignmentListView, "reassignment-list"),
            ("/plan", views.PlanView, "reassignment-plan"),
            ("/<int:reassignment_id>", views.ReassignmentDetailView, "reassignment-detail"),
            ("/<int:reassignment_id>/cancel", views.ReassignmentCancelView, "reassignment-cancel"),
        ],
    ),
]

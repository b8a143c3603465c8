from approvals.api import views
from console.api.routes import routes

urlpatterns = [
    *routes(
        "approvals",
        [
            ("", views.ApprovalListView, "approval-list"),
            ("/<int:approval_id>", views.ApprovalDetailView, "approval-detail"),
            ("/<int:approval_id>/approve", views.ApprovalApproveView, "approval-approve"),
            ("/<int:approval_id>/reject", views.ApprovalRejectView, "approval-reject"),
        ],
    ),
]

from accounts.api import views
from console.api.routes import routes

urlpatterns = [
    *routes(
        "users",
        [
            ("", views.UserListView, "user-list"),
            ("/<int:user_id>", views.UserDetailView, "user-detail"),
            ("/<int:user_id>/tokens", views.TokenListView, "user-token-list"),
            ("/<int:user_id>/tokens/<int:token_id>", views.TokenDetailView, "user-token"),
        ],
    ),
]

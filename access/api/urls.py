from access.api import views
from console.api.routes import routes

urlpatterns = [
    *routes(
        "clusters/<str:cluster>/acls",
        [
            ("", views.AclListView, "acl-list"),
            ("/delete", views.AclDeleteView, "acl-delete"),
        ],
    ),
]

from access.api import views
from console.api.routes import routes

urlpatterns = [
    *routes(
        "clusters/<str:cluster>/acls",
        [
            ("", views.AclListView, "acl-list"),
            ("/delete", views.AclDeleteView, "acl-delete"),
            ("/export", views.AclExportView, "acl-export"),
            ("/import", views.AclImportView, "acl-import"),
        ],
    ),
    *routes("clusters/<str:cluster>/quotas", [("", views.QuotaListView, "quota-list")]),
    *routes(
        "clusters/<str:cluster>/scram-users",
        [
            ("", views.ScramUserListView, "scram-user-list"),
            ("/<str:user>", views.ScramUserView, "scram-user"),
        ],
    ),
]

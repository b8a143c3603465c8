from console.api.routes import routes
from topics.api import views

urlpatterns = [
    *routes(
        "clusters",
        [
            ("", views.ClusterListView, "cluster-list"),
            ("/<str:cluster>", views.ClusterDetailView, "cluster-detail"),
            ("/<str:cluster>/brokers", views.BrokerListView, "broker-list"),
            ("/<str:cluster>/brokers/<int:broker>", views.BrokerDetailView, "broker-detail"),
            (
                "/<str:cluster>/brokers/<int:broker>/configs",
                views.BrokerConfigsView,
                "broker-configs",
            ),
            ("/<str:cluster>/broker-defaults", views.BrokerDefaultsView, "broker-defaults"),
            ("/<str:cluster>/topics", views.TopicListView, "topic-list"),
        ],
    ),
    *routes(
        "clusters/<str:cluster>/topics/<str:topic>",
        [
            ("", views.TopicDetailView, "topic-detail"),
            ("/configs", views.TopicConfigsView, "topic-configs"),
            ("/partitions", views.TopicPartitionsView, "topic-partitions"),
        ],
    ),
    *routes(
        "clusters/<str:cluster>", [("/elect-leaders", views.ElectLeadersView, "elect-leaders")]
    ),
]

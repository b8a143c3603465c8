from django.urls import path

from topics.api import views

urlpatterns = [
    path("clusters", views.ClusterListView.as_view(), name="cluster-list"),
    path("clusters/<str:cluster>", views.ClusterDetailView.as_view(), name="cluster-detail"),
    path("clusters/<str:cluster>/brokers", views.BrokerListView.as_view(), name="broker-list"),
    path("clusters/<str:cluster>/topics", views.TopicListView.as_view(), name="topic-list"),
    path(
        "clusters/<str:cluster>/topics/<str:topic>",
        views.TopicDetailView.as_view(),
        name="topic-detail",
    ),
    path(
        "clusters/<str:cluster>/topics/<str:topic>/configs",
        views.TopicConfigsView.as_view(),
        name="topic-configs",
    ),
    path(
        "clusters/<str:cluster>/topics/<str:topic>/partitions",
        views.TopicPartitionsView.as_view(),
        name="topic-partitions",
    ),
    path(
        "clusters/<str:cluster>/elect-leaders",
        views.ElectLeadersView.as_view(),
        name="elect-leaders",
    ),
]

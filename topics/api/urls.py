from django.urls import path

from topics.api import views

urlpatterns = [
    path("clusters", views.ClusterListView.as_view(), name="cluster-list"),
    path("clusters/<str:cluster>", views.ClusterDetailView.as_view(), name="cluster-detail"),
    path("clusters/<str:cluster>/brokers", views.BrokerListView.as_view(), name="broker-list"),
]

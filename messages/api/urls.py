from django.urls import path

from messages.api import views

urlpatterns = [
    path(
        "clusters/<str:cluster>/topics/<str:topic>/messages",
        views.MessageListView.as_view(),
        name="topic-messages",
    ),
]

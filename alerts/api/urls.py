from django.urls import path

from alerts.api import views

urlpatterns = [
    path("alerts/rules", views.RuleListView.as_view(), name="alert-rule-list"),
    path("alerts/rules/<int:rule_id>", views.RuleDetailView.as_view(), name="alert-rule-detail"),
    path("alerts/rules/<int:rule_id>/test", views.RuleTestView.as_view(), name="alert-rule-test"),
    path("alerts/events", views.EventListView.as_view(), name="alert-event-list"),
]

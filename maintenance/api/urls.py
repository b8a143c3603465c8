from django.urls import path

from maintenance.api import views

urlpatterns = [
    path("spark/models", views.ModelListView.as_view(), name="spark-models"),
    path("spark/models/active", views.ActiveModelView.as_view(), name="spark-model-active"),
    path(
        "spark/models/<int:model_id>/promote",
        views.ModelPromoteView.as_view(),
        name="spark-model-promote",
    ),
    path(
        "spark/models/<int:model_id>/performance",
        views.ModelPerformanceView.as_view(),
        name="spark-model-performance",
    ),
    path(
        "spark/models/<int:model_id>/drift",
        views.ModelDriftView.as_view(),
        name="spark-model-drift",
    ),
    path("spark/predictions", views.PredictionListView.as_view(), name="spark-predictions"),
    path("maintenance/worklist", views.WorklistView.as_view(), name="maintenance-worklist"),
    path(
        "maintenance/worklist/<str:equipment_id>",
        views.WorklistMarkView.as_view(),
        name="maintenance-worklist-mark",
    ),
]

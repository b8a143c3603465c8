from django.urls import path

from maintenance.api import views

urlpatterns = [
    path("spark/models", views.ModelListView.as_view(), name="spark-models"),
    path("spark/predictions", views.PredictionListView.as_view(), name="spark-predictions"),
]

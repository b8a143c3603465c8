from django.urls import path

from sparkjobs.api import views

urlpatterns = [
    path("spark/job-types", views.JobTypeListView.as_view(), name="spark-job-types"),
    path("spark/jobs", views.JobListView.as_view(), name="spark-job-list"),
    path("spark/schedules", views.ScheduleListView.as_view(), name="spark-schedule-list"),
    path(
        "spark/schedules/<int:schedule_id>",
        views.ScheduleDetailView.as_view(),
        name="spark-schedule",
    ),
    path("spark/jobs/<int:job_id>", views.JobDetailView.as_view(), name="spark-job"),
    path("spark/jobs/<int:job_id>/cancel", views.JobCancelView.as_view(), name="spark-job-cancel"),
    path("spark/jobs/<int:job_id>/log", views.JobLogView.as_view(), name="spark-job-log"),
    path(
        "spark/jobs/<int:job_id>/download",
        views.JobDownloadView.as_view(),
        name="spark-job-download",
    ),
]

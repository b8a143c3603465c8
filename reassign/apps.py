from django.apps import AppConfig


class ReassignConfig(AppConfig):
    name = "reassign"
    verbose_name = "Partition reassignment"

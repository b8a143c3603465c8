from django.apps import AppConfig


class MaintenanceConfig(AppConfig):
    name = "maintenance"
    verbose_name = "Predictive maintenance"

    def ready(self) -> None:
        # The platform (sparkjobs) knows nothing of this app: the app hands it its job types.
        from maintenance.catalog import MAINTENANCE_JOB_TYPES
        from sparkjobs.catalog import register

        register(*MAINTENANCE_JOB_TYPES)

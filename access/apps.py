from django.apps import AppConfig


class AccessConfig(AppConfig):
    name = "access"
    verbose_name = "Kafka access control"

    def ready(self) -> None:
        from access import approval_actions  # noqa: F401 (registers the changes held for approval)

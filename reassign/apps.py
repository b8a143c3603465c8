from django.apps import AppConfig


class ReassignConfig(AppConfig):
    name = "reassign"
    verbose_name = "Partition reassignment"

    def ready(self) -> None:
        from reassign import approval_actions  # noqa: F401 (registers the change held for approval)

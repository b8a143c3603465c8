from django.apps import AppConfig


class TopicsConfig(AppConfig):
    name = "topics"
    verbose_name = "Brokers, topics and leadership"

    def ready(self) -> None:
        from topics import approval_actions  # noqa: F401 (registers the changes held for approval)

from django.apps import AppConfig


class GroupsConfig(AppConfig):
    name = "groups"
    verbose_name = "Consumer groups and offset resets"

    def ready(self) -> None:
        from django.conf import settings

        from console import owned_topics
        from groups import approval_actions  # noqa: F401 (registers the changes held for approval)

        # The lag sampler writes one record per group and pass here (groups/lag/export.py).
        owned_topics.register(lambda: [settings.LAG_EXPORT_TOPIC])

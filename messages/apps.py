from django.apps import AppConfig


class MessagesConfig(AppConfig):
    name = "messages"
    # Django's own messages framework holds the label "messages".
    label = "topic_messages"
    verbose_name = "Topic messages"

    def ready(self) -> None:
        # The job platform knows nothing of this app: the app hands it its Spark job type.
        from messages.search_job import TOPIC_SEARCH
        from sparkjobs.catalog import register

        register(TOPIC_SEARCH)

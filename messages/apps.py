from django.apps import AppConfig


class MessagesConfig(AppConfig):
    name = "messages"
    # Django's own messages framework holds the label "messages".
    label = "topic_messages"
    verbose_name = "Topic messages"

from django.apps import AppConfig


class AccessConfig(AppConfig):
    name = "access"
    verbose_name = "Kafka access control"

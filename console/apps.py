from django.apps import AppConfig


class ConsoleConfig(AppConfig):
    name = "console"
    verbose_name = "Kafka Console"

    def ready(self) -> None:
        # Registers the receiver that clears a user's sign-in failures on a successful login,
        # whichever process or path signs in first.
        from console import signin_limit  # noqa: F401
        from console.audit_retention import prune
        from console.daily import register

        register("audit retention", prune)

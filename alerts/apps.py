from django.apps import AppConfig


class AlertsConfig(AppConfig):
    name = "alerts"
    verbose_name = "Lag alerts"

    def ready(self) -> None:
        # The sampler knows nothing of alerts: it tells the core's pass listeners, and this app
        # listens (in the sampler process; delivery then runs in the Celery worker).
        from alerts import retention
        from alerts.listener import on_pass
        from console import daily, lag_hooks

        lag_hooks.register(on_pass)
        daily.register("alert retention", retention.prune)

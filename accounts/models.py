from django.conf import settings
from django.db import models


class SsoIdentity(models.Model):
    """The identity provider's subject a console user signs in as. Users are found by it, never
    by e-mail or name, so a provider account cannot take over a local user of the same name."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sso_identity"
    )
    issuer = models.CharField(max_length=500)
    subject = models.CharField(max_length=255)
    groups = models.JSONField(default=list, blank=True)  # as of the last sign-in
    last_sign_in = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["issuer", "subject"], name="sso_identity_unique")
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.subject} at {self.issuer})"

"""`manage.py apitoken USERNAME --role viewer|operator|admin`: a token for scripts and tests."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from rest_framework.authtoken.models import Token

from console.roles import ROLES, grant_role


class Command(BaseCommand):
    help = "Create the user if missing, give it the role, and print its API token."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--role", choices=ROLES, required=True)

    def handle(self, *args, username: str, role: str, **options) -> None:
        user, created = get_user_model().objects.get_or_create(username=username)
        if created:
            # Token-only account: no password login until an admin sets one.
            user.set_unusable_password()
            user.save()
        grant_role(user, role)
        token, _ = Token.objects.get_or_create(user=user)
        self.stdout.write(token.key)

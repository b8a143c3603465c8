"""`manage.py apitoken USERNAME [--role ROLE] [--cluster-role CLUSTER=ROLE ...]`: a token for
scripts and tests, with a role on every cluster and/or roles on single clusters."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from rest_framework.authtoken.models import Token

from console.roles import ROLES, grant_cluster_role, grant_role


def _cluster_role(text: str) -> tuple[str, str]:
    cluster, _, role = text.partition("=")
    if not cluster or role not in ROLES:
        raise CommandError(f"--cluster-role takes CLUSTER=ROLE (ROLE: {', '.join(ROLES)}).")
    return cluster, role


class Command(BaseCommand):
    help = "Create the user if missing, give it the roles, and print its API token."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--role", choices=ROLES, help="the role on every cluster")
        parser.add_argument(
            "--cluster-role",
            action="append",
            default=[],
            metavar="CLUSTER=ROLE",
            help="a role on one cluster, replacing --role there (repeatable)",
        )

    def handle(self, *args, username: str, role: str | None, cluster_role: list, **opts) -> None:
        per_cluster = [_cluster_role(text) for text in cluster_role]
        if role is None and not per_cluster:
            raise CommandError("give --role and/or --cluster-role.")
        user, created = get_user_model().objects.get_or_create(username=username)
        if created:
            # Token-only account: no password login until an admin sets one.
            user.set_unusable_password()
            user.save()
        if role is not None:
            grant_role(user, role)
        for cluster, held in per_cluster:
            grant_cluster_role(user, cluster, held)
        token, _ = Token.objects.get_or_create(user=user)
        self.stdout.write(token.key)

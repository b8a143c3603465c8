from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from console.audit_retention import prune


class Command(BaseCommand):
    help = "Delete audit entries older than AUDIT_RETENTION_DAYS (or --days)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=None, help="keep this many days")

    def handle(self, *args: Any, days: int | None = None, **options: Any) -> None:
        self.stdout.write(f"deleted {prune(days)} audit entries")

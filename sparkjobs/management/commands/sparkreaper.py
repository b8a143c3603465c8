from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from sparkjobs.reaper import reap


class Command(BaseCommand):
    help = "Mark Spark jobs whose worker stopped heartbeating as lost and end their processes."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true", help="one pass, then exit")

    def handle(self, *args: Any, **options: Any) -> None:
        while True:
            lost = reap()
            if lost:
                self.stdout.write(f"lost: {', '.join(map(str, lost))}")
            if options["once"]:
                return
            time.sleep(settings.SPARK_REAPER_INTERVAL)

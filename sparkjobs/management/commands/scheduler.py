"""`manage.py scheduler`: start the due slots of every job schedule (sparkjobs.scheduler)."""

from __future__ import annotations

import logging
import signal
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from sparkjobs.scheduler import Scheduler


class Command(BaseCommand):
    help = "Run the job schedules' due slots every SCHEDULER_TICK_SECONDS (one active process)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--tick", type=float, help="seconds between looks at the schedules")

    def handle(self, *args: Any, **options: Any) -> None:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s scheduler %(message)s")
        tick = options["tick"] or float(settings.SCHEDULER_TICK_SECONDS)
        if tick <= 0:
            raise CommandError("--tick: give a number of seconds above 0.")
        scheduler = Scheduler(tick)
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: scheduler.stop())
        self.stdout.write(f"scheduler {scheduler.owner}: every {tick:g} s")
        self.stdout.flush()
        scheduler.run()

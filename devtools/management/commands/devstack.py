"""`manage.py devstack ...`: hands its arguments, untouched, to devtools.devstack.cli."""

from __future__ import annotations

import argparse
import sys

from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = (
        "Local Kafka + Redis (+ optional Spark) dev stack: up, down, status, stop-broker, "
        "start-broker, tool, fetch, spark-up, spark-down"
    )

    def run_from_argv(self, argv: list[str]) -> None:
        # Skip Django's option parsing so `tool kafka-topics --describe ...` passes through as-is.
        from devtools.devstack.cli import main

        sys.exit(main(argv[2:]))

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("argv", nargs=argparse.REMAINDER, help="devstack arguments")

    def handle(self, *args: str, **options: object) -> None:
        # Reached through call_command("devstack", "status", ...).
        from devtools.devstack.cli import main

        code = main([*options.get("argv", []), *args])
        if code:
            raise CommandError(f"devstack exited with status {code}", returncode=code)

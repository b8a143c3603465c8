"""`manage.py sparkarchive`: build the Spark drivers' class-data sharing archive (once per
JVM and pyspark version; a no-op when it exists). Jobs start faster once it is there."""

from __future__ import annotations

import subprocess

from django.core.management.base import BaseCommand, CommandError

from sparkjobs import class_archive


class Command(BaseCommand):
    help = "Build the Spark drivers' class-data sharing archive (SPARK_CLASS_ARCHIVE_DIR)."

    def handle(self, *args: object, **options: object) -> None:
        try:
            class_archive.build(log=self.stdout.write)
        except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
            raise CommandError(str(exc)) from exc

"""`manage.py tssamples [--output-dir DIR]`: the SPA's generated test samples (WebSocket
messages and the job types), built by the server's own code (devtools/tssamples.py).
`bin/api-types gen` writes them into frontend/src/test/, `bin/api-types check` compares."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from devtools import tssamples


class Command(BaseCommand):
    help = (
        "Write the SPA's generated samples (socketSamples.gen.ts, jobTypes.gen.json) into "
        "frontend/src/test/ or --output-dir."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--output-dir",
            type=Path,
            default=Path(settings.BASE_DIR) / "frontend" / "src" / "test",
            help="where to write the files (default: frontend/src/test)",
        )

    def handle(self, *args, output_dir: Path, **options) -> None:
        for path in tssamples.write(output_dir):
            self.stdout.write(f"wrote {path}")

"""`manage.py demotraffic [--setup-only]`: demo topics and live traffic on the local cluster."""

import signal
import threading

from django.core.management.base import BaseCommand, CommandParser

from console.clusters import get_cluster
from devtools.demo import traffic


class Command(BaseCommand):
    help = (
        "Create the demo topics, then keep producing and consuming (group mygroup) until stopped."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--cluster", default="local")
        parser.add_argument("--setup-only", action="store_true", help="create topics and exit")

    def handle(self, *args, cluster: str, setup_only: bool, **options) -> None:
        cfg = get_cluster(cluster)
        if setup_only:
            traffic.ensure_topics(cfg)
            self.stdout.write("demo topics are in place")
            return
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        traffic.run(cfg, stop)

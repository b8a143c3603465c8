"""`manage.py demotraffic [--setup-only | --backfill ...]`: demo topics and live traffic on the
local cluster, or the predictive-maintenance history (docs/maintenance-data.md)."""

import signal
import threading

from django.core.management.base import BaseCommand, CommandError, CommandParser

from console.clusters import get_cluster
from devtools.demo import maintenance_history, traffic


class Command(BaseCommand):
    help = (
        "Create the demo topics, then keep producing and consuming (group mygroup) until stopped;"
        " or, with --backfill, write a maintenance history once and exit."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--cluster", default="local")
        parser.add_argument("--setup-only", action="store_true", help="create topics and exit")
        history = parser.add_argument_group("maintenance history (--backfill)")
        history.add_argument(
            "--backfill",
            action="store_true",
            help="write alarms and work orders of the days before the last UTC midnight, "
            "with the event time as the record time, then exit; nothing is written when "
            "the work-orders topic already holds a completed backfill",
        )
        history.add_argument("--days", type=int, default=maintenance_history.DEFAULT_DAYS)
        history.add_argument("--equipment", type=int, default=maintenance_history.DEFAULT_EQUIPMENT)
        history.add_argument(
            "--seed",
            type=int,
            default=maintenance_history.DEFAULT_SEED,
            help="same seed, same data",
        )
        history.add_argument(
            "--no-pattern",
            action="store_true",
            help="a control: the precursor alarms come independently of the failures",
        )
        history.add_argument("--alarms-topic", default=maintenance_history.ALARMS_TOPIC)
        history.add_argument("--work-orders-topic", default=maintenance_history.WORK_ORDERS_TOPIC)

    def handle(self, *args, cluster: str, setup_only: bool, backfill: bool, **options) -> None:
        cfg = get_cluster(cluster)
        if backfill:
            self._backfill(cfg, options)
            return
        if setup_only:
            traffic.ensure_topics(cfg)
            self.stdout.write("demo topics are in place")
            return
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        traffic.run(cfg, stop)

    def _backfill(self, cfg, options: dict) -> None:
        if not 1 <= options["days"] <= 366 or not 1 <= options["equipment"] <= 100_000:
            raise CommandError("--days must be 1..366 and --equipment 1..100000")
        try:
            done = maintenance_history.backfill(
                cfg,
                alarms_topic=options["alarms_topic"],
                work_orders_topic=options["work_orders_topic"],
                equipment=options["equipment"],
                days=options["days"],
                seed=options["seed"],
                pattern=not options["no_pattern"],
            )
        except maintenance_history.BackfillRefused as exc:
            raise CommandError(f"backfill refused: {exc}") from exc
        if done.skipped:
            self.stdout.write(f"nothing written: {done.reason}")
            return
        self.stdout.write(
            f"wrote {done.alarms:,} alarms to {done.alarms_topic} and {done.work_orders:,} "
            f"work orders to {done.work_orders_topic}: {done.first_day} to "
            f"{done.anchor} (exclusive, the anchor), in {done.seconds:.1f} s"
        )

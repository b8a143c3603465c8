"""`manage.py lagsampler`: sample every registered cluster's consumer lag into Redis and
push it to open pages (groups.lag.service)."""

from __future__ import annotations

import json
import logging
import signal
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from console.clusters import ClusterNotFound, all_clusters, get_cluster
from groups.lag.sampler import ClusterSampler, PassResult
from groups.lag.service import SamplerService


class Command(BaseCommand):
    help = "Sample consumer lag of every registered cluster every LAG_SAMPLE_SECONDS."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--cluster", action="append", help="only this cluster (repeatable)")
        parser.add_argument("--interval", type=float, help="seconds between passes")
        parser.add_argument(
            "--once", action="store_true", help="one pass per cluster, print it as JSON, exit"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s lagsampler %(message)s")
        try:
            clusters = (
                [get_cluster(n) for n in options["cluster"]]
                if options["cluster"]
                else all_clusters()
            )
        except ClusterNotFound as exc:
            raise CommandError(str(exc)) from None
        interval = options["interval"] or float(getattr(settings, "LAG_SAMPLE_SECONDS", 5))
        if interval <= 0:
            raise CommandError("--interval: give a number of seconds above 0.")
        window = int(getattr(settings, "LAG_WINDOW", 10))
        risk = float(getattr(settings, "LAG_RETENTION_RISK", 0.10))
        if options["once"]:
            for cfg in clusters:
                result = ClusterSampler(cfg, interval, window, risk).run_pass()
                self.stdout.write(json.dumps({"cluster": cfg.name, **result.as_meta()}))
            return
        service = SamplerService(clusters, interval, window, risk, on_pass=self._report)
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: service.stop())
        names = ", ".join(c.name for c in clusters)
        self.stdout.write(f"lagsampler {service.owner}: {names}, every {interval:g} s")
        service.run()

    def _report(self, cluster: str, result: PassResult) -> None:
        if result.ok:
            logging.getLogger("groups.sampler").debug(
                "%s: %d groups, %d partitions in %.2f s",
                cluster,
                result.groups,
                result.partitions,
                result.duration_s,
            )

"""Test traffic on the dev stack: a steady producer and a consumer group at a chosen pace."""

from __future__ import annotations

import threading
import time

from console.kafka import dev
from tests.stack import cluster_client

PARTITIONS = 2


class Producer(threading.Thread):
    """Writes `rate` records/s round-robin over the partitions until paused or stopped."""

    def __init__(self, topic: str, rate: float):
        super().__init__(daemon=True)
        self.topic, self.rate = topic, rate
        self.paused = threading.Event()
        self.stopped = threading.Event()
        self.producer = dev.make_producer(cluster_client(), **{"acks": "all", "linger.ms": 5})

    def run(self) -> None:
        i = 0
        while not self.stopped.is_set():
            if not self.paused.is_set():
                self.producer.produce(self.topic, value=b"x", partition=i % PARTITIONS)
                self.producer.poll(0)
                i += 1
            time.sleep(1 / self.rate)
        self.producer.flush(10)

    def pause(self) -> None:
        self.paused.set()
        self.producer.flush(10)


class Consumer(threading.Thread):
    """Consumes at most `rate` records/s (None: as fast as it can) and commits each batch."""

    def __init__(self, topic: str, group: str):
        super().__init__(daemon=True)
        self.rate: float | None = None
        self.stopped = threading.Event()
        self.consumer = dev.make_consumer(
            cluster_client(),
            group,
            **{"enable.auto.commit": False, "auto.offset.reset": "earliest"},
        )
        self.consumer.subscribe([topic])

    def run(self) -> None:
        try:
            while not self.stopped.is_set():
                batch = 1 if self.rate else 500
                messages = self.consumer.consume(num_messages=batch, timeout=0.2)
                if messages:
                    dev.commit_if_possible(self.consumer)
                if self.rate:
                    time.sleep(1 / self.rate)
        finally:
            self.consumer.close()  # leaves the group: it becomes Empty

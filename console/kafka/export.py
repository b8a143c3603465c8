"""`TopicExporter`: records the console itself writes into a topic of a cluster, in the
background (today: the lag sampler's per-group samples for Spark's `lag-report`).

What a caller gets, whatever Kafka does:
- `send` never blocks and never raises: it hands the batch to the exporter's thread and
  returns. A full hand-over queue (Kafka slow or down for a while) drops the batch.
- The thread creates the topic when it is missing (time retention, `cleanup.policy=delete`),
  then produces with a librdkafka producer built from the cluster's own settings (security
  included, `ClusterClient.config`). librdkafka's queue is bounded and its records expire,
  so memory stays bounded while Kafka is down: those records are dropped.
- A failure is logged once, and again only after the export has worked in between.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from confluent_kafka import KafkaError, Producer

from console.kafka.client import ClusterClient
from console.kafka.errors import KafkaAdapterError

log = logging.getLogger(__name__)

# (key, value, timestamp in ms): the record's CreateTime is the time it describes.
Record = tuple[bytes | None, bytes, int]
# A batch, or a function that makes one: called on the exporter's thread, so turning a
# caller's data into records costs the caller nothing. Any sized collection: one that makes
# each record as it is iterated holds one record's bytes at a time, not the whole batch's.
Batch = Collection[Record] | Callable[[], Collection[Record]]

# Batches waiting for the thread; one batch is one sampling pass.
MAX_PENDING_BATCHES = 8
# Seconds between two attempts to create or find the topic while it fails.
TOPIC_RETRY_SECONDS = 30.0
PRODUCER_SETTINGS: dict[str, Any] = {
    # Batches of a pass travel together; lz4 is cheap on repetitive JSON.
    "linger.ms": 200,
    "compression.type": "lz4",
    # Bounded memory while Kafka is away: at most this many records wait, each at most 60 s.
    "queue.buffering.max.messages": 200_000,
    "message.timeout.ms": 60_000,
    "acks": "all",
}


@dataclass
class ExportStats:
    queued: int = 0  # records handed to librdkafka
    delivered: int = 0
    dropped: int = 0  # records lost: queue full, topic missing, delivery failed


class TopicExporter:
    """Background writer of record batches into one topic of one cluster (see module doc)."""

    def __init__(
        self,
        client: ClusterClient,
        topic: str,
        *,
        retention_ms: int,
        partitions: int = 3,
        max_pending: int = MAX_PENDING_BATCHES,
    ):
        self.client = client
        self.topic = topic
        self.retention_ms = retention_ms
        self.partitions = partitions
        self.stats = ExportStats()
        self._batches: queue.Queue[Batch | None] = queue.Queue(max_pending)
        self._thread: threading.Thread | None = None
        self._producer: Producer | None = None
        self._topic_ready = False
        self._topic_checked_at = float("-inf")
        self._failing = False  # a failure was logged; log again only after a success
        self._lock = threading.Lock()

    # --- the caller's side ----------------------------------------------------------------

    def send(self, batch: Batch) -> bool:
        """Hand a batch over; whether it was taken (False: dropped, the queue is full)."""
        self._start()
        try:
            self._batches.put_nowait(batch)
            return True
        except queue.Full:
            self._dropped(0 if callable(batch) else len(batch), "the export is behind")
            return False

    def close(self, timeout: float = 5.0) -> None:
        """Stop the thread after what it holds was sent (or `timeout` passed)."""
        thread = self._thread
        if thread is None:
            return
        try:
            self._batches.put(None, timeout=timeout)
        except queue.Full:
            pass
        thread.join(timeout)

    # --- the thread -----------------------------------------------------------------------

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name=f"export-{self.topic}", daemon=True
                )
                self._thread.start()

    def _run(self) -> None:
        while True:
            try:
                batch = self._batches.get(timeout=1.0)
            except queue.Empty:
                if self._producer is not None:
                    self._producer.poll(0)  # delivery reports of what is in flight
                continue
            if batch is None:
                if self._producer is not None:
                    self._producer.flush(5)
                return
            try:
                self._write(batch() if callable(batch) else batch)
            except Exception as exc:  # the thread must outlive any one batch
                log.debug("export batch failed", exc_info=True)
                self._dropped(0, f"unexpected error: {exc}")
            # Not held while waiting for the next one: a batch made by a function keeps the
            # data it is made of (a sampler's whole pass) until it is let go.
            batch = None

    def _write(self, batch: Collection[Record]) -> None:
        if not batch:
            return
        if not self._ensure_topic():
            self._dropped(len(batch), f"topic {self.topic!r} is not available")
            return
        producer = self._producer_or_new()
        for i, (key, value, ts_ms) in enumerate(batch):
            try:
                producer.produce(
                    self.topic, value=value, key=key, timestamp=ts_ms, on_delivery=self._delivered
                )
            except BufferError:
                self._dropped(len(batch) - i, "librdkafka's queue is full (Kafka down?)")
                break
            self.stats.queued += 1
        producer.poll(0)

    def _producer_or_new(self) -> Producer:
        if self._producer is None:
            self._producer = Producer(self.client.config(**PRODUCER_SETTINGS))
        return self._producer

    def _ensure_topic(self) -> bool:
        """The topic exists (created now if missing); retried at most every few seconds."""
        if self._topic_ready:
            return True
        if time.monotonic() - self._topic_checked_at < TOPIC_RETRY_SECONDS:
            return False
        self._topic_checked_at = time.monotonic()
        try:
            if not self.client.topic_metadata(self.topic):
                configs = {"retention.ms": str(self.retention_ms), "cleanup.policy": "delete"}
                try:
                    # -1: the broker's default.replication.factor.
                    self.client.create_topic(self.topic, self.partitions, -1, configs)
                    log.info("created topic %r for the export", self.topic)
                except KafkaAdapterError as exc:
                    if exc.details.get("kafka_error") != "TOPIC_ALREADY_EXISTS":
                        raise
        except KafkaAdapterError as exc:
            self._failed(f"topic {self.topic!r} could not be found or created: {exc.message}")
            return False
        self._topic_ready = True
        return True

    def _delivered(self, error: KafkaError | None, _message: Any) -> None:
        if error is None:
            self.stats.delivered += 1
            if self._failing:
                self._failing = False
                log.info("export to %r works again", self.topic)
            return
        self._dropped(1, f"{error.name()}: {error.str()}")
        if error.code() == KafkaError.UNKNOWN_TOPIC_OR_PART:
            self._topic_ready = False  # deleted meanwhile: create it again

    def _dropped(self, count: int, why: str) -> None:
        self.stats.dropped += count
        self._failed(f"records dropped: {why}")

    def _failed(self, message: str) -> None:
        if not self._failing:
            self._failing = True
            log.warning(
                "export to %r on %s: %s (not logged again until it works)",
                self.topic,
                self.client.cfg.name,
                message,
            )

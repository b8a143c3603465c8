"""Real demo traffic: four topics, a steady producer, and group `mygroup` falling behind.

`mygroup` has three members reading `my-failsafe-topic` a little slower than it is
written, so its lag grows slowly and is always visible in the console. The trucks' positions
go to `truck-gps` as JSON and to `truck-gps-avro` as Avro through the cluster's Schema
Registry (Confluent's serializer, schema under `truck-gps-avro-value`), so one filter shows
both decoded alike; without a registry the Avro topic stays empty.
"""

from __future__ import annotations

import json
import logging
import math
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from console.clusters import ClusterConfig
from console.kafka import dev, for_cluster

log = logging.getLogger(__name__)

FAILSAFE_TOPIC = "my-failsafe-topic"
TRUCKS_TOPIC = "truck-gps"
TRUCKS_AVRO_TOPIC = "truck-gps-avro"
ALARMS_TOPIC = "equipment-alarms"
DEMO_GROUP = "mygroup"

# (name, partitions, replication factor, configs)
DEMO_TOPICS: list[tuple[str, int, int, dict[str, str]]] = [
    (FAILSAFE_TOPIC, 13, 3, {"min.insync.replicas": "2"}),
    (TRUCKS_TOPIC, 10, 3, {}),
    (TRUCKS_AVRO_TOPIC, 10, 3, {}),
    # A year's retention: the maintenance history (demotraffic --backfill) is 60 days old.
    (ALARMS_TOPIC, 6, 3, {"retention.ms": str(365 * 24 * 3600 * 1000)}),
]

TRUCK_COUNT = 25
EQUIPMENT = [f"pump-{n:02d}" for n in range(1, 9)] + [f"press-{n:02d}" for n in range(1, 5)]
FAULT_CODES = ["E101-OVERHEAT", "E202-PRESSURE-LOW", "E303-VIBRATION", "W010-MAINTENANCE-DUE"]


@dataclass
class Rates:
    failsafe_per_s: float = 20.0  # written to my-failsafe-topic
    consume_per_member_s: float = 5.0  # read by each of mygroup's 3 members (15/s < 20/s)
    truck_interval_s: float = 3.0  # one position per truck every few seconds


def ensure_topics(cfg: ClusterConfig) -> None:
    dev.create_topics(for_cluster(cfg), DEMO_TOPICS)


def truck_position(truck: int, step: int) -> dict:
    # Trucks drive slow circles around their depot, so positions are plausible and keyed.
    angle = (step / 40.0) + truck
    return {
        "truck_id": f"truck-{truck:03d}",
        "lat": round(52.37 + 0.05 * truck / TRUCK_COUNT + 0.01 * math.sin(angle), 6),
        "lon": round(4.89 + 0.05 * truck / TRUCK_COUNT + 0.01 * math.cos(angle), 6),
        "speed_kmh": round(40 + 30 * random.random(), 1),
        "ts_ms": int(time.time() * 1000),
    }


TRUCK_POSITION_AVRO = json.dumps(
    {
        "type": "record",
        "name": "TruckPosition",
        "namespace": "demo.trucks",
        "fields": [
            {"name": "truck_id", "type": "string"},
            {"name": "lat", "type": "double"},
            {"name": "lon", "type": "double"},
            {"name": "speed_kmh", "type": "double"},
            {"name": "ts_ms", "type": "long"},
        ],
    }
)


def avro_positions(cfg: ClusterConfig) -> Callable[[dict], bytes] | None:
    """Truck positions as Avro through the cluster's registry; None without a registry."""
    if cfg.schema_registry is None:
        log.warning(
            "cluster %s has no Schema Registry: %s stays empty", cfg.name, TRUCKS_AVRO_TOPIC
        )
        return None
    serialize = dev.registry_serializer(cfg, "avro", TRUCK_POSITION_AVRO)
    return lambda position: serialize(position, TRUCKS_AVRO_TOPIC)


def alarm_event() -> dict:
    equipment = random.choice(EQUIPMENT)
    return {
        "equipment_id": equipment,
        "fault_code": random.choice(FAULT_CODES),
        "temperature_c": round(random.gauss(70, 12), 1),
        "pressure_bar": round(random.gauss(6, 1.5), 2),
        "ts_ms": int(time.time() * 1000),
    }


def _produce(cfg: ClusterConfig, stop: threading.Event, rates: Rates) -> None:
    producer = dev.make_producer(for_cluster(cfg), **{"acks": "all", "linger.ms": 20})
    as_avro = avro_positions(cfg)
    sequence = 0
    next_trucks = 0.0
    step = 0
    while not stop.is_set():
        now = time.monotonic()
        payload = {"seq": sequence, "ts_ms": int(time.time() * 1000)}
        producer.produce(FAILSAFE_TOPIC, key=str(sequence % 97), value=json.dumps(payload))
        sequence += 1
        if now >= next_trucks:
            for truck in range(TRUCK_COUNT):
                position = truck_position(truck, step)
                producer.produce(TRUCKS_TOPIC, key=position["truck_id"], value=json.dumps(position))
                if as_avro is not None:
                    try:
                        value = as_avro(position)
                    except Exception as exc:  # the registry is down: the JSON demo goes on
                        log.warning("%s: not written (%s)", TRUCKS_AVRO_TOPIC, exc)
                    else:
                        producer.produce(TRUCKS_AVRO_TOPIC, key=position["truck_id"], value=value)
            step += 1
            next_trucks = now + rates.truck_interval_s
        if random.random() < 0.05:
            alarm = alarm_event()
            producer.produce(ALARMS_TOPIC, key=alarm["equipment_id"], value=json.dumps(alarm))
        producer.poll(0)
        stop.wait(1.0 / rates.failsafe_per_s)
    producer.flush(10)


def _consume(cfg: ClusterConfig, member: int, stop: threading.Event, rates: Rates) -> None:
    consumer = dev.make_consumer(
        for_cluster(cfg),
        DEMO_GROUP,
        **{"client.id": f"mygroup-member-{member}", "auto.offset.reset": "earliest"},
    )
    consumer.subscribe([FAILSAFE_TOPIC])
    try:
        while not stop.is_set():
            message = consumer.poll(0.5)
            if message is not None and message.error() is None:
                stop.wait(1.0 / rates.consume_per_member_s)
    finally:
        consumer.close()


def run(cfg: ClusterConfig, stop: threading.Event, rates: Rates | None = None) -> None:
    """Write and consume until `stop` is set."""
    rates = rates or Rates()
    ensure_topics(cfg)
    threads = [threading.Thread(target=_produce, args=(cfg, stop, rates), daemon=True)]
    threads += [
        threading.Thread(target=_consume, args=(cfg, m, stop, rates), daemon=True)
        for m in range(1, 4)
    ]
    for thread in threads:
        thread.start()
    log.info("demo traffic running on cluster %s", cfg.name)
    for thread in threads:
        thread.join()

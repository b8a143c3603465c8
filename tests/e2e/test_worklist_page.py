"""The maintenance worklist in real Chromium against the dev stack's Kafka: predictions as a
score job writes them (with drivers and recent alarms) in a topic of their own, what happened
since in alarm and work-order topics of their own; the page ranks the equipment, says why and
what happened, and a crew's acknowledgement with a note is kept across a reload. (The score
job's own records, drivers included, are checked in tests/integration/test_pm_model.py.)"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import expect

from console.kafka import dev
from tests.e2e.conftest import login, screenshot
from tests.stack import cluster_client, log_ends

pytestmark = pytest.mark.e2e

DAY = datetime.now(UTC).date() - timedelta(days=2)
DAY_MS = int(datetime(DAY.year, DAY.month, DAY.day, 12, tzinfo=UTC).timestamp() * 1000)
HOUR_MS = 3600 * 1000
# (equipment, probability, drivers, recent alarms), deliberately not in rank order.
SCORES = [
    ("eq-0004", 0.12, [], []),
    (
        "eq-0001",
        0.91,
        [
            {"feature": "count_e303_vibration_7d", "value": 9.0, "weight": 0.81},
            {"feature": "max_vibration_7d", "value": 1.93, "weight": 0.37},
        ],
        [{"fault_code": "E303-VIBRATION", "count": 9, "days": 7}],
    ),
    (
        "eq-0003",
        0.47,
        [{"feature": "max_temperature_7d", "value": 96.5, "weight": 0.22}],
        [{"fault_code": "E101-OVERHEAT", "count": 3, "days": 7}],
    ),
    ("eq-0002", 0.66, [{"feature": "severity_sum_7d", "value": 31.0, "weight": 0.3}], []),
]


@pytest.fixture(scope="module")
def topics(stack) -> dict[str, str]:
    client = cluster_client()
    suffix = uuid.uuid4().hex[:8]
    names = {
        "topic": f"e2e-wl-predictions-{suffix}",
        "alarms_topic": f"e2e-wl-alarms-{suffix}",
        "work_orders_topic": f"e2e-wl-orders-{suffix}",
    }
    dev.create_topics(client, [(name, 1, 3, {}) for name in names.values()])
    log_ends(client, [(name, 0) for name in names.values()])  # leaders elected
    after = DAY_MS + 12 * HOUR_MS  # the scored day's next UTC midnight
    producer = dev.make_producer(client)
    records = [
        (
            names["topic"],
            {
                "equipment_id": eq,
                "day": DAY.isoformat(),
                "failure_probability": p,
                "model_id": 7,
                "scored_at": f"{DAY + timedelta(days=1)}T01:30:00Z",
                "drivers": drivers,
                "recent_alarms": alarms,
            },
            DAY_MS + 14 * HOUR_MS,
        )
        for eq, p, drivers, alarms in SCORES
    ]
    records += [
        # eq-0001 failed the day after; eq-0002 got a preventive work order.
        (
            names["alarms_topic"],
            {"equipment_id": "eq-0001", "fault_code": "FAILURE"},
            after + 5 * HOUR_MS,
        ),
        (
            names["work_orders_topic"],
            {"equipment_id": "eq-0002", "type": "preventive", "work_order_id": "wo-1"},
            after + 2 * HOUR_MS,
        ),
    ]
    for topic, value, ts in records:
        producer.produce(
            topic,
            key=value["equipment_id"].encode(),
            value=json.dumps(value).encode(),
            timestamp=ts,
        )
    assert producer.flush(30) == 0
    return names


def test_the_worklist_ranks_equipment_and_remembers_an_acknowledgement(page, topics):
    page.emulate_media(reduced_motion="reduce")
    login(page)
    query = "&".join(f"{k}={v}" for k, v in topics.items())
    page.goto(f"/maintenance/worklist?cluster=local&{query}")
    table = page.locator("[data-testid=worklist-table]")
    expect(table).to_be_visible()

    # Ranked by failure probability, highest first, with why and what happened since.
    rows = table.locator("tbody tr[data-testid^=worklist-row-]")
    expect(rows).to_have_count(4)
    ids = [r.get_attribute("data-testid") for r in rows.all()]
    assert ids == [f"worklist-row-eq-000{n}" for n in (1, 2, 3, 4)], ids
    expect(page.locator("[data-testid=worklist-probability-eq-0001]")).to_contain_text("91")
    drivers = page.locator("[data-testid=worklist-drivers-eq-0001]")
    expect(drivers).to_contain_text("count_e303_vibration_7d")
    expect(drivers).to_contain_text("max_vibration_7d")
    expect(page.locator("[data-testid=worklist-alarms-eq-0001]")).to_contain_text("E303-VIBRATION")
    failed = page.locator("[data-testid=worklist-outcome-eq-0001]")
    expect(failed).to_have_attribute("data-outcome", "failure")
    expect(failed).to_contain_text("FAILURE")
    ordered = page.locator("[data-testid=worklist-outcome-eq-0002]")
    expect(ordered).to_have_attribute("data-outcome", "work_order")
    expect(ordered).to_contain_text("preventive")
    expect(page.locator("[data-testid=worklist-outcome-eq-0003]")).to_have_attribute(
        "data-outcome", "none"
    )
    screenshot(page, "worklist")

    # A crew acknowledges the second one with a note; the list keeps it, also after a reload.
    row = page.locator("[data-testid=worklist-row-eq-0002]")
    expect(row).to_have_attribute("data-status", "open")
    page.click("[data-testid=worklist-mark-eq-0002]")
    page.select_option("[data-testid=worklist-mark-status]", "acknowledged")
    page.fill("[data-testid=worklist-mark-note]", "crew booked for Monday")
    screenshot(page, "worklist-mark")
    page.click("[data-testid=worklist-mark-confirm]")
    expect(row).to_have_attribute("data-status", "acknowledged")
    expect(page.locator("[data-testid=worklist-note-eq-0002]")).to_contain_text(
        "crew booked for Monday"
    )
    page.reload()
    expect(page.locator("[data-testid=worklist-row-eq-0002]")).to_have_attribute(
        "data-status", "acknowledged"
    )
    expect(page.locator("[data-testid=worklist-note-eq-0002]")).to_contain_text(
        "crew booked for Monday"
    )

    # Dismissed items leave the default view and come back under "All".
    page.click("[data-testid=worklist-mark-eq-0004]")
    page.select_option("[data-testid=worklist-mark-status]", "dismissed")
    page.fill("[data-testid=worklist-mark-note]", "sensor fault, not the pump")
    page.click("[data-testid=worklist-mark-confirm]")
    expect(page.locator("[data-testid=worklist-row-eq-0004]")).to_have_count(0)
    page.select_option("[data-testid=worklist-filter]", "all")
    expect(page.locator("[data-testid=worklist-row-eq-0004]")).to_have_attribute(
        "data-status", "dismissed"
    )
    screenshot(page, "worklist-marked")

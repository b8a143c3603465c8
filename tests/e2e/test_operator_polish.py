"""Operators' rough edges, in real Chromium: topic configs in human units with the defaults folded
away, the API docs in the menu, and forms that show every error at once beside its field in
plain words, date-times read in an explicit zone on the locale's clock."""

import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import api_call, api_create_topic, login, screenshot
from tests.live_server import ADMIN
from tests.stack import cluster_client, commit_and_wait, filled_topic

pytestmark = pytest.mark.e2e

# A field path in front of a message ("params.topic: ...", "params.features.x: ...").
PATH_PREFIX = re.compile(r"\b(params|strategy|scope|configs)\.[a-z_]")


@pytest.fixture
def config_topic(live_console_server):
    """A topic with a few overrides set on it, deleted afterwards."""
    topic = f"e2e-configs-{uuid.uuid4().hex[:8]}"
    token = live_console_server.token(ADMIN[0], "admin")
    status, created = api_create_topic(
        live_console_server,
        token,
        topic,
        {"retention.ms": "5400000", "max.message.bytes": "1048576", "retention.bytes": "-1"},
    )
    assert status == 201, created
    yield topic
    api_call(live_console_server, token, "DELETE", f"clusters/local/topics/{topic}")


@pytest.fixture
def idle_group(stack):
    """A consumer group with committed offsets on a fresh topic (the reset wizard's page)."""
    client = cluster_client()
    topic = f"e2e-{uuid.uuid4().hex[:8]}"
    filled_topic(client, topic, partitions=1, replication=1, records=5)
    group = f"e2e-polish-{uuid.uuid4().hex[:6]}"
    commit_and_wait(client, group, {(topic, 0): 3})
    return topic, group


def test_topic_configs_read_in_human_units_overrides_first(page, config_topic):
    login(page)
    page.goto(f"/clusters/local/topics/{config_topic}")
    expect(page.locator("[data-testid=configs-table]")).to_be_visible()

    # What is set on the topic comes first, in human units, the raw value beside and as tooltip.
    retention = page.locator("[data-testid='config-row-retention.ms']")
    expect(retention).to_be_visible()
    expect(retention).to_have_attribute("data-override", "true")
    expect(page.locator("[data-testid='config-human-retention.ms']")).to_have_text("1 h 30 min")
    expect(page.locator("[data-testid='config-raw-retention.ms']")).to_have_text("5400000")
    expect(page.locator("[data-testid='config-value-retention.ms']")).to_have_attribute(
        "title", "raw value: 5400000"
    )
    expect(page.locator("[data-testid='config-human-max.message.bytes']")).to_have_text("1 MiB")
    expect(page.locator("[data-testid='config-human-retention.bytes']")).to_have_text("unlimited")
    expect(page.locator("[data-testid='config-source-retention.ms']")).to_have_text("set on topic")

    # The inherited values are folded away behind "Show N defaults".
    expect(page.locator("[data-testid='config-row-cleanup.policy']")).to_have_count(0)
    toggle = page.locator("[data-testid=config-defaults-toggle]")
    expect(toggle).to_have_text(re.compile(r"^Show \d+ defaults$"))
    expect(toggle).to_have_attribute("aria-expanded", "false")
    screenshot(page, "topic-configs-overrides")

    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    cleanup = page.locator("[data-testid='config-row-cleanup.policy']")
    expect(cleanup).to_be_visible()
    expect(page.locator("[data-testid='config-source-cleanup.policy']")).to_have_text(
        re.compile(r"^(Kafka default|broker default.*)$")
    )
    expect(page.locator("[data-testid='config-human-segment.bytes']")).to_have_text(
        re.compile(r"^(≈ )?\d+(\.\d+)? (B|KiB|MiB|GiB)$")
    )
    expect(page.locator("[data-testid='config-human-segment.ms']")).to_have_text(
        re.compile(r"^\d[\d,]* (d|h|min|s|ms)( \d+ (h|min|s|ms))*$")
    )
    # Every override is above every default.
    flags = [
        row.get_attribute("data-override")
        for row in page.locator("[data-testid^=config-row-]").all()
    ]
    assert "false" in flags and flags == sorted(flags, key=lambda o: o != "true"), flags
    screenshot(page, "topic-configs-defaults")

    # An edit takes the raw value, and says what it means as it is typed.
    page.click("[data-testid='config-edit-retention.ms']")
    value = page.locator("[data-testid='config-input-retention.ms']")
    expect(value).to_have_value("5400000")
    value.fill("3600000")
    expect(page.locator("[data-testid='config-input-hint-retention.ms']")).to_have_text("= 1 h")
    screenshot(page, "topic-configs-edit")
    page.click("[data-testid='config-save-retention.ms']")
    expect(page.locator("[data-testid=config-saved]")).to_contain_text(
        "retention.ms set to 3600000."
    )
    expect(page.locator("[data-testid='config-human-retention.ms']")).to_have_text("1 h")


def test_the_menu_links_the_api_docs(page):
    login(page)
    page.goto("/clusters/local/topics")
    link = page.locator("[data-testid=nav-api-docs]")
    expect(link).to_be_visible()
    expect(link).to_have_attribute("href", "/api/v1/docs/")
    expect(link).to_have_attribute("target", "_blank")
    screenshot(page, "menu-api-docs")

    with page.context.expect_page() as opened:
        link.click()
    docs = opened.value
    docs.wait_for_load_state()
    assert docs.url.endswith("/api/v1/docs/"), docs.url
    # The server's Swagger UI (not a page of the app), signed in by the same session.
    expect(docs.locator(".swagger-ui .info")).to_contain_text("Kafka Console API", timeout=30_000)
    expect(docs.locator("[data-testid=current-user]")).to_have_count(0)
    screenshot(docs, "api-docs")
    # The console stayed where it was.
    assert page.url.endswith("/clusters/local/topics"), page.url


def test_create_topic_shows_every_error_at_once_beside_its_field(page):
    login(page)
    page.goto("/clusters/local/create-topic")
    page.fill("[data-testid=create-name]", "bad name!")
    page.fill("[data-testid=create-partitions]", "0")
    page.click("[data-testid=create-config-add]")
    page.fill("[data-testid=create-config-key-0]", "retention.ms")
    page.fill("[data-testid=create-config-value-0]", "604800000")
    expect(page.locator("[data-testid=create-config-hint-0]")).to_have_text("= 7 d")
    page.click("[data-testid=create-config-add]")
    page.fill("[data-testid=create-config-key-1]", "retention.ms")
    page.fill("[data-testid=create-config-value-1]", "-1")
    page.click("[data-testid=create-submit]")

    expect(page.locator("[data-testid=field-error-name]")).to_contain_text("characters")
    expect(page.locator("[data-testid=field-error-partitions]")).to_contain_text("at least 1")
    expect(page.locator("[data-testid=field-error-config-1]")).to_contain_text("already set")
    expect(page.locator("[data-testid=error-banner]")).to_have_count(0)
    form = page.locator("[data-testid=create-topic-form]")
    assert not PATH_PREFIX.search(form.inner_text())
    screenshot(page, "create-topic-every-error")


def test_spark_forms_show_errors_beside_their_fields_in_plain_words(page):
    login(page)
    page.goto("/spark/new?type=topic-profile")
    form = page.locator("[data-testid=spark-form-topic-profile]")
    expect(form).to_be_visible()
    expect(page.locator("[data-testid=spark-cluster]")).to_have_value("local")

    # Checked in the browser (the CSP allows no compiled validator): every problem at once.
    page.fill("[data-testid=param-topic]", "bad topic!")
    page.fill("#root_top_duplicates", "5000")
    page.click("[data-testid=spark-submit]")
    expect(page.locator("[data-testid=field-error-topic]")).to_contain_text("Use only letters")
    expect(page.locator("[data-testid=field-error-top_duplicates]")).to_have_text(
        "Must be at most 1000."
    )
    screenshot(page, "spark-form-every-error")

    # Refused by the server (no such topic): beside the field, without "params.topic:".
    page.fill("[data-testid=param-topic]", f"e2e-missing-{uuid.uuid4().hex[:8]}")
    page.fill("#root_top_duplicates", "20")
    page.click("[data-testid=spark-submit]")
    error = page.locator("[data-testid=field-error-topic]")
    expect(error).to_contain_text("does not exist")
    expect(error).to_have_text(re.compile(r"^Topic "))
    assert not PATH_PREFIX.search(form.inner_text())
    expect(page.locator("[data-testid=error-banner]")).to_have_count(0)

    # A date-time param is read in the zone shown beside it and sent with its offset.
    expect(page.locator("[data-testid=param-start_time-zone]")).to_have_value("UTC")
    page.fill("[data-testid=param-start_time]", "2026-05-01 18:30")
    expect(page.locator("[data-testid=param-start_time-sends]")).to_contain_text(
        "2026-05-01T18:30:00.000Z"
    )
    screenshot(page, "spark-form-date-time")


def test_maintenance_form_shows_each_steps_errors_beside_their_fields(page):
    login(page)
    page.goto("/maintenance")
    expect(page.locator("[data-testid=maintenance-page]")).to_be_visible()
    # Folded when a run exists (an earlier test may have run the pipeline): unfold it. Only
    # once the page knows (the latest run, or none, shown): it opens the form by itself when
    # there is none, and a click just before that would fold it again.
    page.locator("[data-testid=pm-no-run], [data-testid=pm-run]").first.wait_for()
    details = page.locator("[data-testid=pm-run-form]")
    if details.get_attribute("open") is None:
        page.click("[data-testid=pm-run-toggle]")
    form = page.locator("[data-testid=spark-form-maintenance-pipeline]")
    expect(form).to_be_visible()
    expect(page.locator("[data-testid=spark-cluster]")).to_have_value("local")
    page.fill("#root_training_cutoff_date", "June 8")
    page.fill("#root_labels_horizon_days", "0")
    page.click("[data-testid=spark-submit]")
    expect(page.locator("[data-testid='field-error-training.cutoff_date']")).to_contain_text(
        "YYYY-MM-DD"
    )
    expect(page.locator("[data-testid='field-error-labels.horizon_days']")).to_contain_text(
        "at least 1"
    )
    assert not PATH_PREFIX.search(form.inner_text())
    expect(page.locator("[data-testid='param-features_start_time-zone']")).to_have_value("UTC")
    screenshot(page, "maintenance-form-errors")


def test_reset_wizard_date_time_in_an_explicit_zone_on_the_locales_clock(
    browser, live_console, page, idle_group
):
    topic, group = idle_group
    # en-US (Chromium's default here) asks for a 12-hour clock.
    login(page)
    page.goto(f"/clusters/local/groups/{group}")
    page.click("[data-testid=reset-open]")
    page.select_option("[data-testid=strategy-select]", "to_datetime")
    datetime = page.locator("[data-testid=strategy-datetime]")
    cycle = datetime.get_attribute("data-hour-cycle")
    assert cycle in ("h12", "h23"), cycle
    expect(datetime).to_have_attribute(
        "placeholder", "YYYY-MM-DD hh:mm:ss AM" if cycle == "h12" else "YYYY-MM-DD HH:mm:ss"
    )
    expect(page.locator("[data-testid=strategy-datetime-zone]")).to_have_text("UTC")
    datetime.fill("2026-07-01 13:30")
    expect(page.locator("[data-testid=strategy-iso]")).to_have_text("2026-07-01T13:30:00.000Z")
    page.select_option("[data-testid=strategy-tz]", "+05:30")
    expect(page.locator("[data-testid=strategy-datetime-zone]")).to_have_text("UTC+05:30")
    expect(page.locator("[data-testid=strategy-iso]")).to_have_text("2026-07-01T13:30:00.000+05:30")
    screenshot(page, f"reset-datetime-{cycle}")

    # A locale with a 24-hour clock gets one.
    context = browser.new_context(
        base_url=live_console, viewport={"width": 1280, "height": 800}, locale="en-GB"
    )
    try:
        gb = context.new_page()
        gb.set_default_timeout(20_000)
        login(gb)
        gb.goto(f"/clusters/local/groups/{group}")
        gb.click("[data-testid=reset-open]")
        gb.select_option("[data-testid=strategy-select]", "to_datetime")
        field = gb.locator("[data-testid=strategy-datetime]")
        expect(field).to_have_attribute("data-hour-cycle", "h23")
        gb.click("[data-testid=datetime-now]")
        expect(field).to_have_value(re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{3})?$"))
        expect(gb.locator("[data-testid=strategy-utc]")).not_to_contain_text(" PM ")
        screenshot(gb, "reset-datetime-h23")
    finally:
        context.close()

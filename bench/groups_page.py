"""Benchmark: the consumer groups page at N groups, its list API and the page in headless Chromium.

    .venv/bin/python bench/groups_page.py [--groups 2000] [--topics 200] [--partitions 10]
        [--runs 15] [--page-runs 5] [--interval 5] [--keep]
    .venv/bin/python bench/groups_page.py --groups 20000 --topics 10000 --partitions 2

Creates the topics (replication factor 1), writes three records per partition and commits an
offset for every group on every partition of one topic (bench/_harness.py; `--keep` leaves
them, a rerun reuses and tops them up). Starts a real console (daphne, its own SQLite file)
and one lag sampler of `local` (`manage.py lagsampler --interval <interval>`) with
tests/live_server.py, waits until the list API answers from a pass holding every group of
the benchmark, then measures:

- `GET /api/v1/clusters/local/groups` through daphne with a viewer's token (`--runs` requests
  after one untimed): from the sampler's latest pass (the default while a sampler holds the
  cluster's lease and its last pass is at most two intervals old; each answer is checked to
  be the pass's: its rows were sampled before the request) and with `?fresh=true` (a read of
  Kafka); the time is the request until its whole body is in; the body's bytes.
- The groups page in headless Chromium (Debian's, as tests/e2e runs it; signed in once with
  the e2e admin, each run a new browser context with that session, so no HTTP cache):
  `/clusters/local/groups?search=<prefix>` (the benchmark's groups only, whatever else the
  cluster holds; the page still loads every group and filters in the browser). Time from
  navigation start to the first row of the benchmark's groups painted (a MutationObserver
  sees it enter the DOM; painted = the animation frame after that, then a task), first
  contentful paint, and network idle (the end of the last response; Playwright's
  `networkidle`, no request for 500 ms, has returned).
- After the load, in the same page: typing the id of one group in the search box until the
  table shows that one row; back to the prefix until all rows show again; a click on the
  Group column's header (descending) until the first row is the last group, and again
  (ascending) until it is the first; each from the input or click event (in the page) to
  the frame after the table shows it. Scrolling: the table's scroll box from top to bottom
  in 120 animation frames (a jump of 1/120 of the list each frame), the frame times.
- The page's JS heap (CDP `Runtime.getHeapUsage`: after the load, after the interactions,
  after a forced garbage collection) and its DOM: group rows rendered (the table is
  virtualized above 200 rows), table rows, elements.

Prints one JSON document: every figure, the sampler's passes seen meanwhile, whether our
sampler held the cluster's lease, and the machine's load average at start and end.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from _harness import (
    add_layout_args,
    commit_group_offsets,
    delete_groups,
    load_average,
    make_topics_with_records,
    percentiles,
    setup_django,
)

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

PREFIX = "bench-page-"
CLUSTER = "local"
VIEWPORT: ViewportSize = {"width": 1280, "height": 800}
SCROLL_FRAMES = 120
LIST_PATH = f"/api/v1/clusters/{CLUSTER}/groups"

# Before any script of the page: when the first row of the benchmark's groups enters the DOM,
# and the frame that paints it.
INIT_JS = """
(() => {
  const bench = { results: {} };
  window.__bench = bench;
  const selector = '[data-testid^="group-row-__PREFIX__"]';
  const observer = new MutationObserver(() => {
    if (bench.firstRowDom !== undefined || !document.querySelector(selector)) return;
    bench.firstRowDom = performance.now();
    observer.disconnect();
    requestAnimationFrame(() => {
      bench.firstRowFrame = performance.now();
      setTimeout(() => { bench.firstRowPainted = performance.now(); }, 0);
    });
  });
  observer.observe(document, { childList: true, subtree: true });
})();
"""

# What the load took, from the page's own clocks (ms since navigation start).
LOAD_JS = """
() => {
  const bench = window.__bench;
  const nav = performance.getEntriesByType("navigation")[0];
  const resources = performance.getEntriesByType("resource");
  const api = resources.find((r) => new URL(r.name).pathname === "__LIST_PATH__");
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  const ends = resources.map((r) => r.responseEnd).concat([nav.responseEnd, nav.loadEventEnd]);
  return {
    first_row_dom_ms: bench.firstRowDom,
    first_row_painted_ms: bench.firstRowPainted,
    first_contentful_paint_ms: fcp ? fcp.startTime : null,
    dom_content_loaded_ms: nav.domContentLoadedEventEnd,
    load_event_ms: nav.loadEventEnd,
    network_idle_ms: Math.max(...ends),
    requests: resources.length + 1,
    transferred_bytes: resources.reduce((s, r) => s + r.transferSize, nav.transferSize),
    list_request: api ? {
      start_ms: api.startTime,
      end_ms: api.responseEnd,
      duration_ms: api.duration,
      waiting_ms: api.responseStart - api.requestStart,
      body_bytes: api.decodedBodySize,
    } : null,
  };
}
"""

# Arms one measurement: on the next `eventType` event (capture, before React sees it), the
# time; then, at each DOM change, whether the table shows `first` as its first group row and
# one row (`single`) or several; when it does, that time, the next frame's, and after it.
ARM_JS = """
([kind, eventType, first, single]) => {
  const result = {};
  window.__bench.results[kind] = result;
  const rows = () => document.querySelectorAll(
    '[data-testid="groups-table"] tbody tr[data-testid^="group-row-"]');
  const shows = () => {
    const found = rows();
    return found.length > 0 && found[0].getAttribute("data-testid") === "group-row-" + first
      && (single ? found.length === 1 : found.length > 1);
  };
  const onEvent = () => {
    document.removeEventListener(eventType, onEvent, true);
    result.start = performance.now();
    const observer = new MutationObserver(() => {
      if (result.dom !== undefined || !shows()) return;
      result.dom = performance.now();
      observer.disconnect();
      requestAnimationFrame(() => {
        result.frame = performance.now();
        setTimeout(() => { result.painted = performance.now(); }, 0);
      });
    });
    observer.observe(document.body, { childList: true, subtree: true, attributes: true });
  };
  document.addEventListener(eventType, onEvent, true);
}
"""

# The scroll box from top to bottom in `frames` animation frames; each frame's time.
SCROLL_JS = """
async (frames) => {
  const box = document.querySelector('[data-testid="groups-scroll"]');
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  box.scrollTop = 0;
  await frame();
  await frame();
  const max = box.scrollHeight - box.clientHeight;
  const gaps = [];
  let last = await frame();
  for (let i = 1; i <= frames; i++) {
    box.scrollTop = Math.round((max * i) / frames);
    const now = await frame();
    gaps.push(now - last);
    last = now;
  }
  await frame();
  await frame();
  const shown = [...box.querySelectorAll('tr[data-testid^="group-row-"]')];
  const lastRow = shown.length ? shown[shown.length - 1].getAttribute("data-testid") : null;
  box.scrollTop = 0;
  await frame();
  return { gaps, scroll_px: max, rows_at_bottom: shown.length, last_row: lastRow };
}
"""

DOM_JS = """
() => ({
  group_rows: document.querySelectorAll(
    '[data-testid="groups-table"] tbody tr[data-testid^="group-row-"]').length,
  table_rows: document.querySelectorAll('[data-testid="groups-table"] tr').length,
  elements: document.getElementsByTagName("*").length,
})
"""


def progress(text: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {text}", file=sys.stderr, flush=True)


def p50_max(values: list[float], unit: str = "ms") -> dict[str, Any]:
    return {
        "n": len(values),
        f"p50_{unit}": round(statistics.median(values), 1),
        f"max_{unit}": round(max(values), 1),
        f"runs_{unit}": [round(v, 1) for v in values],
    }


def epoch(iso_ts: str) -> float:
    return datetime.fromisoformat(iso_ts).timestamp()


# --- the cluster's topics and groups ---------------------------------------------------------


def make_layout(admin: Any, topics: list[str], groups: list[str], partitions: int) -> None:
    """The topics (those missing), three records per partition (topped up), the commits."""
    make_topics_with_records(admin, topics, partitions)
    commit_group_offsets(admin, groups, topics, partitions)


def remove_layout(admin: Any, topics: list[str], groups: list[str]) -> None:
    delete_groups(admin, groups)
    for i in range(0, len(topics), 500):
        admin.delete_topics(topics[i : i + 500])


# --- the API through daphne ------------------------------------------------------------------


class Api:
    """`GET /api/v1/clusters/local/groups` with a token, timed to its whole body."""

    def __init__(self, base: str, token: str, groups: list[str]):
        import requests

        self.session = requests.Session()
        self.session.trust_env = False  # no proxy between this and 127.0.0.1
        self.session.headers["Authorization"] = f"Token {token}"
        self.base = base
        self.groups = set(groups)

    def get(self, query: str = "") -> tuple[float, bool, int, list[dict[str, Any]], Any]:
        """(seconds, answered from a pass, body bytes, the benchmark's rows, response)."""
        started = time.time()
        t0 = time.perf_counter()
        response = self.session.get(f"{self.base}{LIST_PATH}{query}", timeout=600)
        elapsed = time.perf_counter() - t0
        assert response.status_code == 200, response.content[:300]
        mine = [g for g in response.json() if g["group_id"] in self.groups]
        # A pass's rows carry its time, before the request; a live read's, the read's.
        from_pass = bool(mine) and all(
            g["sampled_at"] is not None and epoch(g["sampled_at"]) < started for g in mine
        )
        return elapsed, from_pass, len(response.content), mine, response

    def complete(self, rows: list[dict[str, Any]]) -> bool:
        return len(rows) == len(self.groups) and all(g["total_lag"] is not None for g in rows)

    def timed(self, query: str, runs: int) -> dict[str, Any]:
        self.get(query)  # untimed
        samples, from_pass, complete = [], 0, 0
        size, total_rows, encoding = 0, 0, None
        for _ in range(runs):
            elapsed, passed, size, mine, response = self.get(query)
            samples.append(elapsed)
            from_pass += passed
            complete += self.complete(mine)
            total_rows = len(response.json())
            encoding = response.headers.get("Content-Encoding")
        return {
            **percentiles(samples),
            "max_ms": round(max(samples) * 1000, 1),
            "answered_from_a_pass": from_pass,
            "answers_with_every_group": complete,
            "response_bytes": size,
            "content_encoding": encoding,
            "rows_in_answer": total_rows,
        }


class PassWatch(threading.Thread):
    """Polls the sampler's record of its last pass (Redis) and the lease's holder."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.passes: dict[float, dict[str, Any]] = {}
        self.holders: set[str | None] = set()  # while `measuring`
        self.measuring = False
        self.stopped = threading.Event()

    def run(self) -> None:
        from groups.lag import store

        while not self.stopped.wait(0.5):
            try:
                meta = store.read_meta(CLUSTER) or {}
                if self.measuring:
                    self.holders.add(store.lease_holder(CLUSTER))
            except Exception:  # noqa: BLE001 (a missed poll; the next one comes)
                continue
            if meta.get("ts") is not None:
                self.passes[float(meta["ts"])] = meta

    def summary(self, since: float) -> dict[str, Any]:
        seen = [m for ts, m in sorted(self.passes.items()) if ts >= since]
        ok = [m for m in seen if m.get("ok")]
        return {
            "passes": len(seen),
            "failed": len(seen) - len(ok),
            "duration": percentiles([float(m.get("duration_s") or 0) for m in ok]) if ok else None,
            "groups_sampled": max((int(m.get("groups") or 0) for m in ok), default=None),
            "partitions_sampled": max((int(m.get("partitions") or 0) for m in ok), default=None),
        }


# --- the page in Chromium --------------------------------------------------------------------


def page_run(browser: Any, base: str, state: Any, groups: list[str], timeout_ms: int) -> dict:
    """One load of the page in a new context (signed in, no cache), then the interactions."""
    context = browser.new_context(base_url=base, viewport=VIEWPORT, storage_state=state)
    try:
        context.add_init_script(INIT_JS.replace("__PREFIX__", PREFIX))
        page = context.new_page()
        page.set_default_timeout(timeout_ms)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)[:200]))
        cdp = context.new_cdp_session(page)
        t0 = time.perf_counter()
        page.goto(f"/clusters/{CLUSTER}/groups?search={PREFIX}", wait_until="networkidle")
        goto_s = time.perf_counter() - t0
        page.wait_for_function("() => window.__bench.firstRowPainted !== undefined")
        page.locator(f'[data-testid="group-row-{groups[0]}"]').wait_for(state="visible")
        load = page.evaluate(LOAD_JS.replace("__LIST_PATH__", LIST_PATH))
        heap_load = cdp.send("Runtime.getHeapUsage")["usedSize"]
        dom_load = page.evaluate(DOM_JS)

        def measure(kind: str, event: str, first: str, single: bool, action: Any) -> float:
            page.evaluate(ARM_JS, [kind, event, first, single])
            action()
            page.wait_for_function("k => window.__bench.results[k].painted !== undefined", arg=kind)
            result = page.evaluate("k => window.__bench.results[k]", kind)
            return float(result["painted"] - result["start"])

        search = page.get_by_test_id("group-search")
        target = groups[len(groups) // 2]
        header = page.get_by_test_id("sort-group_id")
        timings = {
            "filter_to_one_group_ms": measure(
                "filter", "input", target, True, lambda: search.fill(target)
            ),
            "filter_back_to_all_ms": measure(
                "unfilter", "input", groups[0], False, lambda: search.fill(PREFIX)
            ),
            "sort_descending_ms": measure(
                "sort_desc", "click", groups[-1], False, lambda: header.click()
            ),
            "sort_ascending_ms": measure(
                "sort_asc", "click", groups[0], False, lambda: header.click()
            ),
        }
        scroll = page.evaluate(SCROLL_JS, SCROLL_FRAMES)
        dom_after = page.evaluate(DOM_JS)
        heap_after = cdp.send("Runtime.getHeapUsage")["usedSize"]
        cdp.send("HeapProfiler.collectGarbage")
        heap_gc = cdp.send("Runtime.getHeapUsage")["usedSize"]
        return {
            **load,
            "goto_networkidle_s": round(goto_s, 2),
            **timings,
            "scroll": scroll,
            "heap_mb": {
                "after_load": round(heap_load / 2**20, 1),
                "after_interactions": round(heap_after / 2**20, 1),
                "after_gc": round(heap_gc / 2**20, 1),
            },
            "dom_after_load": dom_load,
            "dom_after_interactions": dom_after,
            "page_errors": errors,
        }
    finally:
        context.close()


def page_report(runs: list[dict], groups: list[str]) -> dict[str, Any]:
    def figure(name: str) -> dict[str, Any]:
        return p50_max([float(r[name]) for r in runs])

    gaps = [g for r in runs for g in r["scroll"]["gaps"]]
    ordered = sorted(gaps)
    lists = [r["list_request"] for r in runs if r["list_request"]]
    return {
        "runs": len(runs),
        "time_to_first_rows": figure("first_row_painted_ms"),
        "first_row_in_dom": figure("first_row_dom_ms"),
        "first_contentful_paint": figure("first_contentful_paint_ms"),
        "network_idle": figure("network_idle_ms"),
        "list_request_in_page": {
            "started": p50_max([float(x["start_ms"]) for x in lists]),
            "duration": p50_max([float(x["duration_ms"]) for x in lists]),
            "waiting_for_first_byte": p50_max([float(x["waiting_ms"]) for x in lists]),
            "body_bytes": lists[-1]["body_bytes"] if lists else None,
        },
        "requests": runs[-1]["requests"],
        "transferred_bytes": runs[-1]["transferred_bytes"],
        "filter_to_one_group": figure("filter_to_one_group_ms"),
        "filter_back_to_all": figure("filter_back_to_all_ms"),
        "sort_descending": figure("sort_descending_ms"),
        "sort_ascending": figure("sort_ascending_ms"),
        "scroll": {
            "frames": len(gaps),
            "scroll_px": runs[-1]["scroll"]["scroll_px"],
            "frame_p50_ms": round(statistics.median(ordered), 1),
            "frame_p95_ms": round(ordered[max(0, round(0.95 * len(ordered)) - 1)], 1),
            "frame_max_ms": round(ordered[-1], 1),
            "frames_over_50_ms": sum(g > 50 for g in gaps),
            "rows_at_bottom": runs[-1]["scroll"]["rows_at_bottom"],
            "last_group_shown_at_bottom": all(
                r["scroll"]["last_row"] == f"group-row-{groups[-1]}" for r in runs
            ),
        },
        "js_heap_used_mb": {
            name: p50_max([float(r["heap_mb"][name]) for r in runs], "mb")
            for name in ("after_load", "after_interactions", "after_gc")
        },
        "dom_after_load": runs[-1]["dom_after_load"],
        "dom_after_interactions": runs[-1]["dom_after_interactions"],
        "goto_networkidle_s": [r["goto_networkidle_s"] for r in runs],
        "page_errors": [e for r in runs for e in r["page_errors"]][:5],
    }


def measure_page(base: str, groups: list[str], page_runs: int, timeout_ms: int) -> dict:
    from playwright.sync_api import sync_playwright

    from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, login

    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: bin/setup installs Debian's chromium"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            context = browser.new_context(base_url=base, viewport=VIEWPORT)
            page = context.new_page()
            page.set_default_timeout(60_000)
            login(page)
            state = context.storage_state()
            context.close()
            runs = []
            for i in range(page_runs):
                runs.append(page_run(browser, base, state, groups, timeout_ms))
                progress(
                    f"page run {i + 1}: first rows {runs[-1]['first_row_painted_ms']:.0f} ms, "
                    f"network idle {runs[-1]['network_idle_ms']:.0f} ms"
                )
            version = browser.version
        finally:
            browser.close()
    return {"chromium": version, **page_report(runs, groups)}


# --- the run ---------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser()
    add_layout_args(parser, topics=200, partitions=10, groups=2000)
    parser.add_argument("--runs", type=int, default=15, help="API requests of each kind")
    parser.add_argument("--page-runs", type=int, default=5, help="loads of the page")
    parser.add_argument("--interval", type=float, default=5.0, help="the sampler's interval, s")
    parser.add_argument("--keep", action="store_true", help="leave the topics and groups")
    args = parser.parse_args()
    if not 2 <= args.groups <= 99_999:
        parser.error("--groups: from 2 to 99,999")
    load0 = load_average()
    os.environ["LAG_SAMPLE_SECONDS"] = str(args.interval)
    setup_django()
    from console import kafka
    from console.clusters import get_cluster
    from tests.live_server import start_console, start_sampler, stop_process

    admin = kafka.for_cluster(get_cluster(CLUSTER), timeout=120)  # bulk setup takes longer
    topics = [f"{PREFIX}t{i:05d}" for i in range(args.topics)]
    groups = [f"{PREFIX}g{i:05d}" for i in range(args.groups)]
    workdir = Path(tempfile.mkdtemp(prefix="bench-groups-page-"))
    console = sampler = watch = None
    failed = True
    try:
        started = time.perf_counter()
        progress(f"{args.topics} topics, {args.groups} groups on {CLUSTER}")
        make_layout(admin, topics, groups, args.partitions)
        setup_s = time.perf_counter() - started

        console = start_console(workdir)
        progress(f"console at {console.base}, logs in {workdir}")
        sampler = start_sampler(console.env, workdir / "sampler.log", args.interval, CLUSTER)
        watch = PassWatch()
        watch.start()
        api = Api(console.base, console.token("bench-page-viewer", "viewer"), groups)

        # The sampler's pass with every group of the benchmark, as the list answers it.
        sampler_started = time.time()
        deadline = time.monotonic() + max(300.0, args.groups / 20)
        while True:
            _, from_pass, _, mine, _ = api.get()
            if from_pass and api.complete(mine):
                break
            if time.monotonic() > deadline or sampler.poll() is not None:
                raise SystemExit(f"no pass with every group; see {workdir / 'sampler.log'}")
            time.sleep(1.0)
        wait_s = time.time() - sampler_started
        progress(f"the list answers from a pass with all {args.groups} groups ({wait_s:.0f} s)")

        measured_from = time.time()
        watch.measuring = True
        from_pass_api = api.timed("", args.runs)
        fresh_api = api.timed("?fresh=true", args.runs)
        progress(
            f"API p50: from the pass {from_pass_api['p50_ms']} ms, "
            f"fresh {fresh_api['p50_ms']} ms; the page"
        )
        timeout_ms = int(max(60_000, args.groups * 10))
        page = measure_page(console.base, groups, args.page_runs, timeout_ms)
        watch.measuring = False
        first_line = (workdir / "sampler.log").read_text().split("\n", 1)[0]
        owner = first_line.removeprefix("lagsampler ").split(": ", 1)[0]
        watch.stopped.set()
        report = {
            "groups": args.groups,
            "topics": args.topics,
            "partitions": args.topics * args.partitions,
            "committed_partitions": args.groups * args.partitions,
            "setup_seconds": round(setup_s, 1),
            "sampler_interval_s": args.interval,
            "wait_for_a_pass_with_every_group_s": round(wait_s, 1),
            "api_list_groups_from_the_sampler_pass": from_pass_api,
            "api_list_groups_fresh": fresh_api,
            "ratio_fresh_over_pass_p50": round(fresh_api["p50_ms"] / from_pass_api["p50_ms"], 1),
            "page": page,
            "sampler_passes_while_measuring": watch.summary(measured_from),
            "sampler": owner,
            "our_sampler_held_the_lease": watch.holders == {owner},
            "lease_holders_seen": sorted(h or "(none)" for h in watch.holders),
            "machine_cores": os.cpu_count(),
            "load_average_1_5_15": {"start": load0, "end": load_average()},
        }
        failed = False
    finally:
        if watch is not None:
            watch.stopped.set()
        if sampler is not None:
            stop_process(sampler)
        if console is not None:
            console.stop()
        if not args.keep:
            progress("deleting the benchmark's groups and topics")
            remove_layout(admin, topics, groups)
        if failed:
            print(f"logs kept in {workdir}", file=sys.stderr)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()

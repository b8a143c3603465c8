"""Pid files, liveness and port reservation helpers."""

import os
import subprocess
import sys
import time

from devtools.devstack import procs


def test_pid_file_round_trip(tmp_path):
    f = tmp_path / "x" / "p.pid"
    assert procs.read_pid(f) is None
    procs.write_pid(f, 1234)
    assert procs.read_pid(f) == 1234
    f.write_text("garbage")
    assert procs.read_pid(f) is None


def test_liveness_and_markers(tmp_path):
    assert procs.is_alive(os.getpid())
    assert procs.matches(os.getpid(), ["python"])
    assert not procs.matches(os.getpid(), ["python", "no-such-marker-xyz"])
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert not procs.is_alive(child.pid)


def test_stop_many_only_signals_our_processes(tmp_path):
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "marker-1"])
    # Until the child has exec'd, /proc shows the parent's command line (no marker): on a busy
    # machine stop_many then rightly took it for another process.
    deadline = time.monotonic() + 10
    while "marker-1" not in procs.cmdline(sleeper.pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    ours, foreign = tmp_path / "ours.pid", tmp_path / "foreign.pid"
    procs.write_pid(ours, sleeper.pid)
    procs.write_pid(foreign, os.getpid())  # alive, but without the marker
    stopped = procs.stop_many([(ours, ["marker-1"]), (foreign, ["marker-1"])], timeout=10)
    assert stopped == [sleeper.pid]
    assert sleeper.wait(timeout=5) is not None
    assert not ours.exists() and not foreign.exists()


def test_expand_ports():
    assert procs._expand_ports("") == set()
    assert procs._expand_ports("1-3,7\n") == {1, 2, 3, 7}


def test_reserve_ports_keeps_existing_entries(monkeypatch, tmp_path):
    fake = tmp_path / "reserved"
    fake.write_text("100-102\n")
    monkeypatch.setattr(procs, "RESERVED_PORTS", fake)
    assert procs.reserve_ports([101, 39092])
    assert procs._expand_ports(fake.read_text()) == {100, 101, 102, 39092}
    monkeypatch.setattr(procs, "RESERVED_PORTS", tmp_path / "missing" / "file")
    assert not procs.reserve_ports([1])


def test_tail(tmp_path):
    f = tmp_path / "log"
    f.write_text("\n".join(str(i) for i in range(100)))
    assert procs.tail(f, 3) == "97\n98\n99"
    assert "no" in procs.tail(tmp_path / "none")

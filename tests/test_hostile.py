"""A runner no target can break or fool (spec CONF-ROBUST): each attack of the spec's table, replayed.

Each hostile target (tests/hostile_target.py) answers like the reference except for its one
attack; the run must complete with a report (exit 1, never a traceback or exit 3), name the
attack in the right ROB row or verdict, and leave no process of the target behind. The
timeouts given here are for targets that hang by design (the hang is the expected outcome);
every answer of a healthy target is waited for with the runner's defaults.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from conformance.runner.channel import Channel, ChannelTimeoutError
from conformance.runner.client import printable
from conformance.runner.conform import main

HOSTILE = f"{sys.executable} tests/hostile_target.py"


def conform(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["--json", "-q", "-n", "8", *args])
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    report: dict[str, Any] = json.loads(out.out)
    return code, report


def rows(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    (target,) = report["targets"]
    return {c["id"]: c for c in target["checks"]}


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:  # a zombie is dead, only not yet reaped
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.parametrize(
    ("mode", "fault"),
    [
        ("int400", "ROB-PROTOCOL"),  # a 401-digit integer: no OverflowError in math.isnan
        ("int5000", "ROB-PROTOCOL"),  # beyond json's digit limit: no ValueError from json.loads
        ("matches-str", "ROB-PROTOCOL"),
        ("matches-int", "ROB-PROTOCOL"),
        ("hyp-len-str", "ROB-PROTOCOL"),
        ("ref-len-list", "ROB-PROTOCOL"),
        ("seq-true", "ROB-PROTOCOL"),  # the schema says integer: true is not 3
        ("seq-float", "ROB-PROTOCOL"),
        ("bp-str", "ROB-PROTOCOL"),  # no longer silently ignored
        ("non-utf8", "ROB-PROTOCOL"),  # and its stderr bytes do not kill a reader thread
        ("huge-line", "ROB-PROTOCOL"),  # 8 MB on one line, over the limit given below
        ("deep", "ROB-PROTOCOL"),  # nesting beyond the JSON parser's recursion
        ("orphan", "ROB-CRASH"),  # the parent exits, its child holds stdout: a crash, not timeouts
    ],
)
def test_a_malformed_answer_is_a_named_fault_and_the_run_goes_on(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, mode: str, fault: str
) -> None:
    pids = tmp_path / "pids"
    code, report = conform(
        capsys, "--command", f"{HOSTILE} {mode} {pids}", "--max-answer-bytes", str(1 << 20)
    )
    assert code == 1
    found = rows(report)
    assert found[fault]["status"] == "fail", found[fault]
    assert "ROB-TIMEOUT" not in found or found["ROB-TIMEOUT"]["status"] == "pass"
    for pid in (int(p) for p in pids.read_text().split()) if pids.exists() else ():
        assert not alive(pid), f"{mode}: process {pid} outlived the run"


def test_forked_children_do_not_outlive_the_run(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    code, report = conform(capsys, "--command", f"{HOSTILE} fork {pids}")
    assert code == 0, report  # otherwise a correct target
    started = [int(p) for p in pids.read_text().split()]
    assert started
    deadline = time.monotonic() + 30  # SIGKILL is immediate; reaping by init may take a moment
    while any(alive(p) for p in started) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [p for p in started if alive(p)]


def test_a_target_that_skips_everything_it_cannot_recognise_is_insufficient_evidence(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, report = conform(capsys, "--command", f"{HOSTILE} skip-all")
    assert code == 1
    (target,) = report["targets"]
    assert target["verdict"]["level"] == "insufficient evidence"
    thin = [c for c in target["checks"] if c["status"] == "insufficient"]
    assert thin
    assert all(c["answered"] < c["asked"] / 2 for c in thin)


@pytest.mark.slow  # a whole run against a target that stops reading: 13.5 s of CPU
def test_a_target_that_stops_reading_is_a_timeout_not_a_hang(capsys: pytest.CaptureFixture[str]) -> None:
    # The hang is the expected outcome, so a short per-call timeout cannot make this test flaky.
    code, report = conform(capsys, "--command", f"{HOSTILE} stop-reading", "--timeout", "1")
    assert code == 1
    assert rows(report)["ROB-TIMEOUT"]["status"] == "fail"


def test_writes_to_a_target_that_does_not_read_are_bounded_in_time() -> None:
    channel = Channel([sys.executable, "-c", "import time; time.sleep(600)"], dict(os.environ))
    started = time.monotonic()
    with pytest.raises(ChannelTimeoutError, match="did not read its input"):
        channel.exchange(b"x" * (8 << 20) + b"\n", wait=1.0)  # far more than a pipe's buffer
    assert time.monotonic() - started < 60
    assert channel.process.poll() is not None  # killed


def test_what_a_target_says_reaches_reports_escaped(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["-q", "-n", "8", "--command", f"{HOSTILE} inject"])
    out = capsys.readouterr().out
    assert code == 0
    assert "\x1b" not in out
    assert "\r" not in out
    assert "hostile\\x1b[31m red\\r\\n| table |" in out
    main(["-q", "-n", "8", "--markdown", "--command", f"{HOSTILE} inject"])
    table = capsys.readouterr().out.splitlines()[0]
    assert table.count(" | ") == 1  # the target's "|" is escaped in its column's header


def test_printable_escapes_controls_and_keeps_text() -> None:
    assert printable("naïve 中文 |") == "naïve 中文 |"
    assert printable("a\x1b[2Jb\u2028c\x85") == "a\\x1b[2Jb\\u2028c\\x85"


@pytest.mark.parametrize(
    "args",
    [
        ["--timeout", "nan"],
        ["--timeout", "inf"],
        ["--timeout", "-1"],
        ["--startup-timeout", "0"],
        ["--examples", "0"],
        ["--examples", "1000000"],
        ["--seed", "-1"],
        ["--max-answer-bytes", "10"],
        ["--memory-limit", "8"],
        ["--cpu-limit", "-5"],
    ],
)
def test_bad_runner_options_are_one_line_usage_errors(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    assert main(["--target", "reference", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert "spec CONF-RUNNER" in err


def test_the_python_harness_sees_a_mutation_its_target_tries_to_hide(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, report = conform(capsys, "--target", "tests.hostile_module:hides_mutation")
    assert code == 1
    assert rows(report)["ROB-MUTATION"]["status"] == "fail"


def test_stray_writes_to_fd_1_do_not_corrupt_the_protocol(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = conform(capsys, "--target", "tests.hostile_module:writes_to_fd_1")
    assert code == 0, [c for c in rows(report).values() if c["status"] not in ("pass", "n/a")]


def test_a_memory_limit_stops_a_greedy_target(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = conform(capsys, "--target", "tests.hostile_module:greedy", "--memory-limit", "400")
    assert code == 1
    failed = {i for i, c in rows(report).items() if c["status"] == "fail"}
    assert failed & {"ROB-ERROR", "ROB-CRASH"}

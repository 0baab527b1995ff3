"""A runner no target can break or fool (spec CONF-ROBUST): each attack of the spec's table, replayed.

Each hostile target (tests/targets/hostile.py) answers like the reference except for its one
attack; the run must complete with a report (exit 1, never a traceback or exit 3), name the
attack in the right ROB row or verdict, and leave no process of the target behind. The
timeouts given here are for targets that hang by design (the hang is the expected outcome);
every answer of a healthy target is waited for with the runner's defaults.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from conformance.runner.channel import Channel, ChannelTimeoutError
from conformance.runner.client import printable
from conformance.runner.conform import main

HOSTILE = f"{sys.executable} tests/targets/hostile.py"


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
    code, report = conform(capsys, "--target", "tests.targets.hostile_module:hides_mutation")
    assert code == 1
    assert rows(report)["ROB-MUTATION"]["status"] == "fail"


def test_stray_writes_to_fd_1_do_not_corrupt_the_protocol(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = conform(capsys, "--target", "tests.targets.hostile_module:writes_to_fd_1")
    assert code == 0, [c for c in rows(report).values() if c["status"] not in ("pass", "n/a")]


@pytest.mark.slow  # a target allocating up to its limit: 79 s in CI's default tier
def test_a_memory_limit_stops_a_greedy_target(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = conform(capsys, "--target", "tests.targets.hostile_module:greedy", "--memory-limit", "400")
    assert code == 1
    failed = {i for i, c in rows(report).items() if c["status"] == "fail"}
    assert failed & {"ROB-ERROR", "ROB-CRASH"}


def left_behind(marker: str) -> list[int]:
    """A walk of the process table: every live process whose command line holds ``marker`` (the test's
    own pid file, which every process a hostile target starts carries)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                if marker.encode() in cmdline.read() and alive(int(entry)):
                    found.append(int(entry))
        except OSError:
            continue
    return found


def reap(marker: str) -> None:
    """After a failed test, kill what it left behind (a test leaves nothing, whatever happens)."""
    for pid in left_behind(marker):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def gone(marker: str) -> list[int]:
    """The processes still holding ``marker`` once they had time to die (SIGKILL is delivered when a
    process next runs, and init reaps the orphans): none, or those that outlived the run."""
    deadline = time.monotonic() + 30  # a bound on waiting, not a timed assert
    while (found := left_behind(marker)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return found


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="the walk of the process table reads Linux /proc")
def test_a_double_fork_with_setpgid_does_not_outlive_the_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The grandchild leaves the target's tree (its parent exits) and its process group (setpgid);
    only the session leads to it, and the runner kills the session too."""
    pids = tmp_path / "pids"
    try:
        code, report = conform(capsys, "--command", f"{HOSTILE} double-fork {pids}")
        assert code == 0, report  # otherwise a correct target
        started = [int(p) for p in pids.read_text().split()]
        assert started  # the daemon did start (a restart would start another: each is recorded)
        assert gone(str(pids)) == []
    finally:
        reap(str(pids))


def start_runner(pids: Path, *command: str) -> subprocess.Popen[str]:
    """``reference-bleu COMMAND...`` in a process of its own, started as a terminal starts it (SIGHUP
    and SIGINT at their defaults, whatever the test run inherited: nohup ignores SIGHUP)."""
    start = (
        "import runpy, signal, sys; signal.signal(signal.SIGHUP, signal.SIG_DFL); "
        "signal.signal(signal.SIGINT, signal.default_int_handler); "
        "sys.argv = ['reference-bleu', *sys.argv[1:]]; runpy.run_module('reference_bleu', run_name='__main__')"
    )
    return subprocess.Popen(
        [sys.executable, "-c", start, *command],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="the walk of the process table reads Linux /proc")
@pytest.mark.parametrize(("name", "code"), [("SIGTERM", 143), ("SIGHUP", 129), ("SIGINT", 130)])
def test_a_signal_to_conform_kills_a_hung_target_and_everything_it_started(
    tmp_path: Path, name: str, code: int
) -> None:
    """SIGTERM and SIGHUP clean up as Ctrl-C does: the hung target, its child and its double-forked
    daemon are killed, and the runner exits 128 + the signal with one line."""
    pids = tmp_path / "pids"
    runner = start_runner(pids, "conform", "-q", "-n", "8", "--command", f"{HOSTILE} hang {pids}")
    try:
        while "0" not in (pids.read_text().split() if pids.exists() else []):  # the target hangs now
            assert runner.poll() is None, runner.communicate()
            time.sleep(0.05)
        assert len(set(left_behind(str(pids))) - {runner.pid}) == 3  # the target, its child, its daemon
        runner.send_signal(getattr(signal, name))
        _, err = runner.communicate(timeout=120)
    finally:
        runner.kill()
        reap(str(pids))
    assert runner.returncode == code, err
    # one line, as score's: Ctrl-C is Python's own KeyboardInterrupt, which names no signal
    said = "reference-bleu: interrupted" + (f" ({name})" if name != "SIGINT" else "")
    assert err.strip().splitlines() == [said], err
    assert gone(str(pids)) == []


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="the walk of the process table reads Linux /proc")
@pytest.mark.parametrize(("name", "code"), [("SIGTERM", 143), ("SIGHUP", 129), ("SIGINT", 130)])
def test_a_signal_while_the_runner_waits_for_a_slow_answer_ends_the_run(
    tmp_path: Path, name: str, code: int
) -> None:
    """A target that answers in 0.3 s and has started three children: the signal arrives while the
    runner waits for an answer (question 10 on), and the run ends with 128 + the signal, the target
    and its three children killed."""
    pids = tmp_path / "pids"
    runner = start_runner(pids, "conform", "-q", "--command", f"{HOSTILE} slow-forking {pids}")
    try:
        while "0" not in (pids.read_text().split() if pids.exists() else []):  # waiting for an answer now
            assert runner.poll() is None, runner.communicate()
            time.sleep(0.05)
        assert len(set(left_behind(str(pids))) - {runner.pid}) == 4  # the target and its three children
        runner.send_signal(getattr(signal, name))
        _, err = runner.communicate(timeout=120)
    finally:
        runner.kill()
        reap(str(pids))
    assert runner.returncode == code, err
    assert err.strip().splitlines()[-1].startswith("reference-bleu: interrupted"), err
    assert gone(str(pids)) == []


def test_markup_in_a_targets_name_and_errors_reaches_markdown_as_text(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A Markdown report is rendered to HTML (a CI summary, a pull request): a name or an error
    holding <script>, <img onerror> or a javascript: link must show as text, not run."""
    assert main(["-q", "-n", "8", "--markdown", "--command", f"{HOSTILE} html"]) == 1  # ROB-ERROR
    out = capsys.readouterr().out
    for markup in ("<script", "<img", "<javascript"):
        assert markup not in out
    assert not re.search(r"(?<!\\)\]\(javascript", out)  # "\](" is text, "](" a link
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out  # in the matrix's header and the details
    assert out.count("\\[x\\](javascript:alert(3))") >= 2
    assert "ROB-ERROR" in out


@pytest.mark.slow  # whole runner runs: 10-22 s each in CI's default tier
def test_restarts_are_capped(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A target that exits after each answer was restarted 148 times at --examples 20 (359 s); past
    --max-restarts nothing more is asked (the crashes before are ROB-CRASH; the rest is not_asked)."""
    pids = tmp_path / "pids"
    code, report = conform(capsys, "--command", f"{HOSTILE} exit-each {pids}", "--max-restarts", "3")
    assert code == 1
    assert rows(report)["ROB-CRASH"]["status"] == "fail"
    assert len(pids.read_text().split()) == 4  # the first process and three restarts
    (target,) = report["targets"]
    assert target["not_asked"] > 0
    assert target["not_asked_because"] == "its 3 restarts were spent (--max-restarts)"  # not the time limit


@pytest.mark.slow  # a whole runner run each
@pytest.mark.parametrize("limit", ["0.5", "1", "2"])
def test_a_time_limit_ends_the_run_and_the_report_says_what_was_not_asked(
    capsys: pytest.CaptureFixture[str], limit: str
) -> None:
    """0.5 s per answer would take 16 minutes (this one takes 0.2 s); after --time-limit nothing more is asked. The target
    gives the paper's BLEU slowly: the verdict is insufficient evidence, never "not conformant" (at
    1 s, FP-CASE's unasked diagnostics were read as a case folding no rule explains), the points
    whose diagnostics were not asked are insufficient, and the questions of real size are neither
    built nor asked (n/a, not asked: a pass on nothing asked was the report before)."""
    code, report = conform(capsys, "--command", f"{HOSTILE} slow", "--time-limit", limit)
    assert code == 1
    (target,) = report["targets"]
    assert target["not_asked"] > 0
    assert target["not_asked_because"] == f"the time limit of {float(limit):g} s was spent (--time-limit)"
    assert target["verdict"]["level"] == "insufficient evidence", target["verdict"]
    checks = rows(report)
    unasked = [c for c in checks.values() if c["id"].startswith("FP-") and "not asked" in c["detail"]]
    assert unasked
    assert all(c["status"] == "insufficient" for c in unasked)
    for size in ("SIZE-REAL", "SIZE-GENERATED"):
        assert (checks[size]["status"], checks[size]["detail"]) == (
            "n/a",
            f"not asked: {target['not_asked_because']}",
        )
    assert not [c for c in checks.values() if c["status"] == "fail"], checks


@pytest.mark.slow  # whole runner runs: 10-22 s each in CI's default tier
def test_the_working_directory_cannot_shadow_the_harness_nor_keep_hypothesis_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``python -m`` puts the working directory first: a conformance/ or reference_bleu/ folder
    there was imported instead of the harness; and every run left .hypothesis/ behind."""
    for package in ("conformance", "conformance/runner", "reference_bleu"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("raise SystemExit('shadowed')\n", encoding="utf-8")
    (tmp_path / "conformance/runner/harness.py").write_text(
        "raise SystemExit('shadowed')\n", encoding="utf-8"
    )
    (tmp_path / "mybleu.py").write_text(  # the user's own target still imports from there
        "from reference_bleu import corpus_bleu\n\ndef bleu(h, r):\n    return corpus_bleu(h, r).score\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    for target in ("reference", "mybleu:bleu"):
        code, report = conform(capsys, "--target", target)
        assert code == 0, report["targets"][0]["unavailable"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["conformance", "mybleu.py", "reference_bleu"]


@pytest.mark.slow  # whole runner runs: 5-13 s each in CI's default tier
@pytest.mark.parametrize(
    ("mode", "level", "named"),
    [
        ("digits-honest", "conformant", ()),  # x100 rounded to 2 decimals: within half a unit
        # 0.01 off, beyond half a unit (0.005): every score compared with the reference's differs
        # where it lies strictly inside the bounds, the vectors' (paper-001's 50.46 is read as
        # 50.47) and the generated corpora's
        ("digits-one-unit-off", "not conformant", ("VECTORS", "DIFF-CORPUS")),
        ("digits-more", "not conformant", ("ROB-PROTOCOL",)),  # more decimals than declared
        ("digits-half", "not conformant", ("ROB-PROTOCOL",)),  # 0.5 has a decimal; 0 were declared
        # one decimal declared, 0.09 added to every answer (28.3 + 0.09 = 28.39):
        # two decimals, so no answer is read at all, and the fault is what the verdict names
        ("digits-one-plus-0.09", "not conformant", ("ROB-PROTOCOL",)),
    ],
)
def test_declared_digits_are_verified(
    capsys: pytest.CaptureFixture[str], mode: str, level: str, named: tuple[str, ...]
) -> None:
    """CONF-PROTOCOL ``digits``: an answer must be rounded as declared, and is compared to within half
    a unit of its last decimal (a target declaring digits could add 0.09 to every answer). A wrong
    target's verdict names the class of what it did wrong among the checks no point accounts for."""
    code, report = conform(capsys, "--command", f"{HOSTILE} {mode}", "--scale", "percent")
    (target,) = report["targets"]
    verdict = target["verdict"]
    assert verdict["level"] == level, verdict
    assert code == (0 if level == "conformant" else 1)
    for ident in named:
        assert rows(report)[ident]["status"] == "fail", rows(report)[ident]
        assert ident in verdict["unaccounted"], verdict

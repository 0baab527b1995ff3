"""The command line under attack: signals, memory, odd numbers, hostile names, merged statistics.

Each case is an attack replayed against ``reference-bleu``: a signal leaves no
worker behind (checked by a walk of /proc), a file of long lines stays within a memory limit,
numbers at the edge of NUM-INPUT print and parse, names reach Markdown escaped, and merging
statistics refuses what would count a hypothesis twice (spec CLI-INPUT, CLI-STATS, NUM-INPUT,
CLI-OUTPUT).
"""

from __future__ import annotations

import gzip
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from reference_bleu import corpus_bleu
from reference_bleu.cli.main import main
from reference_bleu.interrupts import Interrupted, signals_held, signals_interrupt

#: Starts the CLI as a terminal would: SIGINT raises KeyboardInterrupt, SIGHUP is at its default
#: (a test run in the background, or under nohup, inherits them ignored).
START = (
    "import runpy, signal, sys; signal.signal(signal.SIGHUP, signal.SIG_DFL); "
    "signal.signal(signal.SIGINT, signal.default_int_handler); "
    "sys.argv = ['reference-bleu', *sys.argv[1:]]; runpy.run_module('reference_bleu', run_name='__main__')"
)


def cli(*args: str, preexec_fn: Callable[[], None] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reference_bleu", *args],
        capture_output=True,
        text=True,
        check=False,
        stdin=subprocess.DEVNULL,
        preexec_fn=preexec_fn,
    )


def one_line_error(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("reference-bleu: error: "), lines
    for word in words:
        assert word in lines[0], lines[0]


def children(pid: int) -> list[int]:
    """The children of ``pid``, from a walk of /proc."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                if entry.isdigit() and int(stat.read().rsplit(b")", 1)[1].split()[1]) == pid:
                    found.append(int(entry))
        except (OSError, ValueError, IndexError):
            continue
    return found


def running(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie is dead, only not yet reaped)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="the walk of the process table reads Linux /proc")
@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="--jobs 2 runs one process on a single CPU")
@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP", "SIGKILL"])
def test_a_signal_to_score_jobs_leaves_no_worker(tmp_path: Path, name: str) -> None:
    """The workers are started on the first chunk; the main process then waits on standard input.
    SIGTERM and SIGHUP: it stops them and exits 128 + the signal with one line; SIGKILL: they die
    with it (the parent-death signal), never orphans under init. Both workers are waited for and
    their pids recorded before the signal: an orphan is init's child, no longer the score's."""
    ref = tmp_path / "ref.txt"
    ref.write_text("the cat sat on the mat\n" * 5000, encoding="utf-8")
    score = subprocess.Popen(
        [sys.executable, "-c", START, "score", "--jobs", "2", "-r", str(ref)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert score.stdin is not None
    workers: list[int] = []
    try:
        score.stdin.write("the cat sat on a mat\n" * 3000)  # a chunk and more, then silence
        score.stdin.flush()
        deadline = time.monotonic() + 300  # a bound on a loaded machine's start-up, not a timed assert
        while len(workers := children(score.pid)) < 2:
            assert score.poll() is None, score.communicate()
            assert time.monotonic() < deadline, f"workers started: {workers}"
            time.sleep(0.05)
        assert len(workers) == 2  # --jobs 2: two workers, no other child
        score.send_signal(getattr(signal, name))
        _, err = score.communicate(timeout=120)
    finally:
        score.kill()
        for pid in workers:
            if running(pid):
                os.kill(pid, signal.SIGKILL)
    number = getattr(signal, name)
    assert score.returncode == (128 + number if number != signal.SIGKILL else -number), err
    if number != signal.SIGKILL:
        assert err.strip().splitlines() == [f"reference-bleu: interrupted ({name})"]
    deadline = time.monotonic() + 30  # a bound on waiting for init to reap, not a timed assert
    while any(running(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if running(pid)]


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")
def test_a_signal_while_held_arrives_when_the_step_ends() -> None:
    """The race the SIGHUP case once lost under load: a signal inside a process pool's first
    submit interrupted Thread.start, and the shutdown could not join the thread (exit 1, a
    traceback). A held signal is raised after the step, in the main thread, once."""
    steps: list[str] = []

    def step() -> None:
        with signals_interrupt():
            with signals_held():
                # raise() sends to this thread: delivered before it returns, whatever other threads
                # run (os.kill to the process may reach another thread late, after the handlers are
                # restored, and kill the test's process: an xdist worker once)
                signal.raise_signal(signal.SIGTERM)
                steps.append("the step ended")
            steps.append("after the step")  # never: the signal arrives as the block ends

    with pytest.raises(Interrupted) as raised:
        step()
    assert steps == ["the step ended"]
    assert raised.value.signum == signal.SIGTERM


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="the memory limit is POSIX setrlimit")
def test_a_file_of_long_lines_is_scored_within_bounded_memory(tmp_path: Path) -> None:
    """Chunks were 2,000 lines whatever their length: all 16 lines of 1 MiB (a few MB gzipped) were
    one chunk, a MemoryError traceback under a 300 MB address-space limit (24 such lines peaked at
    787 MB); chunks bounded by bytes hold one or two such lines, and the score is printed."""
    import random  # noqa: PLC0415

    draw = random.Random(25)  # noqa: S311 -- a corpus, not a secret
    words = [f"w{k}" for k in range(1000)]
    line = " ".join(draw.choice(words) for _ in range(1 << 18))[: 1 << 20]
    hyp, ref = tmp_path / "hyp.gz", tmp_path / "ref.gz"
    hyp.write_bytes(gzip.compress((line + "\n").encode() * 16, compresslevel=1))
    ref.write_bytes(gzip.compress((line[::-1] + "\n").encode() * 16, compresslevel=1))  # w12 -> 21w

    def limited() -> None:  # pragma: no cover -- runs in the child
        import resource  # noqa: PLC0415

        resource.setrlimit(resource.RLIMIT_AS, (300 << 20, 300 << 20))

    done = cli("score", "-q", "-b", "-r", str(ref), "-i", str(hyp), preexec_fn=limited)
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.strip() == "0.0"  # no hypothesis token (w...) is a reference token (...w)


@pytest.mark.parametrize("value", ["1e-4300", "1e-5000"])
def test_a_smoothing_value_of_thousands_of_digits_prints(value: str, tmp_path: Path) -> None:
    """NUM-INPUT allows 10^-5000; Python refuses str() of an integer beyond 4,300 digits, which the
    signature used: a traceback in score, explain and the API's .signature."""
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("a b c d e\n", encoding="utf-8")
    ref.write_text("a x c y e f\n", encoding="utf-8")
    shown = f"epsilon=1.000000{value[1:]}"
    for args in (
        ["score", "-q", "-r", str(ref), "-i", str(hyp)],
        ["score", "-q", "-f", "json", "-r", str(ref), "-i", str(hyp)],
        ["explain", "a b c d e", "a x c y e f"],
    ):
        done = cli(*args, "-s", "floor", "--smoothing-value", value)
        assert done.returncode == 0, done.stderr[-300:]
        assert f"smooth:floor[{shown}]" in done.stdout
    result = corpus_bleu([["a", "b"]], [[["a", "c"]]], smoothing="floor", smoothing_value=value)
    assert f"smooth:floor[{shown}]" in result.signature


@pytest.mark.parametrize("value", ["-1e300", "-1/3", "-2.5e-3"])
def test_a_negative_number_is_an_options_value_not_an_option(value: str, tmp_path: Path) -> None:
    """argparse reads "-1e300" as an option unless told otherwise: "expected one argument"."""
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("a b c d e\n", encoding="utf-8")
    ref.write_text("a x c y e f\n", encoding="utf-8")
    common = ["score", "-q", "-f", "json", "-r", str(ref), "-i", str(hyp), "--zero-precision", "log-constant"]
    apart, joined = cli(*common, "--zero-value", value), cli(*common, f"--zero-value={value}")
    assert apart.returncode == 0, apart.stderr
    assert apart.stdout == joined.stdout  # argparse's "=" form, which always took the value
    one_line_error(cli(*common[:-2], "-s", "floor", "-sv", value), "positive", "SMOOTH-FLOOR")


def test_a_negative_runner_option_is_a_bad_value(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conform", "--target", "reference", "--timeout", "-1e3"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert "--timeout must be a number of seconds" in err


def test_a_file_name_reaches_markdown_as_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """score -f markdown names each system by its file: the name is text, never markup."""
    hyp = tmp_path / "<img src=x onerror=alert(1)>[a](javascript:b)|c.txt"
    ref = tmp_path / "ref.txt"
    hyp.write_text("a b c d\n", encoding="utf-8")
    ref.write_text("a b c d\n", encoding="utf-8")
    assert main(["score", "-q", "-f", "markdown", "-r", str(ref), "-i", str(hyp)]) == 0
    table = capsys.readouterr().out.splitlines()
    assert "&lt;img src=x onerror=alert(1)&gt;\\[a\\](javascript:b)\\|c.txt | 1.0 |" in table[2]
    assert "<img" not in table[2]


def _stats(tmp_path: Path, name: str, hyp: Path, *refs_and_flags: str) -> Path:
    out = tmp_path / name
    done = cli("stats", "-q", "-i", str(hyp), "-r", *refs_and_flags)
    assert done.returncode == 0, done.stderr
    out.write_text(done.stdout, encoding="utf-8")
    return out


def test_merging_the_same_hypotheses_counted_against_other_references_is_refused(tmp_path: Path) -> None:
    """Two files counting one hypothesis file against two references, merged, printed 0.451; the
    hypothesis with both references is another number (hand: below), so the merge is refused."""
    hyp, ref1, ref2 = tmp_path / "hyp.txt", tmp_path / "ref1.txt", tmp_path / "ref2.txt"
    hyp.write_text("a b c d\n", encoding="utf-8")
    ref1.write_text("a b c d\n", encoding="utf-8")
    ref2.write_text("a b x y\n", encoding="utf-8")
    one = _stats(tmp_path, "one.json", hyp, str(ref1))
    two = _stats(tmp_path, "two.json", hyp, str(ref2))
    one_line_error(cli("score", "--stats", str(one), str(two)), "same hypothesis file", "CLI-STATS")
    # Merged, the counts would be m = 4+2, 3+1, 2+0, 1+0 of l = 8, 6, 4, 2 with c = r = 8:
    # (3/4 * 2/3 * 1/2 * 1/2)^(1/4) = 0.595. With both references, every n-gram of "a b c d" is
    # in ref1: BLEU = 1.
    both = _stats(tmp_path, "both.json", hyp, str(ref1), str(ref2))
    done = cli("score", "-q", "-b", "--stats", str(both))
    assert done.stdout.strip() == "1.0", done


def test_a_merge_of_other_countings_names_the_option(tmp_path: Path) -> None:
    hyp1, hyp2, ref = tmp_path / "hyp1.txt", tmp_path / "hyp2.txt", tmp_path / "ref.txt"
    hyp1.write_text("a b c d\n", encoding="utf-8")
    hyp2.write_text("a b c e\n", encoding="utf-8")
    ref.write_text("a b c d\n", encoding="utf-8")
    plain = _stats(tmp_path, "plain.json", hyp1, str(ref))
    other = _stats(tmp_path, "other.json", hyp2, str(ref), "-tok", "13a", "-lc")
    one_line_error(
        cli("score", "--stats", str(plain), str(other)),
        "--tokenize 13a, not none as in",
        "--case unicode, not none",
        "CLI-STATS",
    )
    assert "Counting(" not in cli("score", "--stats", str(plain), str(other)).stderr


@pytest.mark.parametrize(
    ("flags", "words"),
    [
        (["-tok", "13a"], ["--tokenize none, not 13a"]),
        (["-lc"], ["--case none, not unicode"]),
        (["--profile", "sacrebleu", "-tok", "13a"], ["--tokenize none, not 13a"]),
    ],
)
def test_text_options_with_stats_must_be_those_counted(
    tmp_path: Path, flags: list[str], words: list[str]
) -> None:
    """The statistics are counts: -tok and -lc cannot apply to them, and were silently ignored."""
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("The cat.\n", encoding="utf-8")
    ref.write_text("the cat .\n", encoding="utf-8")
    plain = _stats(tmp_path, "plain.json", hyp, str(ref))
    one_line_error(cli("score", "--stats", str(plain), *flags), *words, "CLI-STATS")
    if "--profile" not in flags:  # counted with them, they agree
        counted = _stats(tmp_path, "counted.json", hyp, str(ref), *flags)
        assert cli("score", "-q", "--stats", str(counted), *flags).returncode == 0


def test_a_hypothesis_file_that_is_a_reference_file_is_warned_about(tmp_path: Path) -> None:
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a b c d\n", encoding="utf-8")
    done = cli("score", "-b", "-r", str(hyp), "-i", str(hyp))
    assert done.stdout.strip() == "1.0"
    assert f"warning: {hyp} is also the reference file {hyp}" in done.stderr

"""Input that never silently changes a number (spec CLI-INPUT, CLI-STATS, NUM-INPUT, CLI).

Every case of input that must never silently change a number: each is an error in one
line with exit 2 (or a warning that names the file), never a traceback, never a hang.
"""

from __future__ import annotations

import argparse
import bz2
import concurrent.futures
import gzip
import json
import lzma
import os
import pty
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from reference_bleu import BleuError
from reference_bleu.api import corpus_bleu
from reference_bleu.cli.main import main
from reference_bleu.scoring import files

HYP = ["the cat sat on the mat", "a dog ran in the park"]
REF = ["the cat sat on a mat", "the dog ran in a park"]


@pytest.fixture
def pair(tmp_path: Path) -> tuple[str, str]:
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("\n".join(HYP) + "\n", encoding="utf-8")
    ref.write_text("\n".join(REF) + "\n", encoding="utf-8")
    return str(hyp), str(ref)


def cli(*args: str, stdin: Any = subprocess.DEVNULL) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reference_bleu", *args],
        capture_output=True,
        text=True,
        check=False,
        stdin=stdin,
    )


def one_line_error(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("reference-bleu: error: ")
    for word in words:
        assert word in lines[0], lines[0]


def score(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["score", "-q", "--json", *args]) == 0
    document: dict[str, Any] = json.loads(capsys.readouterr().out)["systems"][0]
    return document


# --- standard input and the hypothesis file ---------------------------------------------------------


def test_a_terminal_on_standard_input_without_i_is_an_error(pair: tuple[str, str]) -> None:
    _, ref = pair
    controller, terminal = pty.openpty()
    try:
        done = cli("score", "-r", ref, stdin=terminal)
    finally:
        os.close(controller)
        os.close(terminal)
    one_line_error(done, "no hypotheses", "-i HYP", "terminal")


def test_two_references_and_no_i_warn_that_the_second_may_be_the_hypothesis(pair: tuple[str, str]) -> None:
    hyp, ref = pair
    done = subprocess.run(
        [sys.executable, "-m", "reference_bleu", "score", "-r", ref, hyp, "--profile", "paper"],
        capture_output=True,
        text=True,
        check=False,
        input=Path(hyp).read_text(encoding="utf-8"),
    )
    assert done.returncode == 0
    assert f"if {hyp} is the hypothesis, give it with -i" in done.stderr
    empty = cli(
        "score", "-r", ref, hyp, "--profile", "paper"
    )  # standard input empty: an error after the warning
    assert empty.returncode == 2
    warning, error = empty.stderr.strip().splitlines()
    assert f"if {hyp} is the hypothesis" in warning
    counts = [len(Path(path).read_text(encoding="utf-8").splitlines()) for path in (ref, hyp)]
    assert error == (
        f"reference-bleu: error: line counts differ: standard input has 0, {ref} has {counts[0]}, "
        f"{hyp} has {counts[1]} lines (spec CLI-FILES)"
    )


def test_i_that_swallows_the_references_is_an_error_not_two_systems(pair: tuple[str, str]) -> None:
    hyp, ref = pair
    one_line_error(cli("score", "-i", hyp, ref), "no reference files", f"-i took {hyp}, {ref}")


# --- bytes: byte-order marks, compression, UTF-8, line length ---------------------------------------


def test_a_byte_order_mark_is_kept_with_a_warning_or_stripped_on_request(
    pair: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, ref = pair
    marked = tmp_path / "marked.txt"
    marked.write_text("\ufeff" + "\n".join(HYP) + "\n", encoding="utf-8")
    assert main(["score", "--json", ref, "-i", str(marked), "--profile", "paper"]) == 0
    captured = capsys.readouterr()
    kept = json.loads(captured.out)["systems"][0]
    assert f"{marked} starts with a byte-order mark" in captured.err
    stripped = score(capsys, ref, "-i", str(marked), "--strip-bom")
    plain = score(capsys, ref, "-i", pair[0])
    # "\ufeffthe cat" no longer matches the reference's bigram "the cat"; the unigram "the" still
    # matches once through the hypothesis's second "the" (clipped to the reference's one)
    assert stripped["matches"] == plain["matches"]
    assert kept["matches"][0] == plain["matches"][0]
    assert kept["matches"][1] == plain["matches"][1] - 1


@pytest.mark.parametrize(
    ("suffix", "compress"),
    [(".gz", gzip.compress), (".xz", lzma.compress), (".bz2", bz2.compress), (".data", gzip.compress)],
)
def test_compressed_files_are_read_as_their_text(
    pair: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str, compress: Any
) -> None:
    """By their first bytes, whatever the name (.data holds gzip here)."""
    hyp, ref = pair
    packed_hyp, packed_ref = tmp_path / f"h{suffix}", tmp_path / f"r{suffix}"
    packed_hyp.write_bytes(compress(Path(hyp).read_bytes()))
    packed_ref.write_bytes(compress(Path(ref).read_bytes()))
    assert score(capsys, str(packed_ref), "-i", str(packed_hyp)) == score(capsys, ref, "-i", hyp) | {
        "input": str(packed_hyp)
    }


def test_a_corrupt_compressed_file_is_one_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.gz"
    whole = gzip.compress("\n".join(f"{k * k:x} {k**3:o}" for k in range(5000)).encode())
    broken.write_bytes(whole[: len(whole) // 2])
    refs = tmp_path / "refs.txt"
    refs.write_text("x\n" * 5000, encoding="utf-8")
    one_line_error(cli("score", str(refs), "-i", str(broken)), "cannot read", "gzip")


def test_bad_utf8_is_reported_at_its_exact_line_and_byte(tmp_path: Path, pair: tuple[str, str]) -> None:
    lines = [f"line {k} caf\u00e9".encode() for k in range(1, 6001)]
    lines[4999] = b"line 5000 caf\xe9"  # Latin-1, not UTF-8: byte 15 of line 5000
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\n".join(lines) + b"\n")
    refs = tmp_path / "refs.txt"
    refs.write_text("x\n" * 6000, encoding="utf-8")
    one_line_error(
        cli("score", str(refs), "-i", str(bad)), f"{bad}: line 5000, byte 14: not valid UTF-8 (0xe9)"
    )


def test_a_line_over_the_limit_is_an_error_not_a_memory_error(tmp_path: Path) -> None:
    no_newlines = tmp_path / "blob.txt"
    no_newlines.write_bytes(b"word " * 50_000)  # 250,000 bytes, no line end
    one_line_error(
        cli("score", str(no_newlines), "-i", str(no_newlines), "--max-line-bytes", "100000"),
        "line 1 is longer than 100000 bytes",
        "--max-line-bytes",
    )
    exact = tmp_path / "exact.txt"
    exact.write_bytes(b"a" * 100 + b"\n")
    assert cli("score", "-q", str(exact), "-i", str(exact), "--max-line-bytes", "100").returncode == 0
    one_line_error(
        cli("score", str(exact), "-i", str(exact), "--max-line-bytes", "99"), "longer than 99 bytes"
    )


# --- statistics files (CLI-STATS) ----------------------------------------------------------------------


@pytest.fixture
def stats_file(pair: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    hyp, ref = pair
    assert main(["stats", "-q", "-i", hyp, "-r", ref]) == 0
    path = tmp_path / "stats.json"
    path.write_text(capsys.readouterr().out, encoding="utf-8")
    return path


def test_a_statistics_file_names_its_inputs_by_content(stats_file: Path, pair: tuple[str, str]) -> None:
    import hashlib  # noqa: PLC0415

    document = json.loads(stats_file.read_text(encoding="utf-8"))
    hyp, ref = pair
    assert document["hypothesis"] == {
        "path": hyp,
        "sha256": hashlib.sha256(Path(hyp).read_bytes()).hexdigest(),
        "lines": 2,
    }
    assert document["references"][0]["sha256"] == hashlib.sha256(Path(ref).read_bytes()).hexdigest()


def test_the_same_statistics_merged_twice_are_refused(stats_file: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.json"
    copy.write_text(stats_file.read_text(encoding="utf-8"), encoding="utf-8")
    one_line_error(cli("score", "--stats", str(stats_file), str(copy)), "counts the same files", "twice")


def _edited(stats_file: Path, tmp_path: Path, edit: Any) -> str:
    document = json.loads(stats_file.read_text(encoding="utf-8"))
    edit(document)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (
            lambda d: d["statistics"].update(hyp_len=5, totals=[62873, 62872, 62871, 62870, 62869]),
            ["hyp_len 5"],
        ),
        (
            lambda d: d["statistics"].update(matches=[13, 5, 2, 1, 0], totals=[12, 10, 8, 6, 4]),
            ["matches <= totals"],
        ),
        (lambda d: d["statistics"].update(totals=[12, 12, 20, 6, 4]), ["l_3 = 20"]),
        (
            lambda d: d["statistics"].update(matches=[8, 1, 0, 0, 0], totals=[12, 2, 1, 0, 0]),
            ["l_2 = 2", "2 segment(s)"],
        ),
        (lambda d: d["statistics"].update(ref_len="1e999999999"), ["ref_len", "outside"]),
        (lambda d: d["statistics"].update(ref_len=2**70), ["counts must be integers in 0..2^63-1"]),
        (lambda d: d["statistics"].update(matches=None), ["matches and totals must be lists"]),
        (lambda d: d.update(orders="5"), ["'orders' must be a int"]),
        (lambda d: d.update(segments=0), ["'segments' must lie in 1.."]),
        (lambda d: d["hypothesis"].update(sha256="x"), ["has no SHA-256"]),
        (lambda d: d.update(format_version=1), ["older versions: count again"]),
    ],
)
def test_inconsistent_or_hostile_statistics_are_one_line(
    stats_file: Path, tmp_path: Path, edit: Any, words: list[str]
) -> None:
    one_line_error(cli("score", "--stats", _edited(stats_file, tmp_path, edit)), "CLI-STATS", *words)


@pytest.mark.parametrize("text", ["[1, 2, 3]", "null", "[" * 100_000 + "]" * 100_000, '{"a": NaN}', "\xff"])
def test_statistics_files_that_are_not_statistics_are_one_line(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(text.encode("latin-1"))
    one_line_error(cli("score", "--stats", str(path)), "CLI-STATS")


# --- bounds on numbers and options ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("flags", "words"),
    [
        (["--max-order", "10000"], ["an int in 1..100"]),
        (["--max-order", "1000000000"], ["an int in 1..100"]),
        (["-s", "floor", "--smoothing-value", "1e999999999"], ["outside"]),
        (["-s", "floor", "--smoothing-value", "nan"], ["not a number"]),
        (["--weights", "1e-999999999", "1"], ["outside"]),
        (["--zero-precision", "sentinel", "--zero-value", "inf"], ["not a number"]),
        (["--tokenize", "nonsense"], ["invalid choice: 'nonsense'"]),
        (["--width", "99"], ["round_digits"]),
        (["--confidence", "--confidence-n", "100000000"], ["--confidence-n must lie in"]),
        (["--seed", "-1"], ["--seed must lie in"]),
    ],
)
def test_every_numeric_option_is_bounded_and_fails_in_one_line(
    pair: tuple[str, str], flags: list[str], words: list[str]
) -> None:
    hyp, ref = pair
    one_line_error(cli("score", ref, "-i", hyp, *flags), *words)  # and it returns: no unbounded work


@pytest.mark.parametrize(
    "options",
    [
        {"weights": [Decimal("Infinity")] * 4},
        {"smoothing": "add-k", "smoothing_value": 10**400},
        {"smoothing": "floor", "smoothing_value": Decimal("1e-999999999")},
        {"max_order": 10**9},
    ],
)
def test_the_api_raises_bleu_errors_for_unbounded_numbers(options: dict[str, Any]) -> None:
    with pytest.raises(BleuError):
        corpus_bleu([["a", "b"]], [[["a", "b"]]], **options)


def test_jobs_are_capped_at_the_cpu_count(pair: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []
    real = ProcessPoolExecutor

    def recording(max_workers: int, **kwargs: Any) -> Any:
        started.append(max_workers)
        return real(max_workers=max_workers, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", recording)  # imported when --jobs asks
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    hyp, ref = pair
    counting = files.Counting(4)
    capped, _ = files.systems_statistics([hyp], [ref], counting, jobs=1000)
    assert started == [2]
    assert capped == files.systems_statistics([hyp], [ref], counting, jobs=1)[0]


def test_lc_is_a_flag_and_takes_no_argument(capsys: pytest.CaptureFixture[str]) -> None:
    """Before, -lc took an optional value and swallowed the next positional argument of explain."""
    assert main(["explain", "-lc", "The Cat", "the cat"]) == 0
    assert "BLEU" in capsys.readouterr().out
    assert main(["explain", "--case", "ascii", "The Cat", "the cat"]) == 0


def test_ctrl_c_exits_130_with_one_line(pair: tuple[str, str]) -> None:
    """The process waits on standard input (a pipe never written); SIGINT once it has opened the reference."""
    _, ref = pair
    # Ctrl-C in a terminal: Python's own SIGINT handler, installed before the CLI runs. A test run
    # started in the background by a shell without job control ignores SIGINT, an ignored signal
    # stays ignored across exec, and Python then keeps it ignored: the CLI would never see it.
    start = (
        "import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
        "sys.argv = ['reference-bleu', *sys.argv[1:]]; runpy.run_module('reference_bleu', run_name='__main__')"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", start, "score", ref],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        descriptors = Path(f"/proc/{process.pid}/fd")
        while not any(os.path.realpath(fd) == os.path.realpath(ref) for fd in _listing(descriptors)):
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate()
    finally:
        process.kill()
    assert process.returncode == 130
    assert err.strip().splitlines() == ["reference-bleu: interrupted"]


def _listing(folder: Path) -> list[str]:
    try:
        return [str(path) for path in folder.iterdir()]
    except OSError:
        return []


def test_every_option_is_explained_in_words() -> None:
    """Help texts say what an option does, with the spec ID after, not the ID alone (spec CLI)."""
    from reference_bleu.cli.arguments import parser  # noqa: PLC0415

    commands: Any = next(a for a in parser()._actions if a.dest == "command").choices
    for name in ("score", "stats", "explain"):
        for action in commands[name]._actions:
            if action.help == argparse.SUPPRESS:  # a refused sacrebleu flag: named in its group's one line
                flag = action.option_strings[0]
                shown = (
                    flag[: flag.index("-", 2) + 1] + "*" if flag.startswith(("--chrf-", "--ter-")) else flag
                )
                assert shown in commands[name].format_help(), action.option_strings
                continue
            words = [w for w in re.findall(r"[A-Za-z]{2,}", str(action.help)) if not w.isupper()]
            assert len(words) >= 3, (name, action.option_strings, action.help)

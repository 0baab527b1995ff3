"""Every flag of sacrebleu 2.6.0's command line means the same under ``reference-bleu score`` or is
refused in one line; no parser abbreviates a flag (spec CLI-SACREBLEU, CLI-SACREBLEU-FLAGS).

The list of flags is sacrebleu's own parser, read in the test: a flag sacrebleu has and the
table lacks fails.
"""

from __future__ import annotations

import argparse
import re
import signal
from pathlib import Path
from typing import Any

import pytest

from reference_bleu.cli.arguments import parser
from reference_bleu.cli.flags import SACREBLEU_FLAGS, flag_table
from reference_bleu.cli.main import main

SPEC = Path(__file__).resolve().parent.parent / "spec" / "14-command-line.md"


class _CapturedError(Exception):
    def __init__(self, parser: argparse.ArgumentParser) -> None:
        self.parser = parser


def sacrebleu_parser(monkeypatch: pytest.MonkeyPatch) -> argparse.ArgumentParser:
    """sacrebleu's parser, caught as its ``parse_args`` calls ``ArgumentParser.parse_args``.

    Importing sacrebleu's command-line module sets SIGPIPE to its default action
    (sacrebleu/sacrebleu.py:57); the disposition is put back, or a later test of this process that
    writes to a target which has exited dies of SIGPIPE instead of meeting BrokenPipeError (an
    xdist worker did, in test_conform's usage errors)."""
    disposition = signal.getsignal(signal.SIGPIPE)
    from sacrebleu import sacrebleu  # noqa: PLC0415

    signal.signal(signal.SIGPIPE, disposition)

    def capture(self: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        raise _CapturedError(self)

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", capture)
    with pytest.raises(_CapturedError) as caught:
        sacrebleu.parse_args()  # type: ignore[no-untyped-call]
    return caught.value.parser


def sacrebleu_flags(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """Each argument of sacrebleu's parser: its option strings, or its name if positional."""
    return [tuple(a.option_strings) or (a.dest,) for a in sacrebleu_parser(monkeypatch)._actions]


def score_parser() -> argparse.ArgumentParser:
    commands = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction))
    score: argparse.ArgumentParser = commands.choices["score"]
    return score


def test_the_table_lists_exactly_sacrebleus_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    theirs = sacrebleu_flags(monkeypatch)
    assert len(theirs) > 40
    assert sorted(theirs) == sorted(flag.names for flag in SACREBLEU_FLAGS)


def test_the_spec_chapter_lists_the_table() -> None:
    assert flag_table() in SPEC.read_text(encoding="utf-8")


SAME = [flag for flag in SACREBLEU_FLAGS if flag.verdict == "same"]
REFUSED = [flag for flag in SACREBLEU_FLAGS if flag.verdict == "refused"]


@pytest.mark.parametrize("flag", SAME, ids=lambda f: f.names[0])
def test_a_flag_that_means_the_same_is_one_of_scores(flag: Any) -> None:
    ours = score_parser()._option_string_actions
    if flag.names == ("refs",):
        assert any(a.dest == "positional_refs" and a.nargs == "*" for a in score_parser()._actions)
        return
    for name in flag.names:
        assert name in ours, name
    # every spelling reaches the same destination
    assert len({ours[name].dest for name in flag.names}) == 1


def test_flags_that_mean_the_same_have_sacrebleus_destination_semantics(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Choices sacrebleu allows are allowed here; a flag with a value takes one here too."""
    theirs = {a.option_strings[0]: a for a in sacrebleu_parser(monkeypatch)._actions if a.option_strings}
    ours = score_parser()._option_string_actions
    for flag in SAME:
        name = flag.names[0]
        if name not in theirs or name in ("--help", "--version"):
            continue
        their, our = theirs[name], ours[name]
        assert (their.nargs == 0) == (our.nargs == 0), name  # a switch is a switch
        if their.choices is not None and name != "--metrics":
            assert set(their.choices) <= set(our.choices or []), name


@pytest.mark.parametrize("flag", REFUSED, ids=lambda f: f.names[0])
def test_a_refused_flag_says_what_to_do_instead(flag: Any, capsys: pytest.CaptureFixture[str]) -> None:
    for name in flag.names:
        assert main(["score", "ref.txt", "-i", "hyp.txt", name, "x"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1, err
        assert err[0] == f"reference-bleu: error: {name}: {flag.note} (spec CLI-SACREBLEU-FLAGS)"


def test_test_sets_are_refused_with_the_files_to_pass(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "-t", "wmt17", "-l", "en-de"]) == 2
    assert "-r REF... -i HYP..." in capsys.readouterr().err


def test_an_encoding_other_than_utf8_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref = tmp_path / "ref.txt"
    ref.write_text("a b c\n", encoding="utf-8")
    assert main(["score", str(ref), "-i", str(ref), "-e", "UTF-8", "-b", "-q", "-N", "3"]) == 0
    assert capsys.readouterr().out.strip() == "1.0"  # 1/1 * 1/1 * 1/1, BP 1
    assert main(["score", str(ref), "-i", str(ref), "-e", "latin-1"]) == 2
    assert "iconv -f latin-1 -t utf-8" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["spm", "flores101", "flores200", "spBLEU-1K"])
def test_sentencepiece_tokenizers_are_refused_in_one_line(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """sacrebleu's SentencePiece tokenizers download a model (tokenizer_spm.py): out of scope here."""
    assert main(["score", "ref.txt", "-i", "hyp.txt", "-tok", name]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert "spm_encode" in err[0]
    assert "-tok none" in err[0]


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "r", "-i", "h", "--tok", "13a"],  # --tokenize
        ["score", "r", "-i", "h", "--lower"],  # --lowercase
        ["score", "r", "-i", "h", "--smooth", "exp"],  # --smooth-method, --smoothing
        ["score", "r", "-i", "h", "--conf"],  # --confidence
        ["stats", "-r", "r", "-i", "h", "--ord", "4"],  # --orders
        ["explain", "a", "a", "--max", "2"],  # --max-order
    ],
    ids=lambda a: a[-2] if a[-1][0].isdigit() or a[-1] == "exp" else a[-1],
)
def test_no_flag_is_abbreviated(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert "unrecognized arguments" in capsys.readouterr().err


def test_the_conform_runner_does_not_abbreviate(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("hypothesis", reason="conform needs the conform extra (hypothesis)")
    assert main(["conform", "--tar", "reference"]) == 2  # --target
    assert "unrecognized arguments: --tar" in capsys.readouterr().err


def test_j_is_sacrebleus_paired_jobs_and_counting_processes_are_jobs() -> None:
    ours = score_parser()._option_string_actions
    assert ours["-j"].dest == "paired_jobs"
    assert ours["--jobs"].dest == "jobs"
    assert re.search(r"-j\b", "|".join(ours["--jobs"].option_strings)) is None

"""A sacrebleu user's command line means the same thing here (spec CLI-SACREBLEU, CLI-OUTPUT, SIG-*).

The oracle is sacrebleu itself, run as its command line (``python -m sacrebleu``) on the shipped
WMT17 data: for each command line of its README, ``reference-bleu score --profile sacrebleu``
with the same flags must print the same number. Confidence intervals and paired tests draw
sacrebleu's resamples (numpy's default_rng, spec SIG-BOOTSTRAP), so they are compared exactly.
The whole printed text is compared byte for byte in tests/test_cli_printed.py.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from conformance.data import plain_root
from reference_bleu.analysis.significance import (
    bootstrap_interval,
    interval,
    p_value,
    paired_bootstrap,
    paired_randomization,
)
from reference_bleu.cli.main import main
from reference_bleu.conventions.space import resolve_point
from reference_bleu.scoring.files import Counting, systems_statistics

#: Resampling draws with numpy, the significance extra.
needs_numpy = pytest.mark.skipif(
    importlib.util.find_spec("numpy") is None, reason="resampling needs the significance extra (numpy)"
)

DATA = plain_root() / "wmt17-en-de"  # the shipped test set, decompressed (conformance/data/README.md)
SYSTEMS = sorted(DATA.glob("hyp.*"))
REF = DATA / "ref.de"


def sacrebleu_cli(*args: str, stdin: str | None = None) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "sacrebleu", *args],
        capture_output=True,
        text=True,
        check=True,
        input=stdin,
        env={"SACREBLEU_SEED": "12345", "PATH": "/usr/bin:/bin"},
    )
    return done.stdout.strip()


def ours(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["score", *args]) == 0
    return capsys.readouterr().out.strip()


@pytest.fixture(scope="module")
def short_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str, str]:
    """The first 300 segments of two systems and the reference (sentence-level runs stay quick)."""
    folder = tmp_path_factory.mktemp("wmt17")
    paths = []
    for source in (SYSTEMS[0], SYSTEMS[1], REF):
        path = folder / source.name
        lines = source.read_text(encoding="utf-8").splitlines()[:300]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(str(path))
    return paths[0], paths[1], paths[2]


README_COMMAND_LINES = [
    # sacrebleu's README: "sacrebleu ref.detok.txt -i output.detok.txt -m bleu -b -w 4"
    ["-m", "bleu", "-b", "-w", "4"],
    ["-b"],
    ["-b", "-w", "2", "-lc"],
    ["-b", "-w", "3", "-tok", "intl"],
    ["-b", "-w", "4", "-tok", "char"],
    ["-b", "-w", "4", "-tok", "none"],
    ["-b", "-w", "4", "--smooth-method", "floor", "--smooth-value", "0.5"],
    ["-b", "-w", "4", "-s", "add-k", "-sv", "2"],
    ["-b", "-w", "4", "-s", "none"],
]


@pytest.mark.parametrize("flags", README_COMMAND_LINES, ids=" ".join)
def test_a_sacrebleu_command_line_gives_sacrebleus_number(
    flags: list[str], short_files: tuple[str, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, _, ref = short_files
    expected = sacrebleu_cli(ref, "-i", hyp, *flags)
    assert ours(capsys, "--profile", "sacrebleu", ref, "-i", hyp, *flags) == expected
    # -r instead of a positional reference: the same
    assert ours(capsys, "--profile", "sacrebleu", "-r", ref, "-i", hyp, *flags) == expected


def test_the_whole_test_set_from_standard_input(capsys: pytest.CaptureFixture[str]) -> None:
    hyp_text = SYSTEMS[0].read_text(encoding="utf-8")
    expected = sacrebleu_cli(str(REF), "-b", "-w", "4", stdin=hyp_text)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "reference_bleu",
            "score",
            "--profile",
            "sacrebleu",
            str(REF),
            "-b",
            "-w",
            "4",
        ],
        capture_output=True,
        text=True,
        check=True,
        input=hyp_text,
    )
    assert done.stdout.strip() == expected


@pytest.mark.parametrize("flags", [["-w", "4"], ["-w", "4", "-s", "add-k"], ["-w", "2", "-lc"]], ids=" ".join)
def test_sentence_level_scores_are_sacrebleus(
    flags: list[str], short_files: tuple[str, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """sacrebleu -sl turns effective order on by itself (sacrebleu.py:446); so does the profile."""
    hyp, _, ref = short_files
    expected = sacrebleu_cli(ref, "-i", hyp, "-sl", "-b", *flags).splitlines()
    got = ours(capsys, "--profile", "sacrebleu", ref, "-i", hyp, "-sl", "-b", *flags).splitlines()
    assert len(got) == 300
    assert got == expected


def test_several_systems_give_sacrebleus_numbers_in_one_table(
    short_files: tuple[str, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    first, second, ref = short_files
    expected = [sacrebleu_cli(ref, "-i", hyp, "-b", "-w", "2") for hyp in (first, second)]
    listed = json.loads(ours(capsys, "--profile", "sacrebleu", ref, "-i", first, second, "-b", "-w", "2"))
    assert [row["BLEU"] for row in listed] == expected  # sacrebleu's JSON list, with -b or not
    table = ours(
        capsys, ref, "-i", first, second, "-w", "2", "-tok", "13a", "-s", "exp", "--scale", "percent"
    )
    rows = [line.split() for line in table.splitlines()[1:3]]
    assert [row[1] for row in rows] == expected  # our table prints the same number as -b: same scale
    single = ours(capsys, ref, "-i", first, "-q")
    several = ours(capsys, ref, "-i", first, second, "-q")
    assert single.splitlines()[0] == f"BLEU = {several.splitlines()[1].split()[1]}"


def test_sacrebleus_signature_only_where_sacrebleu_prints_these_numbers(
    short_files: tuple[str, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, _, ref = short_files
    theirs = json.loads(sacrebleu_cli(ref, "-i", hyp, "-lc"))["signature"]
    assert json.loads(ours(capsys, "--profile", "sacrebleu", ref, "-i", hyp, "-lc"))["signature"] == theirs
    for args in (
        [ref, "-i", hyp, "-lc", "-tok", "13a", "-s", "exp", "--scale", "percent", "-f", "json"],  # no profile
        [
            "--profile",
            "sacrebleu",
            ref,
            "-i",
            hyp,
            "-lc",
            "--ref-length",
            "shortest",
        ],  # not sacrebleu's point
        ["--profile", "sacrebleu", ref, "-i", hyp, "-lc", "-f", "markdown"],  # not a sacrebleu format
    ):
        out = ours(capsys, *args)
        assert "version:2.6.0" not in out, args
        assert "profile:sacrebleu" in out or "--profile" not in args
        assert "sacrebleu_signature" not in out


def test_the_paper_defaults_stay_and_a_note_says_where_sacrebleu_differs(
    short_files: tuple[str, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, _, ref = short_files
    assert main(["score", ref, "-i", hyp, "-b"]) == 0
    captured = capsys.readouterr()
    assert 0 <= float(captured.out) <= 1  # the paper's BLEU, on [0, 1]
    notes = captured.err.strip().splitlines()
    assert len(notes) == 1
    assert "no tokenizer (sacrebleu: 13a)" in notes[0]
    assert "--profile sacrebleu" in notes[0]
    assert main(["score", ref, "-i", hyp, "-b", "-q"]) == 0
    assert capsys.readouterr().err == ""
    assert main(["score", ref, "-i", hyp, "-b", "-tok", "13a", "-s", "exp", "--scale", "percent"]) == 0
    assert capsys.readouterr().err == ""  # nothing left at a default that differs


def test_w_is_the_width_and_weights_have_their_own_flag(
    short_files: tuple[str, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, _, ref = short_files
    assert ours(capsys, ref, "-i", hyp, "-b", "-w", "3", "-q").count(".") == 1
    assert len(ours(capsys, ref, "-i", hyp, "-b", "-w", "3", "-q").split(".")[1]) == 3
    unigram = ours(capsys, ref, "-i", hyp, "-b", "-q", "--weights", "1", "0", "0", "0")
    full = ours(capsys, ref, "-i", hyp, "-b", "-q")
    assert unigram != full


def test_the_formats(short_files: tuple[str, str, str], capsys: pytest.CaptureFixture[str]) -> None:
    first, second, ref = short_files
    args = [ref, "-i", first, second, "-w", "2", "-tok", "13a", "-s", "exp", "--scale", "percent"]
    expected = [sacrebleu_cli(ref, "-i", hyp, "-b", "-w", "2") for hyp in (first, second)]
    markdown = ours(capsys, *args, "-f", "markdown").splitlines()
    assert markdown[0].startswith("| system | BLEU |")
    assert markdown[1].startswith("|---|---:|")
    assert [line.split(" | ")[1] for line in markdown[2:4]] == expected
    latex = ours(capsys, *args, "-f", "latex")
    assert r"\begin{tabular}" in latex
    assert r"\bottomrule" in latex
    assert latex.count(r" \\") == 3  # header and two systems
    assert "_" not in latex.split(r"\midrule")[1].replace(r"\_", "")  # file names escaped
    one = json.loads(ours(capsys, *args[:2], first, *args[4:], "--json"))
    two = json.loads(ours(capsys, *args, "--json"))
    assert set(one) == set(two)  # one shape: an object with a systems list, one system or several
    assert [len(one["systems"]), len(two["systems"])] == [1, 2]
    assert [s["reported_text"] for s in two["systems"]] == expected


def test_only_bleu_is_a_metric_here(
    short_files: tuple[str, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, _, ref = short_files
    assert main(["score", ref, "-i", hyp, "-m", "bleu", "chrf"]) == 2
    assert "BLEU only" in capsys.readouterr().err


# --- confidence and significance (SIG-*) -------------------------------------------------------------


def _statistics(systems: list[Path]) -> list[list]:  # type: ignore[type-arg]
    per_system, _ = systems_statistics(
        [str(s) for s in systems], [str(REF)], Counting(4, "closest", "13a"), keep_segments=True
    )
    return per_system


SACREBLEU = resolve_point("sacrebleu", {"round_digits": None}).options


def test_the_interval_is_sacrebleus_estimate_ci_on_the_same_scores() -> None:
    """Hand computed: 80 scores 0..79: cut = 80 // 40 = 2, lower = 2, upper = 77, half-width 37.5."""
    estimate = interval([float(k) for k in reversed(range(80))])
    assert (estimate.mean, estimate.half_width) == (39.5, 37.5)
    assert p_value([0.5, -0.5, 2.0], 0.5) == 2 / 4  # only 2.0 is strictly above: (1 + 1) / (3 + 1)


@pytest.mark.slow
@needs_numpy
def test_confidence_is_sacrebleus_to_the_last_digit() -> None:
    """SIG-BOOTSTRAP: the same draws (numpy's default_rng(12345)) and arithmetic: the same floats."""
    from sacrebleu.metrics.bleu import BLEU  # noqa: PLC0415

    hyp = SYSTEMS[1].read_text(encoding="utf-8").splitlines()
    refs = [REF.read_text(encoding="utf-8").splitlines()]
    theirs = BLEU().corpus_score(hyp, refs, n_bootstrap=1000)
    ours_ = bootstrap_interval(_statistics([SYSTEMS[1]])[0], SACREBLEU, 1000, 12345)
    assert (ours_.mean, ours_.half_width) == (theirs._mean, theirs._ci)


@pytest.mark.slow
@needs_numpy
def test_paired_tests_are_sacrebleus_to_the_last_digit() -> None:
    """SIG-PAIRED-BS and SIG-PAIRED-AR on pairs of WMT17 systems close in score (so that p is not at its
    floor 1/(B+1)): the same p-values, means and half-widths as sacrebleu's PairedTest."""
    from sacrebleu.metrics.bleu import BLEU  # noqa: PLC0415
    from sacrebleu.significance import PairedTest  # noqa: PLC0415

    pairs = [
        (DATA / "hyp.RWTH-nmt-ensemble.4921.de", DATA / "hyp.KIT.4950.de"),  # 26.03 vs 26.08 (sacrebleu -b)
        (DATA / "hyp.FBK.4870.de", DATA / "hyp.LMU-nmt-single.4893.de"),  # 26.33 vs 26.56
    ]
    refs = [REF.read_text(encoding="utf-8").splitlines()]
    for baseline, system in pairs:
        base_stats, system_stats = _statistics([baseline, system])
        texts: list[tuple[str, Sequence[str]]] = [
            (p.name, p.read_text(encoding="utf-8").splitlines()) for p in (baseline, system)
        ]
        for kind, samples in (("bs", 300), ("ar", 500)):
            test = PairedTest(texts, {"BLEU": BLEU(references=refs)}, None, test_type=kind, n_samples=samples)
            theirs: Any = test()[1]["BLEU"]
            if kind == "bs":
                mine = paired_bootstrap(base_stats, system_stats, SACREBLEU, samples, 12345)
                assert mine.interval is not None
                assert (mine.interval.mean, mine.interval.half_width) == (theirs[1].mean, theirs[1].ci)
            else:
                mine = paired_randomization(base_stats, system_stats, SACREBLEU, samples=samples, seed=12345)
            assert (mine.score, mine.p_value) == (theirs[1].score, theirs[1].p_value), (kind, system.name)
            assert 0.01 < mine.p_value < 0.99  # a p-value off its floor: the draws matter


@needs_numpy
def test_the_cli_reports_interval_and_p_values_reproducibly(
    short_files: tuple[str, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    first, second, ref = short_files
    args = [ref, "-i", first, second, "--paired-bs", "--paired-bs-n", "200", "-f", "json", "-q"]
    report = json.loads(ours(capsys, *args))
    assert report["seed"] == 12345
    assert "p_value" not in report["systems"][0]
    assert 0 < report["systems"][1]["p_value"] <= 1
    assert "sacrebleu_signature" not in report
    assert json.loads(ours(capsys, *args)) == report  # same seed, same report
    other = json.loads(ours(capsys, *args, "--seed", "7"))
    assert other["systems"][1]["confidence"] != report["systems"][1]["confidence"]
    single = ours(capsys, "--profile", "sacrebleu", ref, "-i", first, "-ci", "--confidence-n", "200", "-b")
    assert "(μ = " in single.splitlines()[0]


def test_statistical_tests_refuse_what_they_cannot_do(
    short_files: tuple[str, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    first, second, ref = short_files
    for args in (
        [ref, "-i", first, "--paired-bs"],  # one system
        [ref, "-i", first, second, "--confidence"],  # several systems, no paired test
        [ref, "-i", first, "--confidence", "--confidence-n", "0"],
        [ref, "-i", first, "--confidence", "--aggregation", "macro"],  # needs corpus totals
        [ref, "-i", first, second, "--paired-bs", "--paired-ar"],
        [ref, "-i", first, second, "--paired-bs", "--confidence"],  # sacrebleu refuses it too
    ):
        assert main(["score", "-q", *args]) == 2, args
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1, err
        assert err[0].startswith("reference-bleu: error: "), err

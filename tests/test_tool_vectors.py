"""The reference computes and prints what the tools print (spec chapter 16, CONF-TOOL-VECTORS).

The oracles are the tools themselves: every expected string of ``conformance/suite/tools/`` was
printed or returned by sacrebleu 2.6.0, nltk 3.10.4, multi-bleu.perl or the mteval scripts
(recorded by ``python -m conformance.suite.tools.record``). Here the procedures of chapter 16 on
the recorded statistics give every ``repr``; ``score --profile P`` prints every recorded line and
report byte for byte; a sample of the sacrebleu and nltk vectors is recomputed by the installed
tools; and where perl and a mosesdecoder checkout at the pinned commit are present
(``REFERENCE_BLEU_MOSES``), the Perl scripts run again and print what ``score --profile P`` prints.
"""

from __future__ import annotations

import decimal
import json
import math
import os
import random
import shutil
import subprocess
import sys
import warnings
from fractions import Fraction
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from nltk.translate.bleu_score import Fraction as NltkFraction
from nltk.translate.bleu_score import SmoothingFunction
from nltk.translate.bleu_score import corpus_bleu as nltk_bleu
from sacrebleu.metrics.bleu import BLEU

from conformance.data import plain_root
from conformance.suite.loader import TOOL_VECTOR_SCHEMA_PATH, TOOLS, load_tool_vectors
from conformance.suite.tools.record import MOSES_SCRIPTS, run_mteval, run_multi_bleu, sgml
from reference_bleu import corpus_bleu
from reference_bleu.cli.main import main
from reference_bleu.cli.printing import Rendering, SacrebleuForm
from reference_bleu.cli.toolforms import MtevalForm
from reference_bleu.conventions.options import BleuOptions, make_options
from reference_bleu.formulas.counting import NGramCounts
from reference_bleu.formulas.smoothing import LastSegment, SmoothingAssertionError, nltk_method_6
from reference_bleu.formulas.statistics import Statistics
from reference_bleu.scoring.floating import nltk_corpus_bleu, sacrebleu_compute_bleu
from reference_bleu.text.tokenizers import tokenize_line

DATA = plain_root()
VECTORS = {tool: load_tool_vectors(tool) for tool in TOOLS}


def vectors_of(tool: str, group: str | None = None) -> list[dict[str, Any]]:
    return [t for t in VECTORS[tool]["tests"] if group is None or t["group"] == group]


@pytest.mark.parametrize("tool", TOOLS)
def test_each_file_follows_the_schema_and_its_ids_are_unique(tool: str) -> None:
    schema = json.loads(TOOL_VECTOR_SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(VECTORS[tool])
    ids = [t["id"] for t in VECTORS[tool]["tests"]]
    assert len(ids) == len(set(ids))


# --- sacrebleu ----------------------------------------------------------------------------------------


def sacrebleu_options(options: dict[str, Any]) -> BleuOptions:
    """sacrebleu's options (its own names) as the reference's (the sacrebleu profile's fields)."""
    value = options["smooth_value"]
    return make_options(
        smoothing=options["smooth_method"],
        smoothing_value=None if value is None else str(value),
        effective_order=options["effective_order"],
        max_order=options["max_ngram_order"],
    )


def expected_score(expected: dict[str, str]) -> str:
    """The recorded score of this interpreter's ``sum()`` (CONV-SACREBLEU, step S5)."""
    if sys.version_info >= (3, 12):
        return expected.get("score_python312", expected["score"])
    return expected["score"]


def row(statistics: dict[str, Any]) -> list[int]:
    return [statistics["c"], statistics["r"], *statistics["matches"], *statistics["totals"]]


def test_sacrebleus_arithmetic_gives_every_recorded_repr() -> None:
    wrong = []
    arithmetic = [t for t in vectors_of("sacrebleu") if "statistics" in t]
    for test in arithmetic:
        expected = test["expected"]
        score = sacrebleu_compute_bleu(row(test["statistics"]), sacrebleu_options(test["options"]))
        ours = {
            "score": repr(score.score),
            "precisions": [repr(p) for p in score.precisions],
            "bp": repr(score.bp),
        }
        theirs = {
            "score": expected_score(expected),
            "precisions": expected["precisions"],
            "bp": expected["bp"],
        }
        if ours != theirs:
            wrong.append((test["id"], ours, theirs))
    assert len(arithmetic) > 500
    assert wrong == []


def test_a_correctly_rounded_log_and_exp_give_the_same_reprs(monkeypatch: pytest.MonkeyPatch) -> None:
    # CONV-NUMBER-FORMS: glibc's exp is not always correctly rounded, but on these vectors the
    # correctly rounded log and exp (decimal's, at 60 digits, then the nearest double) give every
    # recorded score and BP.
    def exp(x: float) -> float:
        with decimal.localcontext(decimal.Context(prec=60)):
            return float(decimal.Decimal(x).exp())

    def log(x: float) -> float:
        with decimal.localcontext(decimal.Context(prec=60)):
            return float(decimal.Decimal(x).ln())

    monkeypatch.setattr(math, "exp", exp)  # the module the procedures call
    monkeypatch.setattr(math, "log", log)
    for test in [t for t in vectors_of("sacrebleu") if "statistics" in t]:
        score = sacrebleu_compute_bleu(row(test["statistics"]), sacrebleu_options(test["options"]))
        assert (repr(score.score), repr(score.bp)) == (
            expected_score(test["expected"]),
            test["expected"]["bp"],
        )


def test_sacrebleus_text_line_is_printed_byte_for_byte() -> None:
    form = SacrebleuForm()
    rendering = Rendering("text", False, 1, False, False)
    lines = [t for t in vectors_of("sacrebleu") if "line" in t["expected"]]
    wrong = []
    for test in lines:
        options = sacrebleu_options(test["options"])
        source = test["input"]
        text = {"tokenize": source["tokenize"], "lowercase": "unicode" if source["lowercase"] else "none"}
        nrefs = len(source["references"]) if "hypotheses" in source else 1
        signature = form.signature(options, text, nrefs)
        line = form.line(sacrebleu_compute_bleu(row(test["statistics"]), options), rendering, signature)
        if line != test["expected"]["line"]:
            wrong.append((test["id"], line, test["expected"]["line"]))
    assert len(lines) > 250
    assert wrong == []


def test_the_reference_counts_sacrebleus_statistics() -> None:
    # One shipped system under every recorded tokenizer and case (tests/test_real_data.py compares
    # every system with sacrebleu itself), the sentences and the generated corpora: sacrebleu's own
    # statistics are the profile's.
    checked = 0
    for test in vectors_of("sacrebleu"):
        source = test.get("input", {})
        if test["group"] == "wmt17" and "uedin" not in source["hypotheses"]:
            continue
        if "statistics" not in test or test["group"] == "compute_bleu":
            continue
        lc = "true" if source["lowercase"] else "false"
        profile = f"sacrebleu[tokenize={source['tokenize']},lc={lc}]"
        assert_sacrebleu_statistics(test, profile)
        checked += 1
    assert checked > 250


def assert_sacrebleu_statistics(test: dict[str, Any], profile: str) -> None:
    source = test["input"]
    if test["group"] == "wmt17":
        hyps = read_lines(source["hypotheses"])
        refs = [[line] for line in read_lines(source["references"][0])]
    elif test["group"] == "wmt17-sentence":
        hyps, refs = [source["hypothesis"]], [source["references"]]
    else:
        hyps, refs = source["hypotheses"], [list(r) for r in zip(*source["references"], strict=True)]
    order = test["options"]["max_ngram_order"]
    result = corpus_bleu(
        hyps, refs, profile=profile, max_order=order, smoothing="none", references_layout="segments"
    )
    stats = test["statistics"]
    assert (list(result.matches), list(result.totals)) == (stats["matches"], stats["totals"]), test["id"]
    assert (result.hyp_len, result.ref_len) == (stats["c"], stats["r"]), test["id"]


def read_lines(name: str) -> list[str]:
    text = (DATA / name).read_text(encoding="utf-8")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


def test_a_sample_of_the_sacrebleu_vectors_is_what_the_installed_sacrebleu_returns() -> None:
    sample = random.Random(38).sample(  # noqa: S311 -- a fixed sample
        [t for t in vectors_of("sacrebleu") if "statistics" in t], 60
    )
    for test in sample:
        o, s = test["options"], test["statistics"]
        score = BLEU.compute_bleu(
            list(s["matches"]),
            list(s["totals"]),
            s["c"],
            s["r"],
            o["smooth_method"],
            o["smooth_value"],
            o["effective_order"],
            o["max_ngram_order"],
        )
        assert repr(score.score) == expected_score(test["expected"]), test["id"]


@pytest.mark.parametrize("test", vectors_of("sacrebleu", "command line"), ids=lambda t: t["id"])
def test_score_with_the_sacrebleu_profile_prints_what_the_sacrebleu_command_printed(
    test: dict[str, Any], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(DATA / "wmt17-en-de")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("SACREBLEU_FORMAT", raising=False)
    assert main(["score", "--profile", "sacrebleu", *test["argv"][1:]]) == test["expected"]["exit"]
    assert capsys.readouterr().out == test["expected"]["stdout"]


# --- multi-bleu.perl ----------------------------------------------------------------------------------


def files_of(test: dict[str, Any], folder: Path) -> tuple[list[str], list[str]]:
    """The hypothesis and reference files of a test: shipped ones, or its texts written as they are."""
    source = test["input"]
    if (
        isinstance(source["hypotheses"], str)
        and "\n" not in source["hypotheses"]
        and "/" in source["hypotheses"]
    ):
        return [str(DATA / source["hypotheses"])], [str(DATA / r) for r in source["references"]]
    (folder / "hyp").write_bytes(source["hypotheses"].encode("utf-8"))
    refs = []
    for k, text in enumerate(source["references"]):
        (folder / f"ref{k}").write_bytes(text.encode("utf-8"))
        refs.append(str(folder / f"ref{k}"))
    return [str(folder / "hyp")], refs


def assert_prints_what_the_script_printed(
    test: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyps, refs = files_of(test, tmp_path)
    status = main(["score", "--profile", test["profile"], "-r", *refs, "-i", *hyps])
    out, err = capsys.readouterr()
    if test["expected"]["exit"] == 255:  # the script died: the command line says why
        assert status == 2
        assert out == ""
        assert "CONV-MULTI-BLEU" in err
    else:
        assert (status, out) == (0, test["expected"]["stdout"]), err


MULTI_BLEU_EDGE = vectors_of("multi-bleu", "edge")
MULTI_BLEU_WMT17 = vectors_of("multi-bleu", "wmt17")


@pytest.mark.parametrize("test", [*MULTI_BLEU_EDGE, *MULTI_BLEU_WMT17[:4]], ids=lambda t: t["id"])
def test_score_with_the_multi_bleu_profile_prints_what_multi_bleu_printed(
    test: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert_prints_what_the_script_printed(test, tmp_path, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("test", MULTI_BLEU_WMT17[4:], ids=lambda t: t["id"])
def test_score_with_the_multi_bleu_profile_prints_what_multi_bleu_printed_on_every_system(
    test: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert_prints_what_the_script_printed(test, tmp_path, capsys)


# --- mteval-v13a.pl and mteval-v14.pl -----------------------------------------------------------------


def mteval_command(test: dict[str, Any], folder: Path) -> list[str]:
    """``score --profile P -r REF... -i SYS...`` on the test's input, run in ``folder``, each system
    a file named as the script's sysid was."""
    source = test["input"]
    if isinstance(source["systems"], list):  # shipped files, named by their paths
        systems = source["systems"]
        refs = source["references"]
    else:
        systems = list(source["systems"])
        for name, text in source["systems"].items():
            (folder / name).write_bytes(text.encode("utf-8"))
        refs = []
        for k, text in enumerate(source["references"]):
            (folder / f"ref{k}").write_bytes(text.encode("utf-8"))
            refs.append(f"ref{k}")
    return ["score", "--profile", test["profile"], "-r", *refs, "-i", *systems]


def bleu_part(report: str) -> list[str]:
    """What a report without -b says of BLEU: the length lines, each system's BLEU and BLEU rows."""
    lines = []
    for line in report.splitlines():
        if line.startswith(("length ratio", " BLEU:")):
            lines.append(line)
        elif "BLEU score = " in line:
            lines.append(line[line.index("BLEU score = ") :])
    return lines


def assert_prints_what_mteval_printed(
    test: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = DATA if isinstance(test["input"]["systems"], list) else tmp_path
    monkeypatch.chdir(folder)
    status = main(mteval_command(test, folder))
    out, err = capsys.readouterr()
    expected = test["expected"]
    if expected["exit"] != 0:  # the script died (v13a's length line: log 0, or r = 0)
        assert status == 2
        assert "CONV-MTEVAL" in err
    elif "-b" in test["argv"]:
        assert (status, out) == (0, expected["stdout"]), err
    else:  # NIST and BLEU: the BLEU lines are the -b run's
        assert status == 0, err
        assert bleu_part(out) == bleu_part(expected["stdout"])


@pytest.mark.parametrize("test", vectors_of("mteval", "edge"), ids=lambda t: f"{t['id']}-{t['name']}")
def test_score_with_an_mteval_profile_prints_what_mteval_printed(
    test: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert_prints_what_mteval_printed(test, tmp_path, capsys, monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize(
    "test", vectors_of("mteval", "wmt17"), ids=lambda t: f"{t['id']}-{' '.join(t['argv'][7:])}"
)
def test_score_with_an_mteval_profile_prints_what_mteval_printed_on_the_shipped_systems(
    test: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert_prints_what_mteval_printed(test, tmp_path, capsys, monkeypatch)


def test_the_mteval_tables_of_two_shipped_systems_are_the_recorded_rows() -> None:
    # The default tier's look at the shipped runs: two systems' length lines, score lines and rows,
    # from the reference's statistics, are lines of each recorded report.
    names = ["wmt17-en-de/hyp.FBK.4870.de", "wmt17-en-de/hyp.online-A.0.de"]
    for test in vectors_of("mteval", "wmt17"):
        v14 = test["argv"][0] == "mteval-v14.pl"
        segments = []
        for name in names:
            refs = [[r] for r in read_lines(test["input"]["references"][0])]
            result = corpus_bleu(read_lines(name), refs, profile=test["profile"], max_order=9)
            segments.append((name, [result.statistics]))
        ours = bleu_part(MtevalForm(v14=v14).report(segments, make_options()))
        recorded = bleu_part(test["expected"]["stdout"])
        assert set(ours) <= set(recorded), test["id"]


# --- nltk ---------------------------------------------------------------------------------------------


def nltk_value(test: dict[str, Any]) -> float | int:
    s, o = test["statistics"], test["options"]
    stats = Statistics(tuple(s["matches"]), tuple(s["totals"]), s["c"], s["r"])
    last = LastSegment(tuple(s["last"]["ngrams"]), Fraction(*s["last"]["p5"]))
    return nltk_corpus_bleu(stats, last, o["method"], tuple(o["weights"]), auto_reweigh=o["auto_reweigh"])


def test_nltks_arithmetic_gives_every_recorded_repr() -> None:
    wrong = []
    for test in vectors_of("nltk"):
        expected = test["expected"]
        if "raises" in expected:
            assert expected["raises"] == "AssertionError", test["id"]
            with pytest.raises(SmoothingAssertionError):
                nltk_value(test)
            continue
        value = nltk_value(test)
        if (repr(value), type(value).__name__) != (expected["repr"], expected["type"]):
            wrong.append((test["id"], repr(value), expected["repr"]))
    assert wrong == []


def test_the_reference_counts_nltks_statistics() -> None:
    for test in vectors_of("nltk", "generated"):
        source, o = test["input"], test["options"]
        result = corpus_bleu(
            source["hypotheses"], source["references"], profile="nltk", max_order=len(o["weights"])
        )
        s = test["statistics"]
        assert (list(result.matches), list(result.totals)) == (s["matches"], s["totals"]), test["id"]
        assert (result.hyp_len, result.ref_len) == (s["c"], s["r"]), test["id"]


def test_a_sample_of_the_nltk_vectors_is_what_the_installed_nltk_returns() -> None:
    sample = random.Random(38).sample(  # noqa: S311 -- a fixed sample
        vectors_of("nltk", "generated"), 60
    )
    for test in sample:
        o = test["options"]
        method = getattr(SmoothingFunction(), f"method{o['method']}")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                value = nltk_bleu(
                    test["input"]["references"],
                    test["input"]["hypotheses"],
                    weights=tuple(o["weights"]),
                    smoothing_function=method,
                    auto_reweigh=o["auto_reweigh"],
                )
            except AssertionError:
                assert test["expected"].get("raises") == "AssertionError"
                continue
        assert repr(value) == test["expected"]["repr"], test["id"]


def test_method6s_prior_is_zero_where_p_n_minus_2_is_zero_as_in_nltk() -> None:
    # SMOOTH-NLTK-6: no corpus reaches this branch through corpus_bleu; nltk's own method6, called
    # directly on [1/2, 0/1, 1/4, 0/1] and a last hypothesis of five tokens, is the oracle. (Its zeros
    # must be 0/1 here: on CPython 3.11 nltk's unreduced 0/3 is not == 0, and the division raises.)
    p = [NltkFraction(1, 2), NltkFraction(0, 1), NltkFraction(1, 4), NltkFraction(0, 1)]
    theirs = SmoothingFunction().method6(p, references=[["a"]], hypothesis=["a", "b", "c", "x", "y"])
    counts = [NGramCounts(1, 2), NGramCounts(0, 1), NGramCounts(1, 4), NGramCounts(0, 1)]
    ours = nltk_method_6(counts, [5, 4, 3, 2])
    assert [float(x) for x in ours] == [float(x) for x in theirs] == [0.5, 0.0, 0.125, 0.0]


@pytest.mark.parametrize("method", range(8))
def test_score_with_the_nltk_profile_prints_nltks_repr(
    method: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    system = "wmt17-en-de/hyp.online-A.0.de"
    test = next(
        t
        for t in vectors_of("nltk", "wmt17")
        if t["input"]["hypotheses"] == system and t["options"]["method"] == method
    )
    hyp, ref = tmp_path / "hyp", tmp_path / "ref"
    for path, name in ((hyp, system), (ref, "wmt17-en-de/ref.de")):
        path.write_text(
            "".join(" ".join(tokenize_line(line)) + "\n" for line in read_lines(name)), encoding="utf-8"
        )
    assert main(["score", "--profile", f"nltk[method={method}]", "-r", str(ref), "-i", str(hyp)]) == 0
    assert capsys.readouterr().out == test["expected"]["repr"] + "\n"


# --- the Perl scripts, run again where they are present ------------------------------------------------


def moses_scripts() -> Path:
    """The pinned scripts (REFERENCE_BLEU_MOSES, a mosesdecoder checkout), or a skip with the reason."""
    root = os.environ.get("REFERENCE_BLEU_MOSES")
    if not root:
        pytest.skip("REFERENCE_BLEU_MOSES names no mosesdecoder checkout (.ci/run clones the pinned commit)")
    folder = Path(root) / "scripts" / "generic"
    if not all((folder / name).is_file() for name in MOSES_SCRIPTS):
        pytest.skip(f"{folder} lacks the scripts {', '.join(MOSES_SCRIPTS)}")
    if shutil.which("perl") is None:
        pytest.skip("perl is not installed")
    modules = ["perl", "-MXML::Twig", "-MSort::Naturally", "-e", "1"]
    twig = subprocess.run(modules, capture_output=True, check=False)
    if twig.returncode != 0:
        pytest.skip(
            "the mteval scripts need XML::Twig and Sort::Naturally (libxml-twig-perl, libsort-naturally-perl)"
        )
    return folder


@pytest.mark.slow
def test_multi_bleu_perl_prints_its_recorded_lines_and_what_the_profile_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scripts = moses_scripts()
    for test in [*MULTI_BLEU_EDGE, *MULTI_BLEU_WMT17[:6]]:
        source = test["input"]
        if isinstance(source["hypotheses"], str) and source["hypotheses"].startswith("wmt17"):
            hypothesis = (DATA / source["hypotheses"]).read_text(encoding="utf-8")
            references = [(DATA / r).read_text(encoding="utf-8") for r in source["references"]]
        else:
            hypothesis, references = source["hypotheses"], source["references"]
        ran = run_multi_bleu(scripts, hypothesis, references, "-lc" in test["argv"])
        assert ran == test["expected"], test["id"]
        assert_prints_what_the_script_printed({**test, "expected": ran}, tmp_path, capsys)


@pytest.mark.slow
def test_the_mteval_scripts_print_their_recorded_reports_and_what_the_profiles_print(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    scripts = moses_scripts()
    for test in vectors_of("mteval", "edge"):
        source = test["input"]
        systems = {name: segments(text) for name, text in source["systems"].items()}
        streams = [segments(text) for text in source["references"]]
        ran = run_mteval(scripts, test["argv"][0], test["argv"][7:], systems, streams)
        assert ran == test["expected"], test["id"]
        folder = tmp_path / test["id"]
        folder.mkdir()
        assert_prints_what_mteval_printed({**test, "expected": ran}, folder, capsys, monkeypatch)


@pytest.mark.slow
def test_the_mteval_scripts_print_what_the_profiles_print_on_shipped_systems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Three shipped systems, their first 600 lines each, under every profile's options.
    scripts = moses_scripts()
    names = ["wmt17-en-de/hyp.C-3MA.4959.de", "wmt17-en-de/hyp.KIT.4950.de", "wmt17-en-de/hyp.xmu.4910.de"]
    (tmp_path / "wmt17-en-de").mkdir()
    for name in [*names, "wmt17-en-de/ref.de"]:
        (tmp_path / name).write_text("\n".join(read_lines(name)[:600]) + "\n", encoding="utf-8")
    for test in vectors_of("mteval", "wmt17"):
        systems = {name: segments((tmp_path / name).read_text(encoding="utf-8")) for name in names}
        streams = [segments((tmp_path / "wmt17-en-de/ref.de").read_text(encoding="utf-8"))]
        ran = run_mteval(scripts, test["argv"][0], test["argv"][7:], systems, streams)
        case = {**test, "input": {"systems": names, "references": ["wmt17-en-de/ref.de"]}, "expected": ran}
        monkeypatch.chdir(tmp_path)
        status = main(mteval_command(case, tmp_path))
        out, err = capsys.readouterr()
        assert status == 0, err
        if "-b" in test["argv"]:
            assert out == ran["stdout"], test["id"]
        else:
            assert bleu_part(out) == bleu_part(ran["stdout"]), test["id"]


def segments(text: str) -> list[str]:
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


def test_the_sgml_wrapping_is_one_document_of_one_segment_per_line() -> None:
    assert sgml("tst", "sys", ["a b", ""]) == (
        '<tstset setid="s" srclang="any" trglang="de" sysid="sys">\n'
        '<doc sysid="sys" docid="d1" genre="news">\n<seg id="1">a b</seg>\n<seg id="2"></seg>\n</doc>\n</tstset>\n'
    )

"""Attribution and identification (spec ATTR, IDENT): hand computations and the tools' own numbers."""

from __future__ import annotations

import io
import json
import logging
from contextlib import redirect_stdout
from decimal import Context, Decimal
from fractions import Fraction
from functools import cache
from itertools import product
from typing import Any

import mpmath
import pytest

from conformance.data import WMT17, read_lines
from reference_bleu import corpus_bleu
from reference_bleu.analysis.attribution import compare, shown
from reference_bleu.analysis.counted import CountedCorpus
from reference_bleu.analysis.identification import identify, parse_reported
from reference_bleu.cli.main import main
from reference_bleu.conventions.space import make_point, named_points, profile_point
from reference_bleu.errors import BleuError
from reference_bleu.text.tokenizers import tokenize_line
from tests.test_profiles import MTEVAL_RUNS, MULTI_BLEU_RUNS

UEDIN = "hyp.uedin-nmt.4722.de"
DATA = WMT17.compressed


def test_shapley_values_match_a_hand_computation() -> None:
    # One segment: c = 4, references of 6 and 3 tokens; every n-gram of "a b c d" is in the first.
    corpus = CountedCorpus([["a b c d"]], [["a b c d e f", "a b c"]], ["s"])
    a = profile_point("paper")
    b = make_point({"ref_length": "longest", "scale": "percent", "round_digits": 1}, "b")
    result = compare(corpus, a, b, scale="percent")
    assert [p.name for p in result.players] == ["ref_length", "scale"]
    # v on the percent scale. v(∅): paper, closest r = 3 < c, BP = 1, p_n = 1: 100.
    # v(ref): r = 6, BP = exp(1 - 6/4) = exp(-1/2): 100 exp(-1/2), the exact score to 40 digits.
    mpmath.mp.dps = 60
    x = Decimal(str(mpmath.exp(mpmath.mpf(-1) / 2))[:62])
    v_ref = Fraction(Context(prec=40).plus(x)) * 100
    # v(out): 1 printed to 1 decimal x100: "100.0". v(ref, out): "60.7".
    v0, v_out, v_both = Fraction(100), Fraction(100), Fraction(607, 10)
    # φ_ref = ½[(v(ref) - v(∅)) + (v(ref,out) - v(out))]; φ_out = ½[(v(out) - v(∅)) + (v(ref,out) - v(ref))].
    phi_ref = ((v_ref - v0) + (v_both - v_out)) / 2
    phi_out = ((v_out - v0) + (v_both - v_ref)) / 2
    assert result.shapley == ((phi_ref,), (phi_out,))
    assert phi_ref + phi_out == result.difference[0] == v_both - v0
    # The path in the order asked: output first, then ref_length.
    path = compare(corpus, a, b, order=["scale"]).path
    assert [s.player.name for s in path] == ["scale", "ref_length"]
    assert [s.deltas[0] for s in path] == [v_out - v0, v_both - v_out]


def test_printed_contributions_add_up_to_the_printed_difference() -> None:
    # 1/3 + 1/3 + 1/3 = 1: rounded alone each is 0.3333 and the column would add up to 0.9999.
    assert shown([Fraction(1, 3)] * 3, 4) == ["+0.3334", "+0.3333", "+0.3333"]
    assert shown([Fraction(-1, 3), Fraction(1, 6)], 2) == ["-0.33", "+0.16"]


def test_a_refused_mixture_joins_its_axes() -> None:
    # pycocoevalcap's 0/0 is smoothed: undefined_precision="smoothed" without its smoothing is refused.
    corpus = CountedCorpus([["a b c", "a"]], [["a b c d"], ["a b"]], ["s"])
    result = compare(corpus, profile_point("paper"), profile_point("coco"))
    names = [p.name for p in result.players]
    assert "undefined_precision+smoothing" in names
    assert sum(v[0] for v in result.shapley) == result.difference[0]
    assert any("undefined_precision+smoothing" in note for note in result.merged)


RULES = product(("keep", "drop"), ("error", "empty", "drop"), ("keep", "drop"))


@pytest.mark.parametrize(("empty_refs", "no_ref", "empty_hyps"), list(RULES))
@pytest.mark.parametrize("ref_length", ["closest", "shortest", "longest", "average", "closest-first"])
def test_counted_once_scores_as_counting_again(
    empty_refs: str, no_ref: str, empty_hyps: str, ref_length: str
) -> None:
    # Empty references and candidates, ties of length: the counts reused under each rule give
    # what the API gives counting again under that rule.
    hyps = [["a b c d", "", "a a b", "b c"], ["a b", "c", "", "a b c d e"]]
    refs = [["a b c d e", "a b c"], ["", ""], ["a a", ""], ["b c d", "b"]]
    values: dict[str, Any] = {
        "empty_references": empty_refs,
        "no_reference": no_ref,
        "empty_candidates": empty_hyps,
        "ref_length": ref_length,
        "max_order": 2,
        "weights": [Fraction(1, 2)] * 2,
    }
    corpus = CountedCorpus(hyps, refs, ["x", "y"])
    point = make_point(values)
    options = dict(values.items())
    for k, system in enumerate(hyps):
        tokens = [line.split() for line in system]
        ref_tokens = [[r.split() for r in rs] for rs in refs]
        try:
            expected = corpus_bleu(tokens, ref_tokens, **options)
        except BleuError as error:
            refused = error.spec_id
        else:
            refused = ""
        if refused:
            with pytest.raises(BleuError) as raised:
                corpus.results(point)
            assert raised.value.spec_id == refused
            continue
        ours = corpus.results(point)[k]
        assert (ours.statistics, ours.score_decimal) == (expected.statistics, expected.score_decimal)


@cache
def wmt_compare() -> dict:  # type: ignore[type-arg]
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(
            [
                "compare",
                "-p",
                "sacrebleu",
                "-p",
                "nltk",
                "-r",
                str(DATA / "ref.de.xz"),
                "-i",
                str(DATA / f"{UEDIN}.xz"),
                str(DATA / "hyp.online-A.0.de.xz"),
                "-f",
                "json",
            ]
        )
    assert code == 0
    return json.loads(out.getvalue())  # type: ignore[no-any-return]


def test_compare_sacrebleu_and_nltk_on_wmt17_adds_up_exactly() -> None:
    report = wmt_compare()
    # The axes on which the profiles differ (spec CONV-PROFILES): nltk splits on whitespace,
    # takes max(1, l_n) per segment, returns early only without unigram matches, puts a sentinel
    # for log 0 and does not smooth; sacrebleu prints x100 to 1 decimal.
    assert [x["axis"] for x in report["axes"]] == [
        "tokenize",
        "denominator",
        "early_return",
        "zero_precision",
        "smoothing",
        "scale",
    ]
    for system in report["systems"]:
        difference = Fraction(system["difference"]["exact"])
        assert difference == Fraction(system["b"]["value"]["exact"]) - Fraction(system["a"]["value"]["exact"])
        assert sum(Fraction(v["exact"]) for v in system["shapley"].values()) == difference
        assert sum(Fraction(s["contribution"]["exact"]) for s in system["path"]) == difference


def test_compare_says_what_each_axis_decides_with_its_spec_id() -> None:
    """ATTR-OUTPUT: each differing axis in one entry, its spec ID, its meaning and each point's value
    named as the registry names it, within 100 columns."""
    out = io.StringIO()
    with redirect_stdout(out):
        files = ["-r", str(DATA / "ref.de.xz"), "-i", str(DATA / f"{UEDIN}.xz")]
        assert main(["compare", "-p", "sacrebleu", "-p", "nltk", *files]) == 0
    text = out.getvalue()
    section = text.split("what each axis decides\n")[1].split("\n\n")[0]
    assert max(len(line) for line in section.splitlines()) <= 100
    entries = " ".join(section.split()).split(" denominator (")
    assert entries[0].startswith("tokenize (TOK-PIPELINE): ")
    assert "sacrebleu: 13a, mteval-v13a's rules" in entries[0]
    assert "nltk: none, split on whitespace only" in entries[0]
    assert entries[1].startswith("EC-015): ")
    assert "nltk: max1-segment, max(1, l_n) per segment" in entries[1]
    for axis, spec in (("early_return", "EC-016"), ("zero_precision", "EC-002"), ("smoothing", "SMOOTH")):
        assert f"{axis} ({spec}): " in section


def test_compare_prints_what_the_tools_print() -> None:
    from nltk.translate.bleu_score import corpus_bleu as nltk_bleu  # noqa: PLC0415
    from sacrebleu.metrics.bleu import BLEU  # noqa: PLC0415

    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    system = wmt_compare()["systems"][0]
    hyp, ref = read_lines(WMT17, UEDIN), read_lines(WMT17, "ref.de")
    assert system["a"]["printed"] == BLEU().corpus_score(hyp, [ref]).format(width=1, score_only=True)
    theirs = nltk_bleu([[r.split()] for r in ref], [h.split() for h in hyp])
    assert system["b"]["printed"] == repr(theirs)


@cache
def uedin() -> CountedCorpus:
    return CountedCorpus([read_lines(WMT17, UEDIN)], [[r] for r in read_lines(WMT17, "ref.de")], [UEDIN])


def top(number: str) -> tuple[list[str], list[str]]:
    """The names of the best-ranked matches (distance 0, native form) and of every distance-0 match."""
    result = identify(uedin(), [parse_reported(number)], budget=len(named_points()))
    best = [m for m in result.matches if (m.distance, m.native) == (0, True)]
    return [m.label for m in best], [m.label for m in result.matches if m.distance == 0]


@pytest.mark.slow
def test_identify_recovers_sacrebleu_from_its_printed_number() -> None:
    from sacrebleu.metrics.bleu import BLEU  # noqa: PLC0415

    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    hyp, ref = read_lines(WMT17, UEDIN), [read_lines(WMT17, "ref.de")]
    printed = BLEU().corpus_score(hyp, ref).format(width=1, score_only=True)
    best, named = top(printed)
    assert "sacrebleu" in best
    # The ties are honest: every named sacrebleu variant listed prints the same with sacrebleu itself.
    for label in named:
        if label.startswith("sacrebleu["):
            params = dict(p.split("=") for p in label[len("sacrebleu[") : -1].split(","))
            kwargs: dict[str, Any] = {
                "smooth_method": params.get("smooth", "exp"),
                "tokenize": params.get("tokenize", "13a"),
                "lowercase": params.get("lc") == "true",
                "effective_order": params.get("eff") == "true",
            }
            assert BLEU(**kwargs).corpus_score(hyp, ref).format(width=1, score_only=True) == printed, label


@pytest.mark.slow
def test_identify_recovers_nltk_from_its_printed_number() -> None:
    from nltk.translate.bleu_score import corpus_bleu as nltk_bleu  # noqa: PLC0415

    hyp, ref = read_lines(WMT17, UEDIN), read_lines(WMT17, "ref.de")
    printed = repr(nltk_bleu([[r.split()] for r in ref], [h.split() for h in hyp]))
    best, _ = top(printed)
    assert "nltk" in best


@pytest.mark.slow
@pytest.mark.parametrize(
    ("profile", "printed"),
    [
        *[
            (f"multi-bleu{'[lc=true]' if lc else ''}", figure)
            for hyp, _, lc, figure in MULTI_BLEU_RUNS
            if hyp.endswith(UEDIN)
        ],
        *[
            (profile, figures[k])
            for system, figures in MTEVAL_RUNS
            if f"hyp.{system}.de" == UEDIN
            for k, profile in enumerate(("mteval-13a", "mteval-13a[c=true]", "mteval-14-intl"))
        ],
    ],
)
def test_identify_recovers_the_perl_scripts_from_their_recorded_numbers(profile: str, printed: str) -> None:
    best, _ = top(printed)
    assert profile in best


def test_reported_numbers_are_read_as_written() -> None:
    assert parse_reported("27.3").scale == "percent"
    assert (parse_reported("0.2731").scale, parse_reported("0.2731").digits) == ("unit", 4)
    assert parse_reported("0.5", "percent").scale == "percent"
    with pytest.raises(BleuError, match="IDENT-REPORTED"):
        parse_reported("27,3")


def test_tokens_of_a_point_are_the_command_lines() -> None:
    corpus = CountedCorpus([["Hello, World!"]], [["hello world"]], ["s"])
    hyps, refs = corpus.tokens(profile_point("sacrebleu[lc=true]").text)
    assert list(hyps[0][0]) == tokenize_line("Hello, World!", "13a", "unicode")
    assert refs[0][0] == ("hello", "world")


def test_command_line_errors_are_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    files = ["-r", str(DATA / "ref.de.xz"), "-i", str(DATA / f"{UEDIN}.xz")]
    assert main(["compare", "-p", "sacrebleu", *files]) == 2
    assert main(["identify", "--reported", "27,3", *files]) == 2
    assert main(["compare", "-p", "sacrebleu", "-p", "nltk", "--order", "nope", *files]) == 2
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 3
    assert all(line.startswith("reference-bleu: error:") for line in errors)
    assert "ATTR-CLI" in errors[0]
    assert "IDENT-REPORTED" in errors[1]
    assert "ATTR-PATH" in errors[2]
